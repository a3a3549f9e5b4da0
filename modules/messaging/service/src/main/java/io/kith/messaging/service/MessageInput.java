package io.kith.messaging.service;

import io.kith.messaging.api.Messaging;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.text.ContentFilters;
import io.kith.platform.text.UserText;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/** Validation of a message a client sends: its body and mentions, with messages a client can act on. */
final class MessageInput {

  private MessageInput() {
  }

  /** Validates mentions: up to {@value Messaging#MAX_MENTIONS} user ids, repeats dropped. */
  static JsonArray mentions(Object raw) {
    JsonArray out = new JsonArray();
    if (raw == null) {
      return out;
    }
    if (!(raw instanceof JsonArray) || ((JsonArray) raw).size() > Messaging.MAX_MENTIONS) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "mentions", "mentions must be a list of at most "
          + Messaging.MAX_MENTIONS + " user ids");
    }
    for (Object v : (JsonArray) raw) {
      if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.longValue() <= 0) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "mentions", "mentions must hold user ids");
      }
      if (!out.contains(n.longValue())) {
        out.add(n.longValue());
      }
    }
    return out;
  }

  /**
   * Validates a message body: {@code {client_id, text?, media?}} ({@code media}: an uploaded media's id); answers
   * the stored members.
   */
  static JsonObject content(JsonObject message) {
    if (message == null) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "client_id", "a message needs a client_id and text or media");
    }
    Object clientId = message.getValue("client_id");
    if (!(clientId instanceof String) || ((String) clientId).isBlank()
        || ((String) clientId).length() > Messaging.MAX_CLIENT_ID) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "client_id",
          "client_id must be a string of 1 to " + Messaging.MAX_CLIENT_ID + " characters");
    }
    JsonObject out = new JsonObject().put("client_id", clientId);
    Object text = message.getValue("text");
    if (text != null) {
      if (!(text instanceof String) || ((String) text).isBlank()) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "text", "text must be a non-blank string");
      }
      String s = (String) text;
      if (s.codePointCount(0, s.length()) > Messaging.MAX_TEXT) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "text",
            "text must be at most " + Messaging.MAX_TEXT + " characters");
      }
      out.put("text", ContentFilters.check("message", "text", UserText.lines("text", s)));
    }
    Object media = message.getValue("media");
    if (media != null) {
      // an upload's id (POST /api/v1/media); the send attaches it to the conversation, which checks that it is the
      // sender's (a free-form reference could point anywhere and be read by nobody)
      if (!(media instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.longValue() <= 0) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "media", "media must be the id of an uploaded media");
      }
      out.put("media", n.longValue());
    }
    if (text == null && media == null) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "text", "a message needs text or media");
    }
    return out;
  }
}
