package io.kith.feeds.service;

import io.kith.accounts.api.AccountsService;
import io.kith.feeds.api.FeedsService;
import io.kith.feeds.service.media.MediaStore;
import io.kith.platform.Platform;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The feeds service: builds its features on the stores the verticle made and delegates each operation to the
 * feature's file ({@link Posts}, {@link TimelineReads}, {@link Comments}, {@link Likes}; views in {@link PostViews},
 * the visibility rule's use in {@link PostAccess}). See {@link FeedsService} and the module README.
 */
final class FeedsServiceImpl implements FeedsService {

  private final FeedsCore core;
  private final PostAccess access;
  private final Posts posts;
  private final TimelineReads reads;
  private final Comments comments;
  private final Likes likes;

  FeedsServiceImpl(Platform platform, FeedsSettings settings, PostStore posts, Timelines timelines, MediaStore media,
                   RelationsService relations, AccountsService accounts) {
    this.core = FeedsCore.of(platform, settings, posts, timelines, media, relations, accounts);
    this.access = new PostAccess(core);
    PostViews views = new PostViews(core);
    this.posts = new Posts(core, access, views);
    this.reads = new TimelineReads(core, access, views);
    this.comments = new Comments(core, access);
    this.likes = new Likes(core, access);
  }

  /** The counter recount this service marks posts for (the verticle runs its rounds). */
  CounterRecount recount() {
    return core.recount();
  }

  /** An author's recent post ids from the record (their own timeline), for the fan-out worker. */
  Future<List<Long>> ownPosts(long author) {
    return reads.ownPosts(author);
  }

  /** The live documents the viewer may see (and on timelines does not mute), in the given order. */
  Future<List<JsonObject>> visibleDocs(long viewer, List<JsonObject> docs, boolean timeline) {
    return access.visibleDocs(viewer, docs, timeline);
  }

  // ---------------------------------------------------------------- posts

  @Override
  public Future<JsonObject> publish(long actor, JsonObject body) {
    return posts.publish(actor, body);
  }

  @Override
  public Future<JsonObject> repost(long actor, long postId, JsonObject body) {
    return posts.repost(actor, postId, body);
  }

  @Override
  public Future<JsonObject> edit(long actor, long postId, JsonObject changes) {
    return posts.edit(actor, postId, changes);
  }

  @Override
  public Future<Void> delete(long actor, long postId) {
    return posts.delete(actor, postId);
  }

  @Override
  public Future<JsonObject> post(long viewer, long postId) {
    return posts.post(viewer, postId);
  }

  @Override
  public Future<JsonObject> visiblePosts(long viewer, List<Long> postIds) {
    return posts.visiblePosts(viewer, postIds);
  }

  // ---------------------------------------------------------------- timelines

  @Override
  public Future<JsonObject> home(long viewer, long maxId, long sinceId, int limit) {
    return reads.home(viewer, maxId, sinceId, limit);
  }

  @Override
  public Future<JsonObject> moments(long viewer, long maxId, long sinceId, int limit) {
    return reads.moments(viewer, maxId, sinceId, limit);
  }

  @Override
  public Future<JsonObject> userPosts(long viewer, long userId, long maxId, long sinceId, int limit) {
    return reads.userPosts(viewer, userId, maxId, sinceId, limit);
  }

  @Override
  public Future<JsonObject> latest(long viewer, long maxId, long sinceId, int limit) {
    return reads.latest(viewer, maxId, sinceId, limit);
  }

  @Override
  public Future<JsonObject> likedPosts(long viewer, long maxId, int limit) {
    return reads.likedPosts(viewer, maxId, limit);
  }

  @Override
  public Future<JsonObject> reposts(long viewer, long postId, long maxId, int limit) {
    return reads.reposts(viewer, postId, maxId, limit);
  }

  // ---------------------------------------------------------------- comments

  @Override
  public Future<JsonObject> comment(long actor, long postId, JsonObject body) {
    return comments.comment(actor, postId, body);
  }

  @Override
  public Future<Void> deleteComment(long actor, long commentId) {
    return comments.deleteComment(actor, commentId);
  }

  @Override
  public Future<JsonObject> comments(long viewer, long postId, long maxId, long sinceId, int limit) {
    return comments.comments(viewer, postId, maxId, sinceId, limit);
  }

  // ---------------------------------------------------------------- likes

  @Override
  public Future<JsonObject> like(long actor, long postId) {
    return likes.like(actor, postId);
  }

  @Override
  public Future<JsonObject> unlike(long actor, long postId) {
    return likes.unlike(actor, postId);
  }

  @Override
  public Future<JsonObject> likers(long viewer, long postId, long maxId, int limit) {
    return likes.likers(viewer, postId, maxId, limit);
  }
}
