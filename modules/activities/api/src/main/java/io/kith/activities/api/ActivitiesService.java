package io.kith.activities.api;

import io.kith.platform.bus.ServiceProxies;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Meetups with a time and a place: create, edit and cancel by the organiser; join and leave with an exact capacity
 * and an optional waitlist; invitations; participant lists; the organiser's and participant's own lists; upcoming
 * public activities near a position; activities friends joined; a discussion group chat per activity; reminders.
 *
 * <p>Every method takes the acting user first ({@code actor} or {@code viewer}, filled by the gateway from a verified
 * token; {@code viewer} 0 is an anonymous reader who sees public activities only). The service decides. An activity
 * the actor may not see fails with {@link ActivitiesErrors#ACTIVITY_NOT_FOUND}, exactly like a missing one. What only
 * other domains call is on {@link ActivitiesInternal}.
 *
 * <p><b>Who sees an activity</b> (besides its organiser): nobody in a block with the organiser (either way); else
 * {@code public}: everyone; {@code friends}: the organiser's friends, and users invited or taking part;
 * {@code invitation}: users invited or taking part. A cancelled activity stays readable to the same users.
 *
 * <p><b>Activity body</b> (create; every member may be changed by {@link #update}): {@code {title (1..100 characters,
 * required), introduction? (up to 5,000), start (epoch ms, in the future, at most 2 years ahead), end (epoch ms, after
 * start, at most 30 days after it), place: {name (1..200, required), lat? (-90..90), lon? (-180..180), both
 * or neither}, capacity? (1..5,000; absent or null: no limit but the 5,000 cap), waitlist? (bool, default false),
 * visibility? ("public" default, "friends", "invitation"), cover? ({media: <media id of the organiser's upload in the
 * feeds media store>} or {url: "https://..." up to 512 characters})}}. Invalid values fail with
 * {@code validation_failed} naming the field ({@code place.lat}, {@code cover.url}...).
 *
 * <p><b>Activity view</b>: {@code {id, organiser: <user summary or {id}>, title, introduction, start, end, place:
 * {name, lat?, lon?}, capacity (null when none), waitlist (bool), visibility, cover ({media} | {url} |
 * null), status: "open" | "cancelled", participant_count, waitlist_count, discussion (the group chat's id, or null
 * while not made yet), created, updated, viewer: {status: "organiser" | "joined" | "waitlisted" | "invited" |
 * "removed" | "none", position? (1-based place in the waitlist)}}}. {@code start}/{@code end} tell upcoming, ongoing
 * and past apart.
 *
 * <p><b>Pages</b> are {@code {items, next}}: pass {@code next} as {@code cursor} for the following page (null when
 * the list ends); {@code limit} must be 1..100 (default 20).
 */
@ProxyGen
@VertxGen
public interface ActivitiesService {

  /** Event-bus address of the service. */
  String ADDRESS = "kith.activities";

