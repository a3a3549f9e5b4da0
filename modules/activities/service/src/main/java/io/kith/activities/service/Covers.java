package io.kith.activities.service;

import io.kith.feeds.api.MediaClient;
import io.kith.platform.media.MediaAttachments;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;

/**
 * The cover rule of create and update: a {@code {media}} cover is an image the organiser uploaded to feeds, attached
 * to the activity so that whoever may see the activity may read it (see {@code MediaAttachments}).
 */
final class Covers {

  private final Vertx vertx;
  private final MediaClient media;

  Covers(Vertx vertx, MediaClient media) {
    this.vertx = vertx;
    this.media = media;
  }

  /**
   * A cover {@code {media}} must be an image the organiser may read in the feeds media store (their own upload): the
   * download is opened (which checks it) and cancelled at once; then it is attached to activity {@code activityId}.
   */
  Future<Void> check(long actor, long activityId, JsonObject cover) {
    if (cover == null || !cover.containsKey("media")) {
      return Future.succeededFuture();
    }
    long mediaId = cover.getLong("media");
    return media.read(actor, mediaId, null).transform(Covers::judge)
        .compose(v -> MediaAttachments.attach(vertx, actor, mediaId, MediaAttachments.ACTIVITY, activityId)
            .transform(ar -> ar.succeeded() ? Future.<Void>succeededFuture() : judgeFailure(ar.cause())));
  }

  private static Future<Void> judge(AsyncResult<MediaClient.Download> ar) {
    if (ar.succeeded()) {
      JsonObject info = ar.result().info();
      ar.result().cancel();
      if (!"image".equals(info.getString("kind"))) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "cover.media", "the cover must be an image");
      }
      return Future.succeededFuture();
    }
    return judgeFailure(ar.cause());
  }

  private static Future<Void> judgeFailure(Throwable e) {
    if ("media_not_found".equals(Failures.codeOf(e)) || "invalid_media".equals(Failures.codeOf(e))) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "cover.media",
          "cover.media must be the id of an image you uploaded");
    }
    if (e instanceof ReplyException re && (re.failureType() == ReplyFailure.NO_HANDLERS
        || re.failureType() == ReplyFailure.TIMEOUT)) {
      return Failures.fail(KithErrors.UNAVAILABLE, "the media store did not answer; try again or use a cover url");
    }
    return Future.failedFuture(e);
  }
}
