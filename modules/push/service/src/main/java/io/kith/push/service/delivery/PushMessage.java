package io.kith.push.service.delivery;

import io.vertx.core.json.JsonObject;

/**
 * What one push shows, the same for every provider: no more than the notification shows its recipient.
 *
 * @param title    the alert title, or null
 * @param body     the alert text
 * @param badge    the recipient's unread notifications
 * @param collapse the collapse key (APNs collapse-id and thread-id, FCM collapse_key and tag, Web Push Topic): one
 *                 per conversation, post, activity or group, so a newer push replaces the older on the device
 * @param data     ids for the app to open the right screen: {@code type, notification} and the notification's ids
 */
record PushMessage(String title, String body, long badge, String collapse, JsonObject data) {
}
