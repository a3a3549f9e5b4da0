package io.kith.bench.scenario.notifications;

import io.kith.notifications.api.Notifications;
import io.kith.notifications.service.NotificationsSeeder;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * What the notifications scenario writes into the in-process Kith's Redis, the scripts it runs there, and how it
 * checks every answer.
 *
 * <p>The product's scripts, their keys and arguments come from the notifications test-jar's
 * {@link NotificationsSeeder}, which puts them together as the service's {@code HotStore} does, so their digests are
 * those of the scripts the service runs (the scenario checks that with {@code SCRIPT EXISTS} after the service ran
 * them). Notifications are stored with the service's insert script and the arguments {@code HotStore.insert} passes
 * (dedupe keys as the producers make them), on a side the service itself created. The two baseline scripts, the
 * classic scans of a user's whole list, are kept beside them in the notifications test-jar
 * ({@code notifications_scan_*.lua}).
 *
 * <p>The mix is fixed, in cycles of ten (oldest first): like of post 0, comment on post 0, like of post 1,
 * follower, like of post 0, reply on post 0, comment on post 1, mention, comment on post 0, repost of post 0. So
 * four in ten match the filtered list (comment or like, about post 0), and every third notification is read.
 */
final class NotificationsSeed {

  static final String COUNTS_PATH = "/api/v1/notifications/unread-counts";
  static final String LIST_PATH = "/api/v1/notifications";
  static final String READ_PATH = "/api/v1/notifications/read";
  static final String POSTS_PATH = "/api/v1/posts";
  /** The filtered list's types. */
  static final List<String> FILTER_TYPES = List.of(Notifications.COMMENT, Notifications.LIKE);
  /** The filtered list's condition field (its value: the recipient's first post). */
  static final String FILTER_FIELD = "post";
  /** Page size of the filtered list. */
  static final int LIMIT = 20;
  /** Posts each recipient publishes (the notifications name them). */
  static final int POSTS = 2;
  /** Every this many notifications one is marked read (the first of each run of three). */
  static final int READ_EVERY = 3;
  /** Ids per mark-read request (the service's limit). */
  static final int MARK_BATCH = 1_000;
  /** Notifications per pipelined batch of inserts. */
  static final int INSERT_BATCH = 500;


  private NotificationsSeed() {
  }

  /** A Lua script and its SHA-1 digest (the name EVALSHA calls it by). */
  record Script(String name, String text, String sha) {

