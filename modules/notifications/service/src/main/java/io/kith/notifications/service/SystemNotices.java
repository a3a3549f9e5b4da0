package io.kith.notifications.service;

import io.kith.notifications.api.Notifications;
import io.kith.notifications.api.NotificationsInternal;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.store.StoreFailures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * System notifications of the app-defined types ({@code notifications.custom-types}): fields checked against the
 * declared types, then one notification per recipient through {@link Notifier} (no actor, so only the muted types
 * apply) and the same {@link Delivery} as every other notification. A batch fails when any recipient's notification
 * failed, once all of them settled, saying how many: retried with the same key, it finishes those and changes nothing
 * for the others.
 */
final class SystemNotices implements NotificationsInternal {

  static final int MAX_USERS = 1_000;
  static final int MAX_KEY = 100;
  static final int MAX_TEXT = 1_000;

  private final Map<String, Map<String, String>> customTypes;
  private final Notifier notifier;

  SystemNotices(Map<String, Map<String, String>> customTypes, Notifier notifier) {
    this.customTypes = customTypes;
    this.notifier = notifier;
  }

  @Override
  public Future<JsonObject> notifySystem(List<Long> users, String type, JsonObject fields, String key) {
    return Failures.guard(() -> {
      Map<String, String> declared = customTypes.get(type);
      if (declared == null) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "type", "unknown notification type '" + type
            + "'; app-defined types: " + String.join(", ", customTypes.keySet()));
      }
      JsonObject data = checked(declared, fields == null ? new JsonObject() : fields);
      if (users == null || users.size() > MAX_USERS) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "user_ids", "at most " + MAX_USERS + " users");
      }
      if (key == null || key.isEmpty() || key.length() > MAX_KEY) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "key", "key must be 1 to " + MAX_KEY + " characters");
      }
      List<Future<Void>> each = new ArrayList<>();
      for (long to : users) {
        each.add(notifier.notify(new Notifier.Notice(to, type, "system:" + key, null,
            new JsonObject().put(Notifications.DATA, data))));
      }
      // every delivery settles before the answer: a batch retried on a failure never races one still under way
      return Future.join(each).transform(ar -> ar.succeeded()
          ? Future.succeededFuture(new JsonObject().put("users", users.size())) : failed(each));
    });
  }

  /** The failure of a partly stored batch: the first failure, counted, coded {@code unavailable} when it was one. */
  private static Future<JsonObject> failed(List<Future<Void>> each) {
    List<Throwable> causes = each.stream().filter(Future::failed).map(Future::cause).toList();
    Throwable first = causes.get(0);
    if (!StoreFailures.isUnavailable(first)) {
      return Future.failedFuture(first);
    }
    return Future.failedFuture(Failures.withExtra(KithErrors.UNAVAILABLE, causes.size() + " of " + each.size()
        + " notifications not stored (" + first.getMessage() + ")",
        new JsonObject().put("failed", causes.size()).put("retry_after", StoreFailures.RETRY_AFTER_SECONDS)));
  }

  /** The fields as declared: every declared one present and of its type, no other. */
  private static JsonObject checked(Map<String, String> declared, JsonObject fields) {
    for (String name : fields.fieldNames()) {
      if (!declared.containsKey(name)) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "fields." + name, "unknown field '" + name
            + "'; declared: " + String.join(", ", declared.keySet()));
      }
    }
    JsonObject data = new JsonObject();
    declared.forEach((name, kind) -> {
      Object value = fields.getValue(name);
      boolean ok = switch (kind) {
        case "string" -> value instanceof String s && s.length() <= MAX_TEXT;
        case "integer" -> value instanceof Number n && n.doubleValue() == Math.rint(n.doubleValue())
            && Math.abs(n.doubleValue()) < 9.007199254740992E15;
        case "number" -> value instanceof Number;
        case "boolean" -> value instanceof Boolean;
        default -> false;
      };
      if (!ok) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "fields." + name, name + " must be "
            + ("string".equals(kind) ? "a string of at most " + MAX_TEXT + " characters" : "a " + kind));
      }
      data.put(name, value);
    });
    return data;
  }
}
