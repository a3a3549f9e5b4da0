package io.kith.activities.service;

import io.kith.feeds.api.MediaClient;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;

/** The cover rule of create and update: a {@code {media}} cover is an image the organiser uploaded to feeds. */
final class Covers {

  private final MediaClient media;

  Covers(MediaClient media) {
    this.media = media;
  }

  /**
   * A cover {@code {media}} must be an image the organiser may read in the feeds media store (their own upload): the
   * download is opened (which checks it) and cancelled at once.
   */
  Future<Void> check(long actor, JsonObject cover) {
    if (cover == null || !cover.containsKey("media")) {
      return Future.succeededFuture();
    }
    long mediaId = cover.getLong("media");
    return media.read(actor, mediaId, null).transform(Covers::judge);
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
    Throwable e = ar.cause();
    if ("media_not_found".equals(Failures.codeOf(e))) {
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
