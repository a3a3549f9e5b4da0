package io.kith.feeds.service;

import io.kith.feeds.api.FeedsErrors;
import io.kith.feeds.api.events.CommentAdded;
import io.kith.feeds.api.events.ContentHeld;
import io.kith.feeds.api.events.CommentDeleted;
import io.kith.platform.error.Failures;
import io.kith.platform.page.VisiblePages;
import io.kith.platform.text.ContentFilters;
import io.kith.platform.text.UserText;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.kith.feeds.service.FeedsCore.MAX_HIDDEN_SCAN;
import static io.kith.feeds.service.FeedsCore.MINUTE;
import static io.kith.feeds.service.FeedsCore.checkPage;
import static io.kith.feeds.service.FeedsCore.requireUser;

/** Comments on posts: add (or reply), delete, and the comments of a post, without those of users in a block. */
final class Comments {

  static final int MAX_COMMENT = 2_000;

  private final FeedsCore core;
  private final PostAccess access;
  private final PostStore posts;
  private final Ties ties;
  private final ReaderScreen screen;

  Comments(FeedsCore core, PostAccess access, ReaderScreen screen) {
    this.core = core;
    this.access = access;
    this.screen = screen;
    this.posts = core.posts();
    this.ties = core.ties();
  }

  Future<JsonObject> comment(long actor, long postId, JsonObject body) {
    return Failures.guard(() -> {
      requireUser(actor);
      JsonObject b = body == null ? new JsonObject() : body;
      for (String f : b.fieldNames()) {
        if (!Set.of("text", "reply_to").contains(f)) {
          throw PostDraft.invalid(f, "unknown field " + f);
        }
      }
      Object t = b.getValue("text");
      if (!(t instanceof String text) || text.isBlank() || text.codePointCount(0, text.length()) > MAX_COMMENT) {
        throw PostDraft.invalid("text", "a comment is 1 to " + MAX_COMMENT + " characters");
      }
      long heldBy = ContentFilters.screen("comment", "text", UserText.lines("text", text));
      Object r = b.getValue("reply_to");
      if (r != null && (!(r instanceof Number n) || n.longValue() <= 0)) {
        throw PostDraft.invalid("reply_to", "reply_to must be a comment id");
      }
      long replyTo = r == null ? 0 : ((Number) r).longValue();
      return core.limit("comment", actor, core.settings().commentsPerMinute(), MINUTE, "comments per minute")
          .compose(v -> access.visiblePost(actor, postId))
          .compose(post -> (replyTo == 0 ? Future.succeededFuture((JsonObject) null) : shownComment(actor, replyTo))
              .compose(parent -> add(actor, postId, post, text, replyTo, parent, heldBy)));
    });
  }

  /**
   * Stores a comment on a post the actor may see; a reply's parent must be a comment shown on that post. A comment a
   * filter holds ({@code heldBy}) is stored with {@code held}, shown to its author only, neither counted nor told
   * ({@code ContentHeld} instead of {@code CommentAdded}) until {@link #release}.
   */
  private Future<JsonObject> add(long actor, long postId, JsonObject post, String text, long replyTo,
                                 JsonObject parent, long heldBy) {
    if (replyTo != 0 && (parent == null || parent.getLong("post") != postId)) {
      return Future.failedFuture(Failures.field(FeedsErrors.COMMENT_NOT_FOUND, "reply_to",
          "no such comment on this post"));
    }
    long id = core.platform().ids().next();
    JsonObject doc = new JsonObject().put("_id", id).put("post", postId).put("author", actor)
        .put("text", text).put("reply_to", replyTo)
        .put("reply_to_author", parent == null ? 0L : parent.getLong("author"))
        .put("created", System.currentTimeMillis());
    if (heldBy != 0) {
      doc.put("held", new JsonObject().put("filter", heldBy).put("at", doc.getLong("created")));
      return posts.insertComment(doc).compose(x -> {
        core.emit(new ContentHeld("comment", id, actor, postId, heldBy));
        return commentViews(actor, List.of(doc)).map(list -> list.get(0));
      });
    }
    return core.recount().touch(postId).compose(x -> posts.insertComment(doc))
        .compose(x -> shown(doc, post.getLong("author")))
        .compose(x -> commentViews(actor, List.of(doc)).map(list -> list.get(0)));
  }

  // a comment now shown to all: counted on its post, and told (CommentAdded) to the post's author and the replied
  private Future<Void> shown(JsonObject doc, long postAuthor) {
    long postId = doc.getLong("post");
    return core.inc(postId, new JsonObject().put("comments", 1)).onSuccess(x ->
        core.emit(new CommentAdded(doc.getLong("_id"), postId, postAuthor, doc.getLong("author"),
            doc.getLong("reply_to", 0L), doc.getLong("reply_to_author", 0L))));
  }

  /** Takes a filter's hold off a comment (a moderator dismissed its report): counted and told as if just added. */
  Future<JsonObject> release(long commentId) {
    return posts.findComment(commentId).compose(c -> {
      if (c == null || c.containsKey("removed")) {
        return commentNotFound();
      }
      JsonObject owner = new JsonObject().put("owner", c.getLong("author"));
      long postId = c.getLong("post");
      return core.recount().touch(postId).compose(x -> posts.releaseComment(commentId))
          .compose(released -> released == null ? Future.succeededFuture()
              : posts.find(postId).compose(post -> shown(released, post == null ? 0L : post.getLong("author"))))
          .map(owner);
    });
  }

