package io.kith.relations.api;

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
 * Every edge between two users: follows, follow requests, friendships (mutual follows), friend groups, contact tags,
 * blocks, mutes ("don't see his posts") and hides ("don't let him see mine"); and the answer to "what is A to B?"
 * for other domains, in batches. The queries that trust their caller are on {@link RelationsInternal}.
 *
 * <p>Methods that act for a user take that user's id ({@code actor} or {@code viewer}) first; the service decides.
 * Lists page newest first by cursor: pass the {@code next} of the previous page as {@code cursor} (null for the
 * first page); {@code limit} is clamped to 1..100. A page is {@code {items: [...], next: <cursor or null>}}.
 */
@ProxyGen
@VertxGen
public interface RelationsService {

  /** Event-bus address of the service. */
  String ADDRESS = "kith.relations";

  /** A proxy to the service (on any node of the cluster). */
  @GenIgnore
  static RelationsService proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, RelationsService.class, ADDRESS);
  }

  // ---------------------------------------------------------------- follow

  /**
   * Follows {@code target} (idempotent). When the target requires approval a pending request is made instead.
   * Follows and unfollows past {@code relations.follows-per-minute} are {@code rate_limited} with {@code retry_after}.
   *
   * @return {@code {state: "following" | "requested"}}
   */
  Future<JsonObject> follow(long actor, long target);

  /** Stops following {@code target}, or cancels a pending request to them (idempotent; counted as {@link #follow}). */
  Future<Void> unfollow(long actor, long target);

  /**
   * Removes {@code follower}'s follow of the actor without blocking them (idempotent: 204 when they do not follow).
   * The same as {@code follower} unfollowing: counts, friendship and timelines follow the {@code UserUnfollowed}
   * event; the removed follower is not told and may follow again (by request when the actor requires approval).
   */
  Future<Void> removeFollower(long actor, long follower);

  /** Who follows {@code userId}, newest first: items {@code {user: <summary>, since}}. */
  Future<Page> followers(long viewer, long userId, PageRequest page);

  /** Whom {@code userId} follows, newest first: items {@code {user: <summary>, since}}. */
  Future<Page> following(long viewer, long userId, PageRequest page);

  /** The actor's friends (mutual follows), newest friendship first: items {@code {user: <summary>, since}}. */
  Future<Page> friends(long actor, PageRequest page);

  /**
   * The counts of {@code userId} as {@code viewer} may see them: not found when the user does not exist or a block
   * stands between the two.
   */
  Future<JsonObject> countsFor(long viewer, long userId);

  // ---------------------------------------------------------------- requests

  /** Pending requests to the actor, newest first: items {@code {user: <summary>, since}}. */
  Future<Page> incomingRequests(long actor, PageRequest page);

  /** The actor's own pending requests, newest first. */
  Future<Page> outgoingRequests(long actor, PageRequest page);

  /** Accepts {@code requester}'s pending request: they now follow the actor. */
  Future<Void> acceptRequest(long actor, long requester);

  /** Rejects {@code requester}'s pending request (silently to them). */
  Future<Void> rejectRequest(long actor, long requester);

  // ---------------------------------------------------------------- friend groups

  /** Creates a friend group: {@code {id, name, size, created}}. At most 100 groups per user, names 1..40. */
  Future<JsonObject> createGroup(long actor, String name);

  /** Renames one of the actor's groups. */
  Future<JsonObject> renameGroup(long actor, long groupId, String name);

  /** Deletes one of the actor's groups. */
  Future<Void> deleteGroup(long actor, long groupId);

  /** The actor's groups: {@code {items: [{id, name, size, created}]}}. */
  Future<JsonObject> groups(long actor);

  /**
   * Adds friends of the actor to one of their groups (at most 5,000 members per group, 500 per call); ids that are not
   * the actor's friends fail the whole call naming them.
   *
   * @return the group
   */
  Future<JsonObject> addGroupMembers(long actor, long groupId, List<Long> userIds);

  /** Removes members from one of the actor's groups (at most 500 per call). */
  Future<JsonObject> removeGroupMembers(long actor, long groupId, List<Long> userIds);

  /** Members of one of the actor's groups, newest first. */
  Future<Page> groupMembers(long actor, long groupId, PageRequest page);

  // ---------------------------------------------------------------- contact tags

  /** Puts the actor's tag on {@code target} (idempotent; tags 1..30 characters, case-insensitive, 200 per user). */
  Future<Void> tagUser(long actor, long target, String tag);

  /** Takes the actor's tag off {@code target}. */
  Future<Void> untagUser(long actor, long target, String tag);

  /** The actor's tags with how many users carry each: {@code {items: [{tag, count}]}}. */
  Future<JsonObject> tags(long actor);

  /** Users the actor put under {@code tag}, newest first. */
  Future<Page> taggedUsers(long actor, String tag, PageRequest page);

  /** The actor's tags on {@code target}: {@code {items: [tag, ...]}}. */
  Future<JsonObject> tagsOn(long actor, long target);

  // ---------------------------------------------------------------- blocks, mutes, hides

  /**
   * Blocks {@code target}: follows both ways, requests and friendship end; silent to them. Blocks and unblocks past
   * {@code relations.blocks-per-minute} are {@code rate_limited} with {@code retry_after}.
   */
  Future<Void> block(long actor, long target);

  /** Unblocks {@code target} (nothing is restored; counted as {@link #block}). */
  Future<Void> unblock(long actor, long target);

  /** Users the actor blocked, newest first. */
  Future<Page> blocks(long actor, PageRequest page);

  /** "Don't see his posts": {@code target}'s posts leave the actor's timelines. */
  Future<Void> mute(long actor, long target);

  /** Undoes {@link #mute}. */
  Future<Void> unmute(long actor, long target);

  /** Users the actor muted, newest first. */
  Future<Page> mutes(long actor, PageRequest page);

  /** "Don't let him see mine": the actor's posts never reach {@code target}. */
  Future<Void> hide(long actor, long target);

  /** Undoes {@link #hide}. */
  Future<Void> unhide(long actor, long target);

  /** Users the actor hides from, newest first. */
  Future<Page> hides(long actor, PageRequest page);

  // ---------------------------------------------------------------- what users are to the viewer

  /**
   * What each of up to 1,000 users is to {@code viewer}: {@code {"<id>": {following, followed_by, friend, requested,
   * blocking, blocked_by, muting, hidden_from, tags: [...], groups: [ids...]}}} ({@code requested}: the viewer has a
   * pending request to them; {@code hidden_from}: they hide their posts from the viewer).
   */
  Future<JsonObject> relationships(long viewer, List<Long> userIds);
}
