package io.kith.notifications.service;

import io.kith.notifications.api.Notifications;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The hot side of a user's notifications in Redis, all under the hash tag {@code {u:<id>}}: a hash per notification,
 * a sorted index of ids (and one per type), a dedupe-key map, a slot map and the counters hash, changed only by the
 * Lua scripts beside this class (see the module README). Every script that reads or changes a user's side first
 * checks that the side exists; when it does not, the side is rebuilt from the record ({@link Loader}) and the script
 * runs again.
 */
final class HotStore {

  /** Loads a user's notifications from the record, newest first (at most the cap). */
  interface Loader {
    Future<List<JsonObject>> load(long user);
  }

  /** What a script changed: the ids it touched and the counters after it (null when the side was missing). */
  record Change(List<Long> ids, JsonObject counts) {
  }

  /** The outcome of an insert ({@code SUPERSEDED}: a newer notification holds its slot; nothing was stored). */
  enum Stored { STORED, DUPLICATE, SIDE_MISSING, SUPERSEDED }

  /**
   * An insert's outcome, the ids the cap evicted, the counters after it and the ids of the notification it replaced
   * in its slot (at most one).
   */
  record Inserted(Stored stored, List<Long> evicted, JsonObject counts, List<Long> replaced) {
  }

  private static final String COMMON = resource("common.lua");
  private static final LuaScripts.Script INSERT = script("insert.lua");
  private static final LuaScripts.Script FILL = script("fill.lua");
  private static final LuaScripts.Script COUNTS = script("counts.lua");
  private static final LuaScripts.Script LIST = script("list.lua");
  private static final LuaScripts.Script GROUPED = script("grouped.lua");
  private static final LuaScripts.Script MARK_IDS = script("mark_ids.lua");
  private static final LuaScripts.Script MARK_ALL = script("mark_all.lua");
  private static final LuaScripts.Script MARK_WHERE = script("mark_where.lua");
  private static final LuaScripts.Script DELETE_IDS = script("delete_ids.lua");
  private static final LuaScripts.Script DELETE_WHERE = script("delete_where.lua");
  private static final LuaScripts.Script ERASE = script("erase.lua");
  /** Rebuilds that lose the race with concurrent writes are retried this many times before giving up. */
  private static final int REBUILD_ATTEMPTS = 5;

  private final RedisAPI api;
  /** Every type of the node, built-in then custom: the members of {@code by_type}. */
  private final List<String> types;
  private final Loader loader;
  private final int cap;

  HotStore(Redis redis, Loader loader, int cap, List<String> types) {
    this.api = RedisAPI.api(redis);
    this.loader = loader;
    this.cap = cap;
    this.types = types;
  }

  static String prefix(long user) {
    return "ntf:{u:" + user + "}";
  }

  static String countersKey(long user) {
    return prefix(user) + ":c";
  }

  static String generationKey(long user) {
    return prefix(user) + ":g";
  }

  // ---------------------------------------------------------------- writes from producers

  /**
   * Stores a notification record (as in MongoDB) when the user's side exists; duplicates by key are refused, and a
   * record with a {@code slot} replaces the older one holding that slot (or is refused when a newer one holds it).
   */
  Future<Inserted> insert(JsonObject record) {
    long user = record.getLong("to");
    List<String> args = script(user);
    args.add(Integer.toString(cap));
    args.add(Long.toString(record.getLong("_id")));
    args.add(record.getString("type"));
    args.add(Long.toString(record.getLong("created")));
    args.add(record.getString("key"));
    args.add(record.getString("slot", ""));
    args.addAll(fieldPairs(record));
    return INSERT.run(api, args).map(r -> switch (r.get(0).toInteger()) {
      case -1 -> new Inserted(Stored.SIDE_MISSING, List.of(), null, List.of());
      case 0 -> new Inserted(Stored.DUPLICATE, List.of(), null, List.of());
      case 2 -> new Inserted(Stored.SUPERSEDED, List.of(), null, List.of());
      default -> new Inserted(Stored.STORED, ids(r.get(1)), counts(r.get(2)), ids(r.get(3)));
    });
  }

