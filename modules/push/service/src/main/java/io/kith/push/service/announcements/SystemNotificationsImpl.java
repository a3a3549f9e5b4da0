package io.kith.push.service.announcements;

import io.kith.accounts.api.AccountsService;
import io.kith.notifications.api.NotificationsInternal;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.id.IdGenerator;
import io.kith.push.api.ApiKeys;
import io.kith.push.api.ApiKeysErrors;
import io.kith.push.api.SystemNotificationsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Checks a system notification request and its key's scope, then stores it through notifications: at once for
 * listed users (those accounts knows as active), or as an announcement job that {@link AnnouncementWorker} walks.
 */
final class SystemNotificationsImpl implements SystemNotificationsService {

  static final int MAX_USERS = 1_000;
  private static final long MAX_ID = (1L << 53) - 1;

  private final NotificationsInternal notifications;
  private final AccountsService accounts;
  private final AnnouncementStore store;
  private final IdGenerator ids;

  SystemNotificationsImpl(NotificationsInternal notifications, AccountsService accounts, AnnouncementStore store,
                          IdGenerator ids) {
    this.notifications = notifications;
    this.accounts = accounts;
    this.store = store;
    this.ids = ids;
  }

  @Override
  public Future<JsonObject> send(JsonObject apiKey, JsonObject request) {
    return Failures.guard(() -> {
      boolean all = Boolean.TRUE.equals(request.getValue("all"));
      boolean listed = request.containsKey("user_ids");
      if (all == listed) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "user_ids", "give either user_ids or all: true");
      }
      String scope = all ? ApiKeys.ANNOUNCEMENTS_WRITE : ApiKeys.NOTIFICATIONS_WRITE;
      if (!apiKey.getJsonArray("scopes", new JsonArray()).contains(scope)) {
        return Future.failedFuture(Failures.withExtra(ApiKeysErrors.INSUFFICIENT_SCOPE,
            "this API key lacks the scope " + scope, new JsonObject().put("scope", scope)));
      }
      String type = request.getString("type");
      JsonObject fields = request.getJsonObject("fields", new JsonObject());
      String key = request.getString("key", "k" + ids.next());
      return all ? announce(type, fields, key) : toUsers(users(request.getValue("user_ids")), type, fields, key);
    });
  }

  private static List<Long> users(Object value) {
    if (!(value instanceof JsonArray) || ((JsonArray) value).isEmpty() || ((JsonArray) value).size() > MAX_USERS) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "user_ids", "user_ids must list 1 to " + MAX_USERS + " ids");
    }
    Set<Long> out = new LinkedHashSet<>();
    for (Object id : (JsonArray) value) {
      if (!(id instanceof Number) || ((Number) id).longValue() < 1 || ((Number) id).longValue() > MAX_ID) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "user_ids", "user_ids must be positive ids");
      }
      out.add(((Number) id).longValue());
    }
    return new ArrayList<>(out);
  }

  /** Validates first (no account lookup for a bad request), then tells the users accounts knows as active. */
  private Future<JsonObject> toUsers(List<Long> users, String type, JsonObject fields, String key) {
    return notifications.notifySystem(List.of(), type, fields, key)
        .compose(v -> accounts.summaries(0, users))
        .compose(found -> notifications.notifySystem(users.stream()
            .filter(u -> found.containsKey(Long.toString(u))).toList(), type, fields, key));
  }

  private Future<JsonObject> announce(String type, JsonObject fields, String key) {
    long id = ids.next();
    return notifications.notifySystem(List.of(), type, fields, key)
        .compose(v -> store.insert(new JsonObject().put("_id", id).put("type", type).put("fields", fields)
            .put("key", key).put("after", 0L).put("state", AnnouncementStore.RUNNING).put("told", 0L)
            .put("created", System.currentTimeMillis()).put("lease_until", 0L)))
        .map(v -> new JsonObject().put("announcement", id));
  }
}
