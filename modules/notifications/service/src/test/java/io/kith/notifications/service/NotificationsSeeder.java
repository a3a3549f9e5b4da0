package io.kith.notifications.service;

import io.kith.notifications.api.Notifications;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Response;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The notifications domain's Redis storage as a seeder sees it: the key layout of a user's side, the product's Lua
 * scripts as {@code HotStore} assembles them, and the arguments it passes them. The bench stores notifications with
 * the service's own insert script and measures its count and list scripts on their own.
 *
 * <p>It lives in this module's test-jar, built on {@code HotStore}'s own key functions, so no other module copies
 * the notifications domain's key formats or script protocol.
 */
public final class NotificationsSeeder {

  private static final String SCRIPTS = "io/kith/notifications/service/";

  private NotificationsSeeder() {
  }

  /**
   * The text of the service's script {@code name} ({@code counts}, {@code list}, {@code insert}), put together as
   * {@code HotStore} does ({@code common.lua}, a newline, the script, a newline), so its digest is that of the script
   * the service runs.
   */
  public static String script(String name) {
    return resource(SCRIPTS + "common.lua") + resource(SCRIPTS + name + ".lua");
  }

  /**
   * The text of the baseline script {@code notifications_scan_<name>.lua} ({@code count}, {@code list}) beside this
   * class: the classic scan of a user's whole list, which the bench measures the product's scripts against. It reads
   * this domain's key layout, so it lives here rather than in the bench.
   */
  public static String baselineScript(String name) {
    return resource(SCRIPTS + "notifications_scan_" + name + ".lua");
  }

  /** A resource's text followed by a newline, as {@code HotStore} reads its scripts. */
  private static String resource(String path) {
    try (InputStream in = NotificationsSeeder.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing script " + path + " on the class path");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8) + "\n";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code ntf:{u:<id>}}, the user's key prefix and hash tag. */
  public static String prefix(long user) {
    return HotStore.prefix(user);
  }

  /** A {@code SCAN MATCH} pattern for every key of the user's side. */
  public static String sidePattern(long user) {
    return prefix(user) + ":*";
  }

  /** Whether {@code key} (one of a user's side) is the hash of one notification, {@code <prefix>:n:<id>}. */
  public static boolean isNotificationKey(String key) {
    return key.contains(":n:");
  }

  /** The user's index of notification ids (what a scan of the whole list walks). */
  public static String indexKey(long user) {
    return prefix(user) + ":idx";
  }

  /** The keys and first argument {@code HotStore.script} passes every product script: counters, generation, prefix. */
  public static List<String> scriptKeys(long user) {
    return List.of(HotStore.countersKey(user), HotStore.generationKey(user), prefix(user));
  }

  /**
   * The insert script's arguments after {@link #scriptKeys}, as {@code HotStore.insert} passes them; the slot is empty
   * (the seeded notifications are not replaced by newer ones). {@code fields} in the order of
   * {@code Notifications.FIELDS}.
   */
  public static List<String> insertArgs(int cap, long id, String type, long created, String key,
                                        Map<String, Long> fields) {
    List<String> args = new ArrayList<>(List.of(Integer.toString(cap), Long.toString(id), type,
        Long.toString(created), key, ""));
    fields.forEach((field, value) -> {
      args.add(field);
      args.add(Long.toString(value));
    });
    return args;
  }

  /**
   * A notification's key as the producers make it for the types the bench seeds: the type, then the ids that make
   * the notification one of its kind, each after a colon ({@code like:<post>:<liker>}, {@code comment:<comment>},
   * {@code follower:<follower>}, {@code reply:<comment>}, {@code mention:<post>}, {@code repost:<post>}).
   */
  public static String key(String type, long... ids) {
    StringBuilder key = new StringBuilder(type);
    for (long id : ids) {
      key.append(':').append(id);
    }
    return key.toString();
  }

  /** The counters hash a script answers ({@code counts.lua}), read as the service reads it: {@code {total, by_type}}. */
  public static JsonObject counts(Response flat) {
    return HotStore.counts(flat, Notifications.TYPES);
  }

  /** The spec {@code Query.list} builds for {@code types=<types>&<field>=<value>&limit=<limit>}. */
  public static JsonObject listSpec(List<String> types, String field, long value, int limit) {
    return new JsonObject().put("types", new JsonArray(types))
        .put("where", new JsonArray().add(new JsonArray().add(field).add(Long.toString(value))))
        .put("offset", 0).put("limit", limit);
  }
}
