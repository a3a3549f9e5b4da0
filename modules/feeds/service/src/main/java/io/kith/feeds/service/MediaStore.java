package io.kith.feeds.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Media of posts, stored in MongoDB GridFS. PLACEHOLDER: the media work replaces this file; the feeds service uses only
 * {@link #attach} and {@link #detach}.
 */
final class MediaStore {

  /** Creates collections and indexes. */
  Future<Void> ensureIndexes() {
    return Future.succeededFuture();
  }

  /**
   * Marks the media as used by {@code postId} after checking that every id exists and was uploaded by {@code owner},
   * and that the set is a valid post attachment (1..9 images, or one video with at most one image as its cover).
   * Fails with {@code FeedsErrors.INVALID_MEDIA} (extra {@code media}: the offending ids) otherwise.
   *
   * @return one descriptor per id, in the given order: {@code {id, kind: "image"|"video", content_type, size}}
   */
  Future<List<JsonObject>> attach(long owner, List<Long> mediaIds, long postId) {
    return mediaIds.isEmpty() ? Future.succeededFuture(List.of())
        : Future.failedFuture(new IllegalStateException("media not built yet"));
  }

  /** Drops {@code postId}'s use of the media and removes every one of them that nothing else uses any more. */
  Future<Void> detach(long postId, List<Long> mediaIds) {
    return Future.succeededFuture();
  }
}