  /** A proxy to the service (on any node of the cluster). */
  @GenIgnore
  static ActivitiesService proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, ActivitiesService.class, ADDRESS);
  }

  // ---------------------------------------------------------------- organiser

  /**
   * Creates an activity organised by the actor (see the activity body above); answers its view. Its discussion group
   * chat is asked of messaging at once and, if messaging does not answer, made later (the activity is created
   * anyway). Appends {@code ActivityCreated}. Limited per organiser ({@code activities.creates-per-hour}, then
   * {@code rate_limited} with {@code retry_after}).
   */
  Future<JsonObject> create(long actor, JsonObject activity);

  /**
   * Changes members of the actor's own activity (any member of the activity body; {@code introduction},
   * {@code capacity} and {@code cover} may be set to null to clear them); answers the view. A new start must be in
   * the future; a capacity below the number of participants who joined is refused ({@code validation_failed},
   * {@code capacity}); a larger one promotes waiting users. Appends {@code ActivityUpdated} with the changed fields
   * (participants are told of time and place changes). Refused with {@link ActivitiesErrors#NOT_ORGANISER} for
   * someone else's activity, {@link ActivitiesErrors#ACTIVITY_CANCELLED} for a cancelled one and
   * {@link ActivitiesErrors#ACTIVITY_STARTED} once it has ended.
   */
  Future<JsonObject> update(long actor, long activityId, JsonObject changes);

  /**
   * Cancels the actor's own activity (idempotent); it stays readable as {@code cancelled}, leaves the nearby search
   * and is never reminded. Appends {@code ActivityCancelled} naming the participants. Answers the view.
   */
  Future<JsonObject> cancel(long actor, long activityId);

  /**
   * Invites up to 100 users to the actor's own activity: they may then see it and join it whatever its visibility
   * (an invitation also lets back in a user the organiser removed). Only the organiser's friends (mutual follows) not
   * in a block with them are invited; unknown users, non-friends and users in a block are left out silently, and users
   * already invited or taking part are not invited again. Answers {@code {invited: [every distinct id asked, the
   * actor excepted]}}: the ids the call covered, the same whoever they are, so the answer never tells which users
   * exist, are friends or block the organiser. Appends {@code ActivityInvited} with the users actually newly invited
   * (when any), who are told. Refused: {@code validation_failed} on {@code users} when the activity would hold more
   * than {@code activities.max-invitees} invitations (those held plus the ids asked), {@code rate_limited} with
   * {@code retry_after} past {@code activities.invitees-per-hour} ids asked per hour (every id counts, whatever became
   * of it; a refused call counts nothing).
   */
  Future<JsonObject> invite(long actor, long activityId, List<Long> userIds);

  /**
   * The organiser removes a participant (joined or waitlisted) from their activity (idempotent): the user may not
   * join again unless invited again. The freed place goes to the first waiting user. Appends {@code ActivityLeft}
   * with {@code removed_by}.
   */
  Future<Void> removeParticipant(long actor, long activityId, long userId);

  // ---------------------------------------------------------------- participants

  /**
   * Joins an activity the actor may see (idempotent): answers {@code {activity, status: "joined" | "waitlisted",
   * position? (waitlisted), participant_count, waitlist_count}}. The capacity holds exactly under concurrent joins.
   * When every place is taken the actor is waitlisted if the activity has a waitlist (at most
   * {@code activities.max-waitlist}, then {@link ActivitiesErrors#WAITLIST_FULL}), else refused with
   * {@link ActivitiesErrors#ACTIVITY_FULL}. Also refused: {@link ActivitiesErrors#ACTIVITY_CANCELLED},
   * {@link ActivitiesErrors#ACTIVITY_STARTED} (it has started or is over),
   * {@link ActivitiesErrors#ORGANISER_CANNOT_JOIN},
   * {@link ActivitiesErrors#PARTICIPANT_REMOVED}; an activity the actor may not see (friends-only and not a friend,
   * invitation-only without an invitation, blocked) is {@link ActivitiesErrors#ACTIVITY_NOT_FOUND}. A new participant
   * is added to the discussion group and {@code ActivityJoined} is appended.
   */
  Future<JsonObject> join(long actor, long activityId);

  /**
   * Leaves an activity, from its places or its waitlist (idempotent: answers {@code status: "none"} also when the
   * actor was not taking part): {@code {activity, status, participant_count, waitlist_count}}. A freed place goes to
   * the first waiting user (who is told: {@code ActivityJoined} with {@code via: "promoted"}). The actor leaves the
   * discussion group and {@code ActivityLeft} is appended.
   */
  Future<JsonObject> leave(long actor, long activityId);

  /**
   * Participants of an activity the viewer may see, in the order they got their place: {@code {items: [{user:
   * <summary>, status, since (ms; not for invitees), friend (whether the user is the viewer's friend)}], next}}.
   * {@code query}: {@code {status? ("joined" default, in place order; "waitlisted", in line order; "invited": everyone
   * holding an invitation, by id, each with their status now; the last two for the organiser only)}}; {@code page}:
   * its limit and cursor (the {@code next} of the previous page). Users in a block with the viewer are left out (not
   * for the organiser).
   */
  Future<Page> participants(long viewer, long activityId, JsonObject query, PageRequest page);

  // ---------------------------------------------------------------- reading

  /** One activity as the viewer may see it (the view above). */
  Future<JsonObject> activity(long viewer, long activityId);

  /**
   * Activities the actor organises, ordered by start: {@code query} {@code {when: "upcoming" (default: not yet
   * ended, soonest first) | "past" (ended, latest first)}}, {@code page} its limit and cursor; cancelled ones included.
   * Answers a page of views.
   */
  Future<Page> organised(long actor, JsonObject query, PageRequest page);

  /**
   * Activities the actor joined (holds a place in), ordered by start, as {@link #organised}; cancelled ones
   * included.
   */
  Future<Page> joined(long actor, JsonObject query, PageRequest page);

  /**
   * Upcoming open public activities with coordinates within {@code radius_km} of a position: {@code query}
   * {@code {lat (-90..90), lon (-180..180), radius_km (0 < r <= 100), order? ("start" default: soonest
   * first, or "distance": nearest first)}},
       {@code page} its limit and cursor. Items are views with {@code distance_km}. Activities of
   * organisers in a block with the viewer are left out. At most the nearest {@code activities.nearby-candidates}
   * activities in the radius are considered.
   */
  Future<Page> nearby(long viewer, JsonObject query, PageRequest page);

  /**
   * Upcoming activities the viewer's friends joined and the viewer may see, soonest first: items are views with
   * {@code friends: [<summaries of the friends who joined>]} (up to 5 each). {@code page}: its limit and cursor.
   * Looks at up to {@code activities.friends-scan} friends.
   */
  Future<Page> friendsActivities(long viewer, PageRequest page);
}