  /**
   * The optional fields of a record (as in MongoDB) as Redis holds them, flat {@code [field, value, ...]}: ids and
   * numbers as decimal strings, texts as they are, lists joined with commas.
   */
  static List<String> fieldPairs(JsonObject record) {
    List<String> pairs = new ArrayList<>();
    for (String field : Notifications.FIELDS) {
      if (record.getValue(field) instanceof Number n) {
        pairs.add(field);
        pairs.add(Long.toString(n.longValue()));
      }
    }
    for (String field : Notifications.NUMBERS) {
      if (record.getValue(field) instanceof Number n) {
        pairs.add(field);
        pairs.add(Long.toString(n.longValue()));
      }
    }
    for (String field : Notifications.TEXTS) {
      if (record.getValue(field) instanceof String text) {
        pairs.add(field);
        pairs.add(text);
      }
    }
    for (String field : Notifications.LISTS) {
      if (record.getValue(field) instanceof JsonArray list) {
        pairs.add(field);
        pairs.add(String.join(",", list.stream().map(String::valueOf).toList()));
      }
    }
    // an app-defined type's fields, as one JSON text (they are shown, never query conditions)
    if (record.getValue(Notifications.DATA) instanceof JsonObject data) {
      pairs.add(Notifications.DATA);
      pairs.add(data.encode());
    }
    return pairs;
  }

  /** Removes these notifications of the user if its side exists (system deletes, decided from the record). */
  Future<Change> removeIfPresent(long user, List<Long> ids) {
    List<String> args = script(user);
    ids.forEach(id -> args.add(Long.toString(id)));
    return DELETE_IDS.run(api, args).map(r -> r.get(0).toInteger() < 0 ? new Change(List.of(), null)
        : new Change(ids(r.get(1)), counts(r.get(2))));
  }

  /**
   * Drops the user's side (its counters hash, which marks it complete): the next access rebuilds it from the record,
   * as after Redis lost it.
   */
  Future<Void> invalidate(long user) {
    return api.del(List.of(countersKey(user))).mapEmpty();
  }

  /**
   * Deletes the user's whole side (an erased account), counters and generation included; answers how many
   * notifications it held. A later access rebuilds an empty side from the record.
   */
  Future<Long> erase(long user) {
    List<String> args = script(user);
    args.add(new JsonArray(Notifications.TYPES).encode());
    return ERASE.run(api, args).map(Response::toLong);
  }

  // ---------------------------------------------------------------- the user's own reads and writes

  Future<JsonObject> counts(long user) {
    return run(user, COUNTS, () -> script(user)).map(r -> counts(r.get(1)));
  }

  /** A page of notification records (string fields as stored) matching {@code spec}. */
  Future<List<JsonObject>> list(long user, JsonObject spec) {
    return run(user, LIST, () -> withSpec(user, spec)).map(r -> {
      List<JsonObject> items = new ArrayList<>();
      for (Response item : r.get(1)) {
        items.add(hash(item));
      }
      return items;
    });
  }

  /** Groups as {@code {latest: <record>, count, unread, actor_count, actors: [ids]}}. */
  Future<List<JsonObject>> grouped(long user, JsonObject spec) {
    return run(user, GROUPED, () -> withSpec(user, spec)).map(r -> {
      List<JsonObject> groups = new ArrayList<>();
      for (Response g : r.get(1)) {
        groups.add(new JsonObject().put("latest", hash(g.get(0))).put("count", g.get(1).toInteger())
            .put("unread", g.get(2).toInteger()).put("actor_count", g.get(3).toInteger())
            .put("actors", new JsonArray(ids(g.get(4)))));
      }
      return groups;
    });
  }

  Future<Change> markIds(long user, List<Long> ids) {
    return change(user, MARK_IDS, () -> {
      List<String> args = script(user);
      ids.forEach(id -> args.add(Long.toString(id)));
      return args;
    });
  }

  Future<Change> markAll(long user) {
    return change(user, MARK_ALL, () -> script(user));
  }

  Future<Change> markWhere(long user, JsonObject spec) {
    return change(user, MARK_WHERE, () -> withSpec(user, spec));
  }

  Future<Change> deleteIds(long user, List<Long> ids) {
    return change(user, DELETE_IDS, () -> {
      List<String> args = script(user);
      ids.forEach(id -> args.add(Long.toString(id)));
      return args;
    });
  }

