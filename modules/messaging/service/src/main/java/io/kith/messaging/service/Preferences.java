package io.kith.messaging.service;

import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.Set;

/**
 * A user's messaging settings: who may message them ({@code messages_from}) and whether others see their read
 * markers ({@code read_receipts}). Each direct send checks the recipient's through a {@link SettingsCache}, whose copy
 * on every node is dropped when they change.
 */
final class Preferences {

  private static final Set<String> SETTINGS_FIELDS = Set.of("messages_from", "read_receipts");
  private static final Set<String> MESSAGES_FROM = Set.of("everyone", "friends");

  private final Platform platform;
  private final ConversationStore conversations;
  /** The recipients' settings each direct send checks. */
  private final SettingsCache settingsCache;

  Preferences(Platform platform, ConversationStore conversations) {
    this.platform = platform;
    this.conversations = conversations;
    this.settingsCache = new SettingsCache(this::settingsOf);
  }

  Future<JsonObject> settingsOf(long user) {
    return conversations.settings(user).map(doc -> new JsonObject()
        .put("messages_from", doc == null ? "everyone" : doc.getString("messages_from", "everyone"))
        .put("read_receipts", doc == null || doc.getBoolean("read_receipts", true)));
  }

  /** The settings of {@code user} as a send checks them: this node's copy when it has one. */
  Future<JsonObject> cached(long user) {
    return settingsCache.get(user);
  }

  /** A user's settings changed on some node: this node's copy goes. */
  void settingsChanged(long user) {
    settingsCache.changed(user);
  }

  Future<JsonObject> updateSettings(long actor, JsonObject changes) {
    if (changes == null || changes.isEmpty()) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "messages_from",
          "give messages_from and/or read_receipts");
    }
    for (String field : changes.fieldNames()) {
      if (!SETTINGS_FIELDS.contains(field)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, field, "unknown setting " + field);
      }
    }
    Object from = changes.getValue("messages_from");
    if (from != null && !MESSAGES_FROM.contains(String.valueOf(from))) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "messages_from",
          "messages_from must be everyone or friends");
    }
    Object receipts = changes.getValue("read_receipts");
    if (changes.containsKey("read_receipts") && !(receipts instanceof Boolean)) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "read_receipts", "read_receipts must be true or false");
    }
    if (changes.containsKey("messages_from") && from == null) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "messages_from",
          "messages_from must be everyone or friends");
    }
    return conversations.saveSettings(actor, changes.copy()).compose(v -> {
      settingsCache.changed(actor);
      platform.vertx().eventBus().publish(SettingsCache.CHANGED, new JsonObject().put("user", actor));
      return settingsOf(actor);
    });
  }
}
