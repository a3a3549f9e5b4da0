package io.kith.feeds.service.media;

import io.kith.feeds.api.FeedsErrors;
import io.kith.feeds.api.FeedsInternal;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.media.MediaAttachments;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;

import java.util.ArrayList;
import java.util.List;

/**
 * Who may read a media, from what uses it: its uploader; whoever may see a post using it (asked of the feeds
 * service); whoever may see an object it is attached to (a profile, a conversation, an activity: asked of that
 * object's domain, see {@link MediaAttachments}). And the attach requests of those domains.
 */
final class MediaUses {

  /** Most post ids sent to one visibility question (the feeds service's batch limit). */
  static final int MAX_VISIBILITY_IDS = MediaStore.MAX_POSTS_PER_MEDIA;

  private final Vertx vertx;
  private final MediaStore store;
  private final FeedsInternal feeds;

  MediaUses(Vertx vertx, MediaStore store, FeedsInternal feeds) {
    this.vertx = vertx;
    this.store = store;
    this.feeds = feeds;
  }

  /** The record of a media {@code viewer} may see, or {@code media_not_found}, the same for every reason. */
  Future<JsonObject> visibleRecord(long viewer, long mediaId) {
    Future<JsonObject> notFound = Failures.fail(FeedsErrors.MEDIA_NOT_FOUND, "no such media");
    if (mediaId <= 0) {
      return notFound;
    }
    return store.find(mediaId).compose(record -> {
      if (record == null) {
        return notFound;
      }
      if (viewer > 0 && record.getLong("owner") == viewer) {
        return Future.succeededFuture(record);
      }
      return throughPosts(viewer, record)
          .compose(seen -> seen ? Future.succeededFuture(true) : throughAttachments(viewer, record))
          .compose(seen -> seen ? Future.succeededFuture(record) : notFound);
    });
  }

  /** Whether a post using the media is visible to the viewer. */
  private Future<Boolean> throughPosts(long viewer, JsonObject record) {
    List<Long> posts = new ArrayList<>();
    record.getJsonArray("posts", new JsonArray()).forEach(p -> {
      if (posts.size() < MAX_VISIBILITY_IDS) {
        posts.add(((Number) p).longValue());
      }
    });
    return posts.isEmpty() ? Future.succeededFuture(false)
        : feeds.visiblePosts(viewer, posts).map(visible -> !visible.getJsonArray("items").isEmpty());
  }

  /**
   * Whether the viewer may see an object the media is attached to, each asked of its domain one after the other
   * (a media has a handful of attachments at most: the uploader's photo, their chat's image, their activity).
   */
  private Future<Boolean> throughAttachments(long viewer, JsonObject record) {
    Future<Boolean> seen = Future.succeededFuture(false);
    for (Object entry : record.getJsonArray(MediaStore.ATTACHED, new JsonArray())) {
      String[] use = String.valueOf(entry).split(":", 2);
      if (use.length == 2) {
        seen = seen.compose(yes -> yes ? Future.succeededFuture(true)
            : MediaAttachments.mayRead(vertx, use[0], viewer, Long.parseLong(use[1])));
      }
    }
    return seen;
  }

  /** Answers an attach request of another domain ({@link MediaAttachments#attach}). */
  void onAttach(Message<JsonObject> message) {
    JsonObject body = message.body();
    long owner = body.getLong("owner", 0L);
    long media = body.getLong("media", 0L);
    String domain = body.getString("domain");
    long object = body.getLong("object", 0L);
    if (owner <= 0 || object <= 0 || domain == null || domain.isBlank() || domain.contains(":")) {
      message.reply(Failures.of(KithErrors.INTERNAL, "a malformed attach request"));
      return;
    }
    store.attachTo(owner, media, domain + ":" + object).onComplete(ar -> {
      if (ar.succeeded()) {
        message.reply(ar.result());
      } else if (ar.cause() instanceof ServiceException) {
        message.reply(ar.cause());
      } else {
        message.reply(Failures.of(KithErrors.INTERNAL, "an unexpected error occurred; it has been logged"));
      }
    });
  }
}