    static Script of(String name, String text) {
      try {
        byte[] digest = MessageDigest.getInstance("SHA-1").digest(text.getBytes(StandardCharsets.UTF_8));
        return new Script(name, text, HexFormat.of().formatHex(digest));
      } catch (NoSuchAlgorithmException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** The notifications service's script {@code name} ({@code counts}, {@code list}, {@code insert}), as it runs it. */
  static Script product(String name) {
    return Script.of(name + ".lua", NotificationsSeeder.script(name));
  }

  /** The baseline script {@code notifications_scan_<name>.lua}, from the notifications test-jar. */
  static Script baseline(String name) {
    String file = "notifications_scan_" + name + ".lua";
    return Script.of(file, NotificationsSeeder.baselineScript(name));
  }

  /** One notification to store. {@code fields} in the order of {@link Notifications#FIELDS}. */
  record Planned(long id, String type, String key, Map<String, Long> fields, boolean unread) {
  }

  /**
   * The mix for one recipient, oldest first, with increasing ids. Comments, replies, reposts and mentions come from
   * the registered {@code actors} in turn; likes of a post from distinct actors, newest first, while there are
   * actors left (so the listed page is written by accounts whose summaries exist), then from ids that are no
   * accounts; followers likewise (their dedupe key names the follower). Mentions and reposts name the recipient's
   * second post, which it can see: a page of the newest keeps every notification and the counts stay as seeded.
   *
   * @param posts the recipient's posts (at least two)
   * @param ids   fresh ids, increasing
   */
  static List<Planned> plan(int n, List<Long> posts, List<Long> actors, LongSupplier ids) {
    long p0 = posts.get(0);
    long p1 = posts.get(1);
    long[] notificationIds = new long[n];
    for (int k = 0; k < n; k++) {
      notificationIds[k] = ids.getAsLong();
    }
    // likers are assigned newest first: the newest likes of each post get the accounts
    long[] likers = new long[n];
    Map<Long, Integer> likesOf = new HashMap<>();
    for (int k = n - 1; k >= 0; k--) {
      int m = k % 10;
      if (m == 0 || m == 2 || m == 4) {
        long post = m == 2 ? p1 : p0;
        int seen = likesOf.merge(post, 1, Integer::sum) - 1;
        likers[k] = seen < actors.size() ? actors.get(seen) : ids.getAsLong();
      }
    }
    // followers too, newest first: the newest page (its actors' summaries) names accounts only, as a real one does
    long[] followers = new long[n];
    int followed = 0;
    for (int k = n - 1; k >= 0; k--) {
      if (k % 10 == 3) {
        followers[k] = followed < actors.size() ? actors.get(followed) : ids.getAsLong();
        followed++;
      }
    }
    List<Planned> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      long actor = actors.get(k % actors.size());
      Map<String, Long> f = new LinkedHashMap<>();
      String type;
      String key;
      switch (k % 10) {
        case 0, 2, 4 -> {
          type = Notifications.LIKE;
          f.put("from_user", likers[k]);
          f.put("post", k % 10 == 2 ? p1 : p0);
          key = NotificationsSeeder.key(type, f.get("post"), likers[k]);
        }
        case 1, 6, 8 -> {
          type = Notifications.COMMENT;
          long comment = ids.getAsLong();
          f.put("from_user", actor);
          f.put("post", k % 10 == 6 ? p1 : p0);
          f.put("comment", comment);
          key = NotificationsSeeder.key(type, comment);
        }
        case 3 -> {
          type = Notifications.FOLLOWER;
          long follower = followers[k];
          f.put("from_user", follower);
          key = NotificationsSeeder.key(type, follower);
        }
        case 5 -> {
          type = Notifications.REPLY;
          long comment = ids.getAsLong();
          f.put("from_user", actor);
          f.put("post", p0);
          f.put("comment", comment);
          f.put("reply_to", ids.getAsLong());
          key = NotificationsSeeder.key(type, comment);
        }
        case 7 -> {
          type = Notifications.MENTION;
          // about a post the recipient can see (a page of the newest drops what it cannot), keyed apart
          f.put("from_user", actor);
          f.put("post", p1);
          key = NotificationsSeeder.key(type, ids.getAsLong());
        }
        default -> {
          type = Notifications.REPOST;
          f.put("from_user", actor);
          f.put("post", p0);
          // the repost stands for a post the recipient can see (a page of the newest drops what it cannot)
          f.put("repost", p1);
          key = NotificationsSeeder.key(type, ids.getAsLong());
        }
      }
      Map<String, Long> ordered = new LinkedHashMap<>();
      for (String field : Notifications.FIELDS) {
        if (f.containsKey(field)) {
          ordered.put(field, f.get(field));
        }
      }
      out.add(new Planned(notificationIds[k], type, key, ordered, k % READ_EVERY != 0));
    }
    return out;
  }

  /** What the stored mix must answer: unread counts (every type present) and the filtered page's ids. */
  record Expected(long total, Map<String, Long> byType, List<Long> page, long post) {

    JsonObject counts() {
      JsonObject by = new JsonObject();
      byType.forEach(by::put);
      return new JsonObject().put("total", total).put("by_type", by);
    }
  }

  /** The expected answers for {@code plan}, the filtered list asking about {@code post}. */
  static Expected expect(List<Planned> plan, long post) {
    Map<String, Long> by = new TreeMap<>();
    Notifications.TYPES.forEach(t -> by.put(t, 0L));
    long total = 0;
    List<Long> page = new ArrayList<>();
    for (Planned p : plan) {
      if (p.unread()) {
        total++;
        by.merge(p.type(), 1L, Long::sum);
      }
    }
    for (int i = plan.size() - 1; i >= 0 && page.size() < LIMIT; i--) {
      Planned p = plan.get(i);
      if (FILTER_TYPES.contains(p.type()) && Long.valueOf(post).equals(p.fields().get(FILTER_FIELD))) {
        page.add(p.id());
      }
    }
    return new Expected(total, by, List.copyOf(page), post);
  }

  // ---------------------------------------------------------------- the product's and the baseline's calls

  /** The product's script with the keys and prefix {@code HotStore.script} passes. */
  private static Request product(Script script, long user) {
    Request r = Request.cmd(Command.EVALSHA).arg(script.sha()).arg(2);
    NotificationsSeeder.scriptKeys(user).forEach(r::arg);
    return r;
  }

  /** The insert script's call with {@code HotStore.insert}'s arguments. */
  static Request insert(Script script, long user, int cap, Planned n, long created) {
    Request r = product(script, user);
    NotificationsSeeder.insertArgs(cap, n.id(), n.type(), created, n.key(), n.fields()).forEach(r::arg);
    return r;
  }

  /** {@code counts.lua} as the service calls it. */
  static Request counts(Script script, long user) {
    return product(script, user);
  }

  /** The spec {@code Query.list} builds for {@code types=comment,like&post=<post>&limit=20}. */
  static JsonObject listSpec(long post) {
    return NotificationsSeeder.listSpec(FILTER_TYPES, FILTER_FIELD, post, LIMIT);
  }

  /** {@code list.lua} as the service calls it for the filtered list. */
  static Request list(Script script, long user, long post) {
    return product(script, user).arg(listSpec(post).encode());
  }

  /** The baseline count scan. */
  static Request scanCount(Script script, long user) {
    return Request.cmd(Command.EVALSHA).arg(script.sha()).arg(1).arg(NotificationsSeeder.indexKey(user))
        .arg(NotificationsSeeder.prefix(user));
  }

  /** The baseline list scan with the filtered list's types, condition and limit. */
  static Request scanList(Script script, long user, long post) {
    Request r = Request.cmd(Command.EVALSHA).arg(script.sha()).arg(1).arg(NotificationsSeeder.indexKey(user))
        .arg(NotificationsSeeder.prefix(user)).arg(LIMIT).arg(FILTER_FIELD).arg(post);
    FILTER_TYPES.forEach(r::arg);
    return r;
  }

  /** The HTTP path of the filtered list. */
  static String listPath(long post) {
    return LIST_PATH + "?types=" + String.join(",", FILTER_TYPES) + "&" + FILTER_FIELD + "=" + post + "&limit="
        + LIMIT;
  }

  // ---------------------------------------------------------------- checks

  /** Checks {@code GET /notifications/unread-counts}' body against the expected counts. */
  static JsonObject checkHttpCounts(JsonObject body, Expected e) {
    if (!sameCounts(body, e)) {
      throw new IllegalStateException("unread counts " + body.encode() + " instead of " + e.counts().encode());
    }
    return body;
  }

  /** Checks {@code counts.lua}'s reply ({@code {1, counters hash}}), read as the service reads it, likewise. */
  static Response checkLuaCounts(Response r, Expected e) {
    if (r == null || r.size() != 2 || r.get(0).toInteger() != 1) {
      throw new IllegalStateException("counts.lua answered " + r + " (the side is missing?)");
    }
    JsonObject counted = NotificationsSeeder.counts(r.get(1));
    if (!sameCounts(counted, e)) {
      throw new IllegalStateException("counts.lua counted " + counted.encode() + " instead of " + e.counts().encode());
    }
    return r;
  }

  /** Whether {@code {total, by_type}} holds the expected counts. */
  private static boolean sameCounts(JsonObject counts, Expected e) {
    JsonObject by = counts.getJsonObject("by_type");
    Map<String, Long> got = new TreeMap<>();
    if (by != null) {
      by.forEach(entry -> got.put(entry.getKey(), ((Number) entry.getValue()).longValue()));
    }
    return counts.getValue("total") instanceof Number t && t.longValue() == e.total() && got.equals(e.byType());
  }

  /** Checks the baseline count's reply ({@code {total, type, n, ...}}) against the expected counts. */
  static Response checkScanCounts(Response r, Expected e) {
    long total = r.get(0).toLong();
    Map<String, Long> by = new TreeMap<>();
    Notifications.TYPES.forEach(t -> by.put(t, 0L));
    for (int i = 1; i + 1 < r.size(); i += 2) {
      by.put(r.get(i).toString(), r.get(i + 1).toLong());
    }
    if (total != e.total() || !by.equals(e.byType())) {
      throw new IllegalStateException("the scan counted " + total + " " + by + " instead of " + e.total() + " "
          + e.byType());
    }
    return r;
  }

  /**
   * Checks {@code GET /notifications?types=comment,like&post=..&limit=20}: the expected ids in order, each a comment
   * or like about the post, with its actor's summary (the actors are accounts).
   */
  static JsonObject checkHttpList(JsonObject body, Expected e) {
    JsonArray items = body.getJsonArray("items");
    if (items == null) {
      throw new IllegalStateException("the list has no items");
    }
    List<Long> ids = new ArrayList<>();
    for (Object o : items) {
      JsonObject item = (JsonObject) o;
      if (!FILTER_TYPES.contains(item.getString("type")) || !Long.valueOf(e.post()).equals(item.getLong("post"))
          || item.getJsonObject("actor") == null) {
        throw new IllegalStateException("listed " + item.encode() + ", not a comment or like about post " + e.post()
            + " with its actor's summary");
      }
      ids.add(item.getLong("id"));
    }
    return checkIds("the list", ids, e, body);
  }

  /** Checks {@code list.lua}'s reply ({@code {1, {hash...}...}}). */
  static Response checkLuaList(Response r, Expected e) {
    if (r == null || r.size() != 2 || r.get(0).toInteger() != 1) {
      throw new IllegalStateException("list.lua answered " + r + " (the side is missing?)");
    }
    return checkIds("list.lua", hashIds(r.get(1)), e, r);
  }

  /** Checks the baseline list's reply ({@code {{hash...}...}}). */
  static Response checkScanList(Response r, Expected e) {
    return checkIds("the list scan", hashIds(r), e, r);
  }

  private static <T> T checkIds(String what, List<Long> ids, Expected e, T reply) {
    if (!ids.equals(e.page())) {
      throw new IllegalStateException(what + " gave " + ids.size() + " ids other than the " + e.page().size()
          + " expected (first " + (ids.isEmpty() ? "none" : ids.get(0)) + ", expected "
          + (e.page().isEmpty() ? "none" : e.page().get(0)) + ")");
    }
    return reply;
  }

  private static List<Long> hashIds(Response items) {
    List<Long> ids = new ArrayList<>();
    for (Response item : items) {
      ids.add(Long.parseLong(flat(item).get("id")));
    }
    return ids;
  }

  private static Map<String, String> flat(Response array) {
    Map<String, String> out = new HashMap<>();
    for (int i = 0; i + 1 < array.size(); i += 2) {
      out.put(array.get(i).toString(), array.get(i + 1).toString());
    }
    return out;
  }
}
