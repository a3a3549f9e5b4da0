package io.kith.notifications.service;

import io.kith.accounts.api.UserSummaries;
import io.kith.accounts.api.AccountsService;
import io.kith.notifications.api.Notifications;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Client views of notifications: records as Redis holds them (every value a string) turned into typed JSON, with the
 * actors' profile summaries. Used by the reads and by the push of a new notification, so both show the same shape.
 */
final class Views {

  private static final Logger LOG = LoggerFactory.getLogger(Views.class);

  private final AccountsService accounts;

  Views(AccountsService accounts) {
    this.accounts = accounts;
  }

  /** Client views of stored records (string fields as Redis holds them), with the actors' summaries. */
  Future<List<JsonObject>> of(long viewer, List<JsonObject> stored) {
    Set<Long> actors = new LinkedHashSet<>();
    stored.forEach(r -> {
      if (r.containsKey("from_user")) {
        actors.add(Long.parseLong(r.getString("from_user")));
      }
    });
    return summaries(viewer, actors).map(people -> {
      List<JsonObject> out = new ArrayList<>();
      for (JsonObject r : stored) {
        out.add(view(viewer, r, people));
      }
      return out;
    });
  }

  /** One record's view: the common fields, then each optional field by its kind, then the actor's summary. */
  private static JsonObject view(long viewer, JsonObject r, Map<Long, JsonObject> people) {
    JsonObject v = new JsonObject().put("id", id(r)).put("type", r.getString("type")).put("to_user", viewer)
        .put("created", Long.parseLong(r.getString("created"))).put("unread", "1".equals(r.getString("unread")));
    for (String f : Notifications.FIELDS) {
      if (r.containsKey(f)) {
        v.put(f, Long.parseLong(r.getString(f)));
      }
    }
    for (String f : Notifications.NUMBERS) {
      if (r.containsKey(f)) {
        v.put(f, Long.parseLong(r.getString(f)));
      }
    }
    for (String f : Notifications.TEXTS) {
      if (r.containsKey(f)) {
        v.put(f, r.getString(f));
      }
    }
    for (String f : Notifications.LISTS) {
      if (r.containsKey(f)) {
        String joined = r.getString(f);
        v.put(f, new JsonArray(joined.isEmpty() ? List.of() : List.of((Object[]) joined.split(","))));
      }
    }
    if (r.containsKey(Notifications.DATA)) {
      v.put(Notifications.DATA, new JsonObject(r.getString(Notifications.DATA)));
    }
    if (v.containsKey("from_user") && people.containsKey(v.getLong("from_user"))) {
      v.put("actor", people.get(v.getLong("from_user")));
    }
    return v;
  }

  /** Profile summaries by id; decoration only, so a failure leaves them out rather than failing the read. */
  Future<Map<Long, JsonObject>> summaries(long viewer, Set<Long> ids) {
    return UserSummaries.lookup(accounts, viewer, ids).map(found -> {
      Map<Long, JsonObject> out = new HashMap<>();
      for (String key : found.fieldNames()) {
        if (found.getValue(key) instanceof JsonObject) {
          out.put(Long.parseLong(key), found.getJsonObject(key));
        }
      }
      return out;
    }).recover(e -> {
      LOG.warn("Could not read user summaries for notifications: {}", e.toString());
      return Future.succeededFuture(Map.of());
    });
  }

  /** A record as Redis holds it (every value a string, unread as 1/0). */
  static JsonObject stringRecord(JsonObject record) {
    JsonObject out = new JsonObject().put("id", Long.toString(record.getLong("_id")))
        .put("type", record.getString("type")).put("created", Long.toString(record.getLong("created")))
        .put("unread", record.getBoolean("unread", true) ? "1" : "0");
    List<String> pairs = HotStore.fieldPairs(record);
    for (int i = 0; i + 1 < pairs.size(); i += 2) {
      out.put(pairs.get(i), pairs.get(i + 1));
    }
    return out;
  }

  /** The id of a record as Redis holds it. */
  static long id(JsonObject stored) {
    return Long.parseLong(stored.getString("id"));
  }
}
