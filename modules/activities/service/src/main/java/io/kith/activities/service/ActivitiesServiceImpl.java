package io.kith.activities.service;

import io.kith.activities.api.ActivitiesService;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The activities service: delegates each method to the file of its feature (see {@link ActivitiesService} and the
 * "Files" table of the module README).
 */
final class ActivitiesServiceImpl implements ActivitiesService {

  private final Creation creation;
  private final Edits edits;
  private final Invitations invitations;
  private final Joining joining;
  private final Participants participants;
  private final ActivityViews views;
  private final OwnLists lists;
  private final Nearby nearby;
  private final FriendsActivities friends;

  ActivitiesServiceImpl(Creation creation, Edits edits, Invitations invitations, Joining joining,
                        Participants participants, ActivityViews views, OwnLists lists, Nearby nearby,
                        FriendsActivities friends) {
    this.creation = creation;
    this.edits = edits;
    this.invitations = invitations;
    this.joining = joining;
    this.participants = participants;
    this.views = views;
    this.lists = lists;
    this.nearby = nearby;
    this.friends = friends;
  }

  // ---------------------------------------------------------------- organiser

  @Override
  public Future<JsonObject> create(long actor, JsonObject body) {
    return creation.create(actor, body);
  }

  @Override
  public Future<JsonObject> update(long actor, long activityId, JsonObject changes) {
    return edits.update(actor, activityId, changes);
  }

  @Override
  public Future<JsonObject> cancel(long actor, long activityId) {
    return edits.cancel(actor, activityId);
  }

  @Override
  public Future<JsonObject> invite(long actor, long activityId, List<Long> userIds) {
    return invitations.invite(actor, activityId, userIds);
  }

  @Override
  public Future<Void> removeParticipant(long actor, long activityId, long userId) {
    return participants.removeParticipant(actor, activityId, userId);
  }

  // ---------------------------------------------------------------- participants

  @Override
  public Future<JsonObject> join(long actor, long activityId) {
    return joining.join(actor, activityId);
  }

  @Override
  public Future<JsonObject> leave(long actor, long activityId) {
    return joining.leave(actor, activityId);
  }

  @Override
  public Future<Page> participants(long viewer, long activityId, JsonObject query, PageRequest page) {
    return items(participants.participants(viewer, activityId, paged(query, page)));
  }

  // ---------------------------------------------------------------- reading

  @Override
  public Future<JsonObject> activity(long viewer, long activityId) {
    return views.activity(viewer, activityId);
  }

  @Override
  public Future<Page> organised(long actor, JsonObject query, PageRequest page) {
    return items(lists.organised(actor, paged(query, page)));
  }

  @Override
  public Future<Page> joined(long actor, JsonObject query, PageRequest page) {
    return items(lists.joined(actor, paged(query, page)));
  }

  @Override
  public Future<Page> nearby(long viewer, JsonObject query, PageRequest page) {
    return items(nearby.nearby(viewer, paged(query, page)));
  }

  @Override
  public Future<Page> friendsActivities(long viewer, PageRequest page) {
    return items(friends.friendsActivities(viewer, paged(new JsonObject(), page)));
  }

  /**
   * The query the list reads: its filters with the page's limit and cursor among them, as the lists have always
   * read and checked them (a page that leaves them out leaves the list's defaults).
   */
  private static JsonObject paged(JsonObject filters, PageRequest page) {
    JsonObject query = filters == null ? new JsonObject() : filters.copy();
    if (page.limit() != null) {
      query.put("limit", page.limit());
    }
    if (page.cursor() != null) {
      query.put("cursor", page.cursor());
    }
    return query;
  }

  /** A list's body as a page: every activities list holds its activities or participants under {@code items}. */
  private static Future<Page> items(Future<JsonObject> body) {
    return body.map(json -> Page.of("items", json));
  }
}
