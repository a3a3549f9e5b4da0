package io.kith.feeds.service;

import io.kith.feeds.api.FeedsErrors;
import io.kith.feeds.api.events.CommentDeleted;
import io.kith.feeds.api.events.PostEdited;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;

import static io.kith.feeds.service.FeedsCore.notFound;
import static io.kith.feeds.service.FeedsCore.quietly;

/**
 * Moderation's side of feeds (issue 22): a comment looked up as a reporter sees it, and posts and comments removed on
 * a moderator's decision. A removal keeps the record for review and ends like the author's own delete (the same
 * counters, timelines and {@code PostDeleted} / {@code CommentDeleted} events, so fan-out and notifications clean up
 * as for a delete); only the moderators' view ({@link #forModerator}) still reads it.
 */
final class ModeratorRemovals {

  private final FeedsCore core;
  private final PostAccess access;
  private final Posts posts;
  private final Comments comments;
  private final PostStore store;

  ModeratorRemovals(FeedsCore core, PostAccess access, Posts posts, Comments comments) {
    this.core = core;
    this.access = access;
    this.posts = posts;
    this.comments = comments;
    this.store = core.posts();
  }

  Future<JsonObject> commentSeenBy(long viewer, long commentId) {
    // shownComment leaves out removed comments and those of users in a block with the viewer; the post must be
    // visible too: a comment on a post the viewer cannot see is missing to them
    return comments.shownComment(viewer, commentId).compose(c -> c == null ? commentNotFound()
        : access.visiblePost(viewer, c.getLong("post"))
            .recover(e -> e instanceof ServiceException se && se.failureCode() == 404 ? commentNotFound()
                : Future.failedFuture(e))
            .map(post -> new JsonObject().put("author", c.getLong("author")).put("post", c.getLong("post"))));
  }

  Future<JsonObject> remove(String type, long id, JsonObject removal) {
    return switch (type == null ? "" : type) {
      case "post" -> removePost(id, removal);
      case "comment" -> removeComment(id, removal);
      default -> Failures.failField(KithErrors.VALIDATION_FAILED, "type", "feeds removes a post or a comment");
    };
  }

  /** Marks the post removed, then runs the delete's ending as its author: counters, media, timelines, the event. */
  private Future<JsonObject> removePost(long id, JsonObject removal) {
    return store.find(id).compose(post -> {
      if (post == null || post.getBoolean("deleted", false) && !post.containsKey("removed")) {
        return notFound();
      }
      long author = post.getLong("author");
      JsonObject owner = new JsonObject().put("owner", author);
      if (post.containsKey("removed")) {
        return Future.succeededFuture(owner);
      }
      long original = post.getLong("repost_of", 0L);
      return (original == 0 ? Future.<Void>succeededFuture() : core.recount().touch(original))
          .compose(x -> Posts.beforeNarrowing(core.cache(), id))
          .compose(x -> store.markRemoved(id, removal))
          .compose(before -> quietly(core.cache().changed(id)).map(before))
          .compose(before -> posts.deleted(author, id, before))
          .map(owner);
    });
  }

  /** Marks the comment removed (its replies show a removed parent) and takes it off its post's count. */
  private Future<JsonObject> removeComment(long id, JsonObject removal) {
    return store.findComment(id).compose(c -> {
      if (c == null) {
        return commentNotFound();
      }
      long postId = c.getLong("post");
      JsonObject owner = new JsonObject().put("owner", c.getLong("author"));
      return core.recount().touch(postId).compose(x -> store.markCommentRemoved(id, removal))
          // a held comment was never counted nor told, so its removal takes nothing off
          .compose(before -> before == null || before.containsKey("held") ? Future.succeededFuture(owner)
              : store.find(postId).compose(post -> core.inc(postId, new JsonObject().put("comments", -1))
                  .onSuccess(x -> core.emit(new CommentDeleted(id, postId, post == null ? 0L : post.getLong("author"),
                      c.getLong("author"), removal.getLong("by", 0L))))
                  .map(owner)));
    });
  }

  /**
   * Releases a held post: its published visibility back, the cached copy dropped, and {@code PostEdited} marked
   * {@code released}, so the fan-out spreads it as a new post and tells its mentioned users (held, it told nobody).
   * Repeating it changes nothing.
   */
  Future<JsonObject> release(String type, long id) {
    if ("comment".equals(type)) {
      return comments.release(id);
    }
    if (!"post".equals(type)) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "type", "feeds holds posts and comments");
    }
    return store.find(id).compose(post -> {
      if (post == null || post.getBoolean("deleted", false)) {
        return notFound();
      }
      JsonObject owner = new JsonObject().put("owner", post.getLong("author"));
      JsonObject held = post.getJsonObject("held");
      if (held == null) {
        return Future.succeededFuture(owner);
      }
      String visibility = held.getString("vis", Visibility.PUBLIC);
      return store.release(id, visibility)
          .compose(released -> quietly(core.cache().changed(id)).map(released))
          .onSuccess(released -> {
            if (released != null) {
              core.emit(new PostEdited(id, post.getLong("author"), visibility, true, post.getLong("repost_of", 0L)));
            }
          })
          .map(owner);
    });
  }

  Future<JsonObject> forModerator(String type, long id) {
    boolean post = "post".equals(type);
    if (!post && !"comment".equals(type)) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "type", "feeds holds posts and comments");
    }
    return (post ? store.find(id) : store.findComment(id)).compose(doc -> {
      if (doc == null) {
        return post ? notFound() : commentNotFound();
      }
      JsonObject view = doc.copy();
      view.put("id", view.remove("_id"));
      return Future.succeededFuture(view);
    });
  }

  private static <T> Future<T> commentNotFound() {
    return Future.failedFuture(Failures.of(FeedsErrors.COMMENT_NOT_FOUND, "no such comment"));
  }
}