  Future<Change> deleteWhere(long user, JsonObject spec) {
    return change(user, DELETE_WHERE, () -> withSpec(user, spec));
  }

  // ---------------------------------------------------------------- plumbing

  private Future<Change> change(long user, LuaScripts.Script script, Supplier<List<String>> args) {
    return run(user, script, args).map(r -> new Change(ids(r.get(1)), counts(r.get(2))));
  }

  /** Runs a script; when it finds the side missing, rebuilds the side and runs it once more. */
  private Future<Response> run(long user, LuaScripts.Script script, Supplier<List<String>> args) {
    return script.run(api, args.get()).compose(r -> r.get(0).toInteger() >= 0 ? Future.succeededFuture(r)
        : rebuild(user, REBUILD_ATTEMPTS).compose(v -> script.run(api, args.get())).compose(again ->
            again.get(0).toInteger() >= 0 ? Future.succeededFuture(again)
                : Failures.<Response>fail(KithErrors.UNAVAILABLE, "notifications are being rebuilt; retry")));
  }

  /**
   * Builds the user's side from the record in one script run. The generation is read before loading: a write that
   * lands meanwhile bumps it, and the fill then stores nothing (the write could be missing from what was loaded), so
   * the rebuild starts over.
   */
  Future<Void> rebuild(long user, int attempts) {
    return api.get(generationKey(user)).compose(g -> {
      String generation = g == null ? "0" : g.toString();
      return loader.load(user).compose(records -> {
        JsonArray docs = new JsonArray();
        for (JsonObject record : records) {
          docs.add(new JsonObject().put("id", Long.toString(record.getLong("_id")))
              .put("type", record.getString("type")).put("created", Long.toString(record.getLong("created")))
              .put("unread", record.getBoolean("unread", true) ? "1" : "0").put("key", record.getString("key"))
              .put("slot", record.getString("slot", "")).put("fields", new JsonArray(fieldPairs(record))));
        }
        List<String> args = script(user);
        args.add(generation);
        args.add(new JsonArray(types).encode());
        args.add(docs.encode());
        return FILL.run(api, args);
      });
    }).compose(stored -> {
      if (stored.toInteger() == 1) {
        return Future.succeededFuture();
      }
      return attempts > 1 ? rebuild(user, attempts - 1)
          : Failures.fail(KithErrors.UNAVAILABLE, "notifications are busy being rebuilt; retry");
    });
  }

  /** What follows the script in EVAL for a user's side: the keys (counters, generation), then the side's prefix. */
  private static List<String> script(long user) {
    List<String> args = new ArrayList<>();
    args.add("2");
    args.add(countersKey(user));
    args.add(generationKey(user));
    args.add(prefix(user));
    return args;
  }

  private static List<String> withSpec(long user, JsonObject spec) {
    List<String> args = script(user);
    args.add(spec.encode());
    return args;
  }

  private static List<Long> ids(Response array) {
    List<Long> ids = new ArrayList<>();
    if (array != null) {
      for (Response id : array) {
        ids.add(id.toLong());
      }
    }
    return ids;
  }

  /** A flat field/value array as a JSON object of strings. */
  private static JsonObject hash(Response flat) {
    JsonObject out = new JsonObject();
    for (int i = 0; i + 1 < flat.size(); i += 2) {
      out.put(flat.get(i).toString(), flat.get(i + 1).toString());
    }
    return out;
  }

  /** The counters hash as {@code {total, by_type}} with every known type (built-in and custom). */
  JsonObject counts(Response flat) {
    return counts(flat, types);
  }

  /** The counters hash as {@code {total, by_type}} with each of {@code types}. */
  static JsonObject counts(Response flat, List<String> types) {
    JsonObject raw = hash(flat);
    JsonObject byType = new JsonObject();
    for (String type : types) {
      byType.put(type, Long.parseLong(raw.getString("u:" + type, "0")));
    }
    return new JsonObject().put("total", Long.parseLong(raw.getString("unread", "0"))).put("by_type", byType);
  }

  /** A script of this class: {@code common.lua} (the helpers every script uses), then {@code name}. */
  private static LuaScripts.Script script(String name) {
    return new LuaScripts.Script(COMMON + resource(name));
  }

  private static String resource(String name) {
    return LuaScripts.resource("io/kith/notifications/service/" + name) + "\n";
  }
}
