package io.kith.feeds.api;

import io.kith.platform.bus.ServiceProxies;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * Posts with text, media and place; who may see each post; home, moments, profile, public and liked timelines;
 * comments, reposts and likes.
 *
 * <p>Methods that act for a user take that user's id ({@code actor} or {@code viewer}) first; {@code viewer} 0 is an
 * anonymous reader, who sees public posts only. One rule decides whether a viewer may see a post, on every path; a post
 * the viewer may not see fails with {@code post_not_found}, exactly like a missing one. What only other domains call
 * is on {@link FeedsInternal}.
 *
 * <p><b>Post body</b> (publish, repost): {@code {text, media: [ids], place: {name, lat, lon}, mentions: [user ids],
 * visibility, audience: {users: [ids], groups: [ids], tags: [names]}}}; {@code visibility} is one of {@code public}
 * (default), {@code followers}, {@code friends}, {@code private}, {@code only} (just the audience) and {@code except}
 * (friends but not the audience). Text up to 5,000 characters; up to 9 images, or one video with at most one cover
 * image; the media must have been uploaded by the actor.
 *
 * <p><b>Post view</b>: {@code {id, author: <user summary>, text, media: [{id, kind, content_type, size}], place,
 * mentions, visibility, audience (to the author only), created, edited, counts: {likes, comments, reposts,
 * reposts_total}, viewer: {liked, reposted, following}, repost_of}} where {@code repost_of} is null, or
 * {@code {state: "visible", post: <view>}}, {@code {state: "deleted"}} or {@code {state: "not_visible"}}.
 *
 * <p><b>Timeline pages</b> are newest first: {@code {items: [post views], next_max_id, newest_id}}; pass
 * {@code next_max_id} as {@code maxId} for older posts (null when the list is known to end here; a full last page may
 * be followed by an empty one), {@code newest_id} as {@code sinceId} to poll for newer ones. {@code maxId}/
 * {@code sinceId} 0 mean "none"; {@code limit} must be 1..100. A repost carries no media of its own.
 */
@ProxyGen
@VertxGen
public interface FeedsService {

  /** Event-bus address of the service. */
  String ADDRESS = "kith.feeds";

  /** A proxy to the service (on any node of the cluster). */
  @GenIgnore
  static FeedsService proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, FeedsService.class, ADDRESS);
  }

  // ---------------------------------------------------------------- posts

  /** Publishes a post; returns its view. Fan-out to followers' timelines happens after the reply. */
  Future<JsonObject> publish(long actor, JsonObject post);

  /**
   * Reposts {@code postId} (which the actor must be able to see) with an optional text and its own visibility; returns
   * the new post's view. Reposting a repost reposts its original.
   */
  Future<JsonObject> repost(long actor, long postId, JsonObject post);

  /** Changes the text, place or visibility/audience of the actor's own post; returns its view. */
  Future<JsonObject> edit(long actor, long postId, JsonObject changes);

  /** Deletes the actor's own post (idempotent for the author). */
  Future<Void> delete(long actor, long postId);

  /** One post as {@code viewer} may see it. */
  Future<JsonObject> post(long viewer, long postId);

  // ---------------------------------------------------------------- timelines

  /** Posts of the people the viewer follows, and the viewer's own. */
  Future<Page> home(long viewer, PageRequest page);

  /** Posts of the viewer's friends, and the viewer's own (the WeChat Moments view). */
  Future<Page> moments(long viewer, PageRequest page);

  /** What {@code viewer} may see of {@code userId}'s posts. */
  Future<Page> userPosts(long viewer, long userId, PageRequest page);

  /** Public posts of everyone, newest first. */
  Future<Page> latest(long viewer, PageRequest page);

  /**
   * Posts the viewer liked, most recent like first; the page's {@code max_id} pages by like ({@code next_max_id}
   * is a like id).
   */
  Future<Page> likedPosts(long viewer, PageRequest page);

  /** Reposts of {@code postId} that the viewer may see, newest first. */
  Future<Page> reposts(long viewer, long postId, PageRequest page);

  // ---------------------------------------------------------------- comments

  /**
   * Comments on a post the actor may see: {@code {text (1..2,000), reply_to (a comment id of the same post, optional)}}.
   *
   * @return {@code {id, post, author: <summary>, text, reply_to: {id, author} | null, created}}
   */
  Future<JsonObject> comment(long actor, long postId, JsonObject comment);

  /** Deletes a comment: by its author, or by the author of its post. */
  Future<Void> deleteComment(long actor, long commentId);

  /** Comments of a post, newest first: {@code {items, next_max_id, newest_id}}. */
  Future<Page> comments(long viewer, long postId, PageRequest page);

  // ---------------------------------------------------------------- likes

  /** Likes a post the actor may see (idempotent): {@code {liked: true, like_count}}. */
  Future<JsonObject> like(long actor, long postId);

  /** Takes back a like (idempotent): {@code {liked: false, like_count}}. */
  Future<JsonObject> unlike(long actor, long postId);

  /** Who liked a post, most recent first: {@code {items: [{user: <summary>, at}], next_max_id}}. */
  Future<Page> likers(long viewer, long postId, PageRequest page);

  // ---------------------------------------------------------------- author counters

  /**
   * The author counters of up to 100 users, as a profile screen shows them: {@code {"<id>": {works, likes_received,
   * likes_given}}} with an entry for every id asked (zeros for a user with none). {@code works}: their live original
   * posts (reposts and deleted posts are not counted); {@code likes_received}: the likes on those posts in total;
   * {@code likes_given}: the likes they gave. Counted from the records (the per-post like counters, kept exact and
   * recounted like every post counter), so they are exact under concurrency. An empty or longer list is
   * {@code validation_failed} on {@code ids}.
   */
  Future<JsonObject> authorCounts(long viewer, java.util.List<Long> userIds);
}
