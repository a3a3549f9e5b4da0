package io.kith.feeds.service;

import io.kith.feeds.api.events.PostLiked;
import io.kith.feeds.api.events.PostUnliked;
import io.kith.platform.error.Failures;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.page.VisiblePages;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.kith.feeds.service.FeedsCore.MAX_HIDDEN_SCAN;
import static io.kith.feeds.service.FeedsCore.MINUTE;
import static io.kith.feeds.service.FeedsCore.checkPage;
import static io.kith.feeds.service.FeedsCore.notFound;
import static io.kith.feeds.service.FeedsCore.quietly;
import static io.kith.feeds.service.FeedsCore.requireUser;

/** Likes: like, unlike (taking one's like back), and the likers of a post, without users in a block. */
final class Likes {

  private final FeedsCore core;
  private final PostAccess access;
  private final PostStore posts;
  private final ViewerFlags flags;
  private final CounterRecount recount;

  Likes(FeedsCore core, PostAccess access) {
    this.core = core;
    this.access = access;
    this.posts = core.posts();
    this.flags = core.flags();
    this.recount = core.recount();
  }

  Future<JsonObject> like(long actor, long postId) {
    return Failures.guard(() -> {
      requireUser(actor);
      return core.limit("like", actor, core.settings().likesPerMinute(), MINUTE, "likes per minute")
          .compose(v -> access.visiblePost(actor, postId))
          .compose(post -> add(actor, postId, post))
          .compose(x -> likeState(postId, true));
    });
  }

  /** Stores the like (once per user); a new like is counted, flagged and announced. */
  private Future<Void> add(long actor, long postId, JsonObject post) {
    long likeId = core.platform().ids().next();
    return recount.touch(postId).compose(x -> posts.like(likeId, postId, actor, post.getLong("author")))
        .compose(added -> !added ? Future.succeededFuture()
            : core.inc(postId, new JsonObject().put("likes", 1))
                .compose(x -> quietly(flags.add(ViewerFlags.LIKED, actor, postId, likeId))).onSuccess(x ->
                core.emit(new PostLiked(postId, post.getLong("author"), actor))));
  }

  Future<JsonObject> unlike(long actor, long postId) {
    return Failures.guard(() -> {
      requireUser(actor);
      // taking back one's own like needs no visibility: a user must be able to withdraw it from a post they can no
      // longer see (they knew the post when they liked it; the answer then says nothing more about it). Without a
      // like to take back, an invisible post is post_not_found like a missing one.
      return core.limit("like", actor, core.settings().likesPerMinute(), MINUTE, "likes per minute")
          .compose(v -> posts.find(postId))
          .compose(post -> post == null || post.getBoolean("deleted", false) ? notFound()
              : access.visibleDocs(actor, List.of(post), false)
                  .compose(visible -> takeBack(actor, postId, post, !visible.isEmpty())));
    });
  }

  /** Removes the actor's like, if any; {@code visible}: whether the actor may see the post. */
  private Future<JsonObject> takeBack(long actor, long postId, JsonObject post, boolean visible) {
    return recount.touch(postId)
        .compose(x -> posts.unlike(postId, actor))
        .compose(removed -> {
          if (!removed) {
            return visible ? likeState(postId, false) : notFound();
          }
          return core.inc(postId, new JsonObject().put("likes", -1))
              .compose(x -> quietly(flags.remove(ViewerFlags.LIKED, actor, postId)))
              .onSuccess(x -> core.emit(new PostUnliked(postId, post.getLong("author"), actor)))
              .compose(x -> visible ? likeState(postId, false)
                  : Future.succeededFuture(new JsonObject().put("liked", false)));
        });
  }

  private Future<JsonObject> likeState(long postId, boolean liked) {
    return posts.find(postId).map(p -> new JsonObject().put("liked", liked)
        .put("like_count", p == null ? 0 : p.getLong("likes", 0L)));
  }

  Future<JsonObject> likers(long viewer, long postId, long maxId, int limit) {
    return Failures.guard(() -> {
      checkPage(maxId, 0, limit);
      // the page and its cursor come from the likers shown only, as for comments
      VisiblePages.Rows<JsonObject, Long> rows = (before, count) ->
          posts.likers(postId, before == null ? 0 : before, count);
      return access.visiblePost(viewer, postId).compose(post -> VisiblePages.read(rows,
              likes -> likersShown(viewer, likes), l -> l.getLong("_id"), Liker::like, maxId == 0 ? null : maxId,
              limit, MAX_HIDDEN_SCAN))
          .map(page -> {
            JsonArray items = new JsonArray();
            page.items().forEach(l -> items.add(l.item()));
            return new JsonObject().put("items", items).put("next_max_id", page.next());
          });
    });
  }

  /** A like as the likers list shows it: the like's id (the cursor) and the {user, at} item. */
  private record Liker(long like, JsonObject item) {
  }

  /** The likes of users who exist and are in no block with the viewer. */
  private Future<List<Liker>> likersShown(long viewer, List<JsonObject> likes) {
    List<Long> users = likes.stream().map(l -> l.getLong("u")).toList();
    return Future.all(core.ties().of(viewer, users, false), core.summaries(viewer, users)).map(all -> {
      Map<Long, Visibility.Tie> t = all.resultAt(0);
      JsonObject sums = all.resultAt(1);
      List<Liker> out = new ArrayList<>();
      for (JsonObject l : likes) {
        long u = l.getLong("u");
        JsonObject summary = sums.getJsonObject(Long.toString(u));
        if (summary != null && !t.getOrDefault(u, Visibility.Tie.NONE).blocked()) {
          out.add(new Liker(l.getLong("_id"),
              new JsonObject().put("user", summary).put("at", IdGenerator.timeOf(l.getLong("_id")))));
        }
      }
      return out;
    });
  }
}
