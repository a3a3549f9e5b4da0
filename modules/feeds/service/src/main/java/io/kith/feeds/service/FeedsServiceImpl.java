package io.kith.feeds.service;

import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.feeds.api.FeedsInternal;
import io.kith.feeds.api.FeedsService;
import io.kith.feeds.service.media.MediaStore;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsInternal;
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

  /** Most users one {@link #authorCounts} call counts. */
  static final int MAX_COUNTED_AUTHORS = 100;

  private final FeedsCore core;
  private final PostAccess access;
  private final Posts posts;
  private final TimelineReads reads;
  private final Comments comments;
  private final Likes likes;
  private final PostViews views;
  private final RelationsInternal relationsInternal;

  FeedsServiceImpl(Platform platform, FeedsSettings settings, PostStore posts, Timelines timelines, MediaStore media,
                   RelationsService relations, RelationsInternal relationsInternal, AccountsService accounts) {
    this.core = FeedsCore.of(platform, settings, posts, timelines, media, relations, relationsInternal, accounts);
    this.access = new PostAccess(core);
    this.views = new PostViews(core);
    this.relationsInternal = relationsInternal;
    this.posts = new Posts(core, access, views);
    AccountsInternal accountsInternal = AccountsInternal.proxy(core.platform().vertx());
    ReaderScreen screen = new ReaderScreen(accountsInternal);
    this.reads = new TimelineReads(core, access, views, new Reach(accountsInternal, core.ties()), screen);
    this.comments = new Comments(core, access, screen);
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

  /** The erasure of deleted accounts' data (the verticle starts its consumer). */
  Erasure erasure() {
    return new Erasure(core, relationsInternal);
  }

  /** Feeds' part of account exports, in pages of {@code pageSize} records (the verticle serves it). */
  Export export(int pageSize) {
    return new Export(core, views, comments, pageSize);
  }

  /** The internal operations ({@link FeedsInternal}) over the same features, for the verticle to bind. */
  FeedsInternal internal() {
    return new FeedsInternalImpl(posts, new ModeratorRemovals(core, access, posts, comments));
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

  // ---------------------------------------------------------------- timelines

  @Override
  public Future<Page> home(long viewer, PageRequest page) {
    return items(reads.home(viewer, page.maxId(), page.sinceId(), page.limitOrDefault()));
  }

  @Override
  public Future<Page> moments(long viewer, PageRequest page) {
    return items(reads.moments(viewer, page.maxId(), page.sinceId(), page.limitOrDefault()));
  }

  @Override
  public Future<Page> userPosts(long viewer, long userId, PageRequest page) {
    return items(reads.userPosts(viewer, userId, page.maxId(), page.sinceId(), page.limitOrDefault()));
  }

  @Override
  public Future<Page> latest(long viewer, PageRequest page) {
    return items(reads.latest(viewer, page.maxId(), page.sinceId(), page.limitOrDefault()));
  }

  @Override
  public Future<Page> likedPosts(long viewer, PageRequest page) {
    return items(reads.likedPosts(viewer, page.maxId(), page.limitOrDefault()));
  }

  @Override
  public Future<Page> reposts(long viewer, long postId, PageRequest page) {
    return items(reads.reposts(viewer, postId, page.maxId(), page.limitOrDefault()));
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
  public Future<Page> comments(long viewer, long postId, PageRequest page) {
    return items(comments.comments(viewer, postId, page.maxId(), page.sinceId(), page.limitOrDefault()));
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
  public Future<Page> likers(long viewer, long postId, PageRequest page) {
    return items(likes.likers(viewer, postId, page.maxId(), page.limitOrDefault()));
  }

  /** A list's body as a page: every feeds list holds its posts, comments or likers under {@code items}. */
  private static Future<Page> items(Future<JsonObject> body) {
    return body.map(json -> Page.of("items", json));
  }

  // ---------------------------------------------------------------- author counters

  @Override
  public Future<JsonObject> authorCounts(long viewer, List<Long> userIds) {
    return Failures.guard(() -> {
      if (userIds == null || userIds.isEmpty() || userIds.size() > MAX_COUNTED_AUTHORS) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "ids",
            "ids must hold 1 to " + MAX_COUNTED_AUTHORS + " user ids");
      }
      return core.posts().authorCounts(new java.util.LinkedHashSet<>(userIds)).map(counted -> {
        JsonObject out = new JsonObject();
        for (long id : userIds) {
          JsonObject c = counted.getOrDefault(id, new JsonObject());
          out.put(Long.toString(id), new JsonObject().put("works", c.getLong("works", 0L))
              .put("likes_received", c.getLong("likes_received", 0L)).put("likes_given", c.getLong("likes_given", 0L)));
        }
        return out;
      });
    });
  }
}
