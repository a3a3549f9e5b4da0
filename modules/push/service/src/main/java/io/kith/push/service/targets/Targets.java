package io.kith.push.service.targets;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.id.IdGenerator;
import io.kith.push.api.PushTargetsErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Registering, listing and removing a user's push targets. A registration reads as steps: validate → the same key
 * held by this user (refresh it: idempotent, moved to the current session) → held by another user (the device
 * changed accounts: drop it) → the bound → insert (a concurrent twin that won the key is found on the retry).
 */
public final class Targets {

  private final TargetRecords records;
  private final IdGenerator ids;
  private final TargetsSettings settings;

  Targets(TargetRecords records, IdGenerator ids, TargetsSettings settings) {
    this.records = records;
    this.ids = ids;
    this.settings = settings;
  }

  Future<JsonObject> register(long user, String session, JsonObject target) {
    if (session == null || session.isEmpty()) {
      return Failures.fail(KithErrors.UNAUTHENTICATED, "a push target belongs to a session: log in first");
    }
    JsonObject fields;
    try {
      fields = TargetInput.read(target);
    } catch (RuntimeException e) {
      return Future.failedFuture(e);
    }
    return register(user, session, fields, true);
  }

  private Future<JsonObject> register(long user, String session, JsonObject fields, boolean mayRetry) {
    return records.refresh(user, session, fields).compose(mine -> mine != null ? Future.succeededFuture(view(mine))
        : records.removeKey(fields.getString("key"))
            .compose(v -> records.count(user))
            .compose(held -> held >= settings.maxPerUser()
                ? Failures.fail(PushTargetsErrors.TARGETS_LIMIT, "at most " + settings.maxPerUser()
                    + " push targets per user; remove one first")
                : insert(user, session, fields, mayRetry)));
  }

  private Future<JsonObject> insert(long user, String session, JsonObject fields, boolean mayRetry) {
    long id;
    try {
      id = ids.next();
    } catch (IllegalStateException e) {
      return Future.failedFuture(e); // the node lost its id lease: a 500 beats a duplicate id
    }
    JsonObject record = fields.copy().put("_id", id).put("user", user).put("session", session)
        .put("created", System.currentTimeMillis());
    return records.insert(record).compose(inserted -> {
      if (inserted) {
        return Future.succeededFuture(view(record));
      }
      return mayRetry ? register(user, session, fields, false)
          : Failures.fail(KithErrors.CONFLICT, "this target is being registered concurrently; retry");
    });
  }

  Future<JsonObject> list(long user) {
    return records.of(user, settings.maxPerUser()).map(found -> {
      JsonArray items = new JsonArray();
      found.forEach(r -> items.add(view(r)));
      return new JsonObject().put("items", items);
    });
  }

  Future<Void> remove(long user, long id) {
    return records.remove(user, id).compose(removed -> removed ? Future.<Void>succeededFuture()
        : Failures.fail(PushTargetsErrors.TARGET_NOT_FOUND, "no such push target"));
  }

  /** The client's view of a record: what the client sent, bar the Web Push keys. */
  static JsonObject view(JsonObject record) {
    JsonObject view = new JsonObject().put("id", record.getLong("_id")).put("kind", record.getString("kind"))
        .put("created", record.getLong("created"));
    for (String field : List.of("token", "endpoint", "topic", "sandbox")) {
      if (record.getValue(field) != null) {
        view.put(field, record.getValue(field));
      }
    }
    return view;
  }
}
