package io.kith.relations.service;

import io.kith.platform.Platform;
import io.kith.platform.events.EventPublisher;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsEvents;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.RelationsService;
import io.kith.relations.api.UserDirectory;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The relations service: every rule about edges between users, decided from the acting user's id. This class only
 * delegates, each method to the file of its feature (the module README lists them).
 */
final class RelationsServiceImpl implements RelationsService {

  private final Follows follows;
  private final Requests requests;
  private final FriendGroups friendGroups;
  private final Tags tags;
  private final Blocks blocks;
  private final GraphQueries queries;

  RelationsServiceImpl(Platform platform, EdgeStore edges, HotSets sets, FollowerLists followerLists, GroupStore groups,
                       TagStore tags, UserDirectory accounts) {
    RelationsSettings settings = RelationsSettings.from(platform.config().section("relations"));
    RateLimiter limiter = new RateLimiter(platform.redis());
    EventPublisher events = platform.events().publisher(RelationsEvents.DOMAIN);
    Targets targets = new Targets(edges, sets, accounts);
    UserLists lists = new UserLists(sets, accounts);
    this.follows = new Follows(edges, sets, groups, targets, lists, events, settings, limiter);
    this.requests = new Requests(edges, sets, follows, lists, events);
    this.friendGroups = new FriendGroups(groups, sets, lists);
    this.tags = new Tags(tags, targets, lists);
    this.blocks = new Blocks(edges, sets, follows, targets, lists, events, settings, limiter);
    this.queries = new GraphQueries(edges, sets, followerLists, groups, tags);
  }

  @Override
  public Future<JsonObject> follow(long actor, long target) {
    return follows.follow(actor, target);
  }

  @Override
  public Future<Void> unfollow(long actor, long target) {
    return follows.unfollow(actor, target);
  }

  @Override
  public Future<Void> removeFollower(long actor, long follower) {
    return follows.removeFollower(actor, follower);
  }

  @Override
  public Future<Page> followers(long viewer, long userId, PageRequest page) {
    return items(follows.followers(viewer, userId, page.limitOrDefault(), page.cursor()));
  }

  @Override
  public Future<Page> following(long viewer, long userId, PageRequest page) {
    return items(follows.following(viewer, userId, page.limitOrDefault(), page.cursor()));
  }

  @Override
  public Future<Page> friends(long actor, PageRequest page) {
    return items(follows.friends(actor, page.limitOrDefault(), page.cursor()));
  }

  @Override
  public Future<JsonObject> countsFor(long viewer, long userId) {
    return follows.countsFor(viewer, userId);
  }

  @Override
  public Future<Page> incomingRequests(long actor, PageRequest page) {
    return items(requests.incomingRequests(actor, page.limitOrDefault(), page.cursor()));
  }

  @Override
  public Future<Page> outgoingRequests(long actor, PageRequest page) {
    return items(requests.outgoingRequests(actor, page.limitOrDefault(), page.cursor()));
  }

  @Override
  public Future<Void> acceptRequest(long actor, long requester) {
    return requests.acceptRequest(actor, requester);
  }

  @Override
  public Future<Void> rejectRequest(long actor, long requester) {
    return requests.rejectRequest(actor, requester);
  }

  @Override
  public Future<JsonObject> createGroup(long actor, String name) {
    return friendGroups.createGroup(actor, name);
  }

  @Override
  public Future<JsonObject> renameGroup(long actor, long groupId, String name) {
    return friendGroups.renameGroup(actor, groupId, name);
  }

  @Override
  public Future<Void> deleteGroup(long actor, long groupId) {
    return friendGroups.deleteGroup(actor, groupId);
  }

  @Override
  public Future<JsonObject> groups(long actor) {
    return friendGroups.groups(actor);
  }

  @Override
  public Future<JsonObject> addGroupMembers(long actor, long groupId, List<Long> userIds) {
    return friendGroups.addGroupMembers(actor, groupId, userIds);
  }

  @Override
  public Future<JsonObject> removeGroupMembers(long actor, long groupId, List<Long> userIds) {
    return friendGroups.removeGroupMembers(actor, groupId, userIds);
  }

  @Override
  public Future<Page> groupMembers(long actor, long groupId, PageRequest page) {
    return items(friendGroups.groupMembers(actor, groupId, page.limitOrDefault(), page.cursor()));
  }

  @Override
  public Future<Void> tagUser(long actor, long target, String tag) {
    return tags.tagUser(actor, target, tag);
  }

  @Override
  public Future<Void> untagUser(long actor, long target, String tag) {
    return tags.untagUser(actor, target, tag);
  }

  @Override
  public Future<JsonObject> tags(long actor) {
    return tags.tags(actor);
  }

  @Override
  public Future<Page> taggedUsers(long actor, String tag, PageRequest page) {
    return items(tags.taggedUsers(actor, tag, page.limitOrDefault(), page.cursor()));
  }

  @Override
  public Future<JsonObject> tagsOn(long actor, long target) {
    return tags.tagsOn(actor, target);
  }

  @Override
  public Future<Void> block(long actor, long target) {
    return blocks.block(actor, target);
  }

  @Override
  public Future<Void> unblock(long actor, long target) {
    return blocks.unblock(actor, target);
  }

  @Override
  public Future<Page> blocks(long actor, PageRequest page) {
    return items(blocks.blocks(actor, page.limitOrDefault(), page.cursor()));
  }

  @Override
  public Future<Void> mute(long actor, long target) {
    return blocks.mute(actor, target);
  }

  @Override
  public Future<Void> unmute(long actor, long target) {
    return blocks.unmute(actor, target);
  }

  @Override
  public Future<Page> mutes(long actor, PageRequest page) {
    return items(blocks.mutes(actor, page.limitOrDefault(), page.cursor()));
  }

  @Override
  public Future<Void> hide(long actor, long target) {
    return blocks.hide(actor, target);
  }

  @Override
  public Future<Void> unhide(long actor, long target) {
    return blocks.unhide(actor, target);
  }

  @Override
  public Future<Page> hides(long actor, PageRequest page) {
    return items(blocks.hides(actor, page.limitOrDefault(), page.cursor()));
  }

  @Override
  public Future<JsonObject> relationships(long viewer, List<Long> userIds) {
    return queries.relationships(viewer, userIds);
  }

  /** The internal operations ({@link RelationsInternal}) over the same features, for the verticle to bind. */
  RelationsInternal internal() {
    return new RelationsInternalImpl(follows, queries);
  }

  /** A list's body as a page: every relations list holds its users (or ids) under {@code items}. */
  static Future<Page> items(Future<JsonObject> body) {
    return body.map(json -> Page.of("items", json));
  }
}