  Future<Void> deleteComment(long actor, long commentId) {
    return Failures.guard(() -> {
      requireUser(actor);
      return posts.findComment(commentId).compose(c -> c == null || c.containsKey("removed") ? commentNotFound()
          : posts.find(c.getLong("post")).compose(post -> remove(actor, commentId, c, post)));
    });
  }

  /** Removes a comment from a live post: the commenter or the post's author may; others are refused. */
  private Future<Void> remove(long actor, long commentId, JsonObject c, JsonObject post) {
    long postId = c.getLong("post");
    if (post == null || post.getBoolean("deleted", false)) {
      return commentNotFound();
    }
    long commenter = c.getLong("author");
    long postAuthor = post.getLong("author");
    if (actor != commenter && actor != postAuthor) {
      return access.visibleDocs(actor, List.of(post), false).compose(v -> v.isEmpty() ? commentNotFound()
          : Future.failedFuture(Failures.of(FeedsErrors.NOT_AUTHOR,
              "only the commenter or the post's author may delete a comment")));
    }
    return core.recount().touch(postId).compose(x -> posts.removeComment(commentId))
        // a held comment was never counted nor told
        .compose(removed -> !removed || c.containsKey("held") ? Future.succeededFuture()
            : core.inc(postId, new JsonObject().put("comments", -1)).onSuccess(x ->
                core.emit(new CommentDeleted(commentId, postId, postAuthor, commenter, actor))));
  }

  private static <T> Future<T> commentNotFound() {
    return Future.failedFuture(Failures.of(FeedsErrors.COMMENT_NOT_FOUND, "no such comment"));
  }

  Future<JsonObject> comments(long viewer, long postId, long maxId, long sinceId, int limit) {
    return Failures.guard(() -> {
      checkPage(maxId, sinceId, limit);
      // pages and both cursors come from the comments shown only: a cursor at a left-out comment would tell the
      // viewer that a user in a block with them commented, and at what time
      VisiblePages.Rows<JsonObject, Long> rows = (before, count) ->
          posts.comments(postId, before == null ? 0 : before, sinceId, count);
      Future<Boolean> hide = screen.hides(viewer);
      return access.visiblePost(viewer, postId).compose(post -> VisiblePages.read(rows,
              docs -> commentViews(viewer, docs).compose(v -> hide.map(h -> h
                  ? ReaderScreen.without(viewer, v, "comment") : v)), d -> d.getLong("_id"), v -> v.getLong("id"),
              maxId == 0 ? null : maxId, limit, MAX_HIDDEN_SCAN))
          .map(page -> new JsonObject()
              .put("items", new JsonArray(page.items()))
              .put("next_max_id", page.next())
              .put("newest_id", page.items().isEmpty() ? (sinceId > 0 ? sinceId : null)
                  : page.items().get(0).getLong("id")));
    });
  }

  /**
   * The comment when the viewer may see it in a list; null when it is missing or by a user in a block with the viewer,
   * so that replying to it is comment_not_found either way.
   */
  Future<JsonObject> shownComment(long viewer, long commentId) {
    return posts.findComment(commentId).compose(c -> c == null || c.containsKey("removed")
        || c.containsKey("held") && c.getLong("author") != viewer
        ? Future.succeededFuture((JsonObject) null)
        : ties.of(viewer, List.of(c.getLong("author")), false).map(t ->
            t.getOrDefault(c.getLong("author"), Visibility.Tie.NONE).blocked() ? null : c));
  }

  /** Comment views, without those of users in a block with the viewer. */
  Future<List<JsonObject>> commentViews(long viewer, List<JsonObject> docs) {
    Set<Long> users = new LinkedHashSet<>();
    docs.forEach(d -> {
      users.add(d.getLong("author"));
      if (d.getLong("reply_to_author", 0L) != 0) {
        users.add(d.getLong("reply_to_author"));
      }
    });
    return Future.all(ties.of(viewer, users, false), core.summaries(viewer, users)).map(all -> {
      Map<Long, Visibility.Tie> t = all.resultAt(0);
      JsonObject sums = all.resultAt(1);
      List<JsonObject> out = new ArrayList<>();
      for (JsonObject d : docs) {
        long author = d.getLong("author");
        JsonObject summary = sums.getJsonObject(Long.toString(author));
        // a comment held for review is its author's alone
        if (summary == null || t.getOrDefault(author, Visibility.Tie.NONE).blocked()
            || d.containsKey("held") && author != viewer) {
          continue;
        }
        JsonObject reply = null;
        long replyTo = d.getLong("reply_to", 0L);
        long replyAuthor = d.getLong("reply_to_author", 0L);
        JsonObject replied = sums.getJsonObject(Long.toString(replyAuthor));
        // a reply to a comment the viewer cannot see reads as a plain comment: an answer to nobody (or to a comment
        // id they never saw) is shown for no ordinary comment and would tell of the block
        if (replyTo != 0 && d.getBoolean("reply_to_removed", false)) {
          reply = new JsonObject().put("id", replyTo).put("removed", true);
        } else if (replyTo != 0 && replied != null && !t.getOrDefault(replyAuthor, Visibility.Tie.NONE).blocked()) {
          reply = new JsonObject().put("id", replyTo).put("author", replied);
        }
        JsonObject view = new JsonObject().put("id", d.getLong("_id")).put("post", d.getLong("post"))
            .put("author", summary).put("text", d.getString("text")).put("reply_to", reply)
            .put("created", d.getLong("created"));
        out.add(d.containsKey("held") ? view.put("held", true) : view);
      }
      return out;
    });
  }
}
