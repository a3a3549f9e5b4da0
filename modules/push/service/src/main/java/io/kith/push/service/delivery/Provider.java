package io.kith.push.service.delivery;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** One push provider (APNs, FCM, Web Push): sends a message to a target record of its kind. */
interface Provider {

  /** What a provider's answer means for the target. */
  enum Outcome {
    /** Accepted. */
    SENT,
    /** The device or subscription is gone (APNs 410, Unregistered, BadDeviceToken; FCM UNREGISTERED; 404, 410). */
    GONE,
    /** Worth another try later: 429, 5xx, no answer. */
    RETRY,
    /** Refused for another reason (a bad payload, our credentials): logged, not retried. */
    REJECTED
  }

  /** The target kind this provider serves ({@code apns}, {@code fcm}, {@code webpush}). */
  String kind();

  /** Sends; a failed future counts as {@link Outcome#RETRY}. */
  Future<Outcome> send(JsonObject target, PushMessage message);

  /** Releases connections. */
  Future<Void> close();

  /** The outcome of an HTTP status shared by FCM and Web Push. */
  static Outcome ofStatus(int status) {
    if (status >= 200 && status < 300) {
      return Outcome.SENT;
    }
    if (status == 429 || status >= 500 || status == 408) {
      return Outcome.RETRY;
    }
    return status == 404 || status == 410 ? Outcome.GONE : Outcome.REJECTED;
  }
}
