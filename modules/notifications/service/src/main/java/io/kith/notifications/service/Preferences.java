package io.kith.notifications.service;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A user's notification preferences: the muted types and the muted users (at most {@value #MAX_MUTED_USERS}), read
 * by {@link Notifier} before making a notification.
 */
final class Preferences {

  static final int MAX_MUTED_USERS = 1_000;

  private final NotificationRecords records;
  private final List<String> types;

  Preferences(NotificationRecords records, List<String> types) {
    this.records = records;
    this.types = types;
  }

  Future<JsonObject> preferences(long actor) {
    return records.preferences(actor);
  }

  Future<JsonObject> setPreferences(long actor, JsonObject preferences) {
    JsonObject p = preferences == null ? new JsonObject() : preferences;
    JsonObject set = new JsonObject();
    for (String name : p.fieldNames()) {
      switch (name) {
        case "muted_types" -> set.put(name, new JsonArray(Query.typeList(p.getValue(name), name, types)));
        case "muted_users" -> set.put(name, mutedUsers(actor, p.getValue(name)));
        default -> throw Failures.field(KithErrors.VALIDATION_FAILED, name, "unknown preference '" + name
            + "'; known: muted_types, muted_users");
      }
    }
    Future<Void> write = set.isEmpty() ? Future.succeededFuture() : records.setPreferences(actor, set);
    return write.compose(v -> records.preferences(actor));
  }

  private static JsonArray mutedUsers(long actor, Object value) {
    if (!(value instanceof JsonArray) || ((JsonArray) value).size() > MAX_MUTED_USERS) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "muted_users",
          "muted_users must be a list of at most " + MAX_MUTED_USERS + " user ids");
    }
    Set<Long> ids = new LinkedHashSet<>();
    for (Object o : (JsonArray) value) {
      if (!(o instanceof Number) || ((Number) o).longValue() < 1 || ((Number) o).longValue() == actor) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "muted_users",
            "muted_users must hold positive user ids other than yours");
      }
      ids.add(((Number) o).longValue());
    }
    return new JsonArray(new ArrayList<>(ids));
  }

  Future<JsonObject> muteUser(long actor, long userId) {
    if (userId < 1 || userId == actor) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "userId", "mute another user's notifications");
    }
    return records.preferences(actor).compose(p -> mute(actor, userId, p));
  }

  /** Adds the mute unless it is there already; refused past the cap. */
  private Future<JsonObject> mute(long actor, long userId, JsonObject p) {
    JsonArray muted = p.getJsonArray("muted_users");
    if (muted.contains(userId)) {
      return Future.succeededFuture(p);
    }
    if (muted.size() >= MAX_MUTED_USERS) {
      return Failures.fail(KithErrors.CONFLICT, "at most " + MAX_MUTED_USERS + " users can be muted");
    }
    return records.muteUser(actor, userId, true).compose(v -> records.preferences(actor));
  }

  Future<JsonObject> unmuteUser(long actor, long userId) {
    return records.muteUser(actor, userId, false).compose(v -> records.preferences(actor));
  }
}
