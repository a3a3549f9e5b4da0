package io.kith.platform.token;

import io.vertx.core.json.JsonObject;

/**
 * A session as its owner sees it in the session list.
 *
 * @param id       session id
 * @param device   device label given at login
 * @param created  creation time, epoch milliseconds
 * @param lastUsed last refresh time, epoch milliseconds
 */
public record SessionInfo(String id, String device, long created, long lastUsed) {

  /** JSON form. */
  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("device", device).put("created", created).put("last_used", lastUsed);
  }
}
