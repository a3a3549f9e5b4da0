package io.kith.feeds.service;

import io.kith.feeds.api.FeedsErrors;
import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.kith.feeds.service.FeedsCore.notFound;

/**
 * Who may reach a post: the one visibility rule ({@link Visibility#canSee}) applied to documents as read, with the
 * viewer's ties to their authors, and the refusals every feature gives (post_not_found for an invisible post exactly
 * as for a missing one; not_author only when the actor may see the post).
 */
final class PostAccess {

  private final PostStore posts;
  private final Ties ties;

  PostAccess(FeedsCore core) {
    this.posts = core.posts();
    this.ties = core.ties();
  }

  /** The post when it is live and the viewer may see it; post_not_found otherwise. */
  Future<JsonObject> visiblePost(long viewer, long postId) {
    return posts.find(postId).compose(post -> post == null ? notFound()
        : visibleDocs(viewer, List.of(post), false).compose(v -> v.isEmpty() ? notFound()
            : Future.succeededFuture(v.get(0))));
  }

  /** The actor's own live post; not_author when someone else's that the actor may see, else post_not_found. */
  Future<JsonObject> authored(long actor, long postId) {
    return posts.find(postId).compose(post -> {
      if (post == null || post.getBoolean("deleted", false)) {
        return notFound();
      }
      return post.getLong("author") == actor ? Future.succeededFuture(post) : forbiddenIfVisible(actor, post);
    });
  }

  <T> Future<T> forbiddenIfVisible(long actor, JsonObject post) {
    return visibleDocs(actor, List.of(post), false).compose(v -> v.isEmpty() ? notFound()
        : Future.failedFuture(Failures.of(FeedsErrors.NOT_AUTHOR, "only the author may change this post")));
  }

  /** The live documents the viewer may see (and on timelines does not mute), in the given order. */
  Future<List<JsonObject>> visibleDocs(long viewer, List<JsonObject> docs, boolean timeline) {
    List<JsonObject> live = docs.stream().filter(d -> !d.getBoolean("deleted", false)).toList();
    Set<Long> authors = new LinkedHashSet<>();
    boolean placements = addAuthors(viewer, live, authors);
    return ties.of(viewer, authors, placements).map(t -> filter(viewer, live, t, timeline));
  }

  /**
   * Adds the authors of these posts to {@code authors}; true when deciding on one of them needs the viewer's
   * placements (an only/except post naming groups or tags, by someone else).
   */
  static boolean addAuthors(long viewer, List<JsonObject> docs, Set<Long> authors) {
    boolean placements = false;
    for (JsonObject d : docs) {
      authors.add(d.getLong("author"));
      placements |= Visibility.needsPlacements(d) && d.getLong("author") != viewer;
    }
    return placements;
  }

  static List<JsonObject> filter(long viewer, List<JsonObject> docs, Map<Long, Visibility.Tie> t,
                                 boolean timeline) {
    List<JsonObject> out = new ArrayList<>();
    for (JsonObject d : docs) {
      Visibility.Tie tie = t.getOrDefault(d.getLong("author"), Visibility.Tie.NONE);
      if (Visibility.canSee(viewer, d, tie) && !(timeline && tie.muting())) {
        out.add(d);
      }
    }
    return out;
  }
}
