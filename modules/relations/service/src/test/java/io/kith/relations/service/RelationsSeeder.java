package io.kith.relations.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.List;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The relations domain's storage as a seeder sees it: the collections, document shapes and Redis keys the bench
 * writes straight into a running Kith's stores, bypassing the service (a million follower edges in minutes).
 *
 * <p>It lives in this module's test-jar, built on the stores' own constants, so no other module copies the relations
 * domain's collection names, edge types or key formats; a change of them changes this class with the stores.
 * Seeding this way skips the service's rules, events and counters: a caller writes the counts itself
 * ({@link #counts}).
 */
public final class RelationsSeeder {

  /** The edge collection, {@code {_id, t, a, b, at}}. */
  public static final String EDGES = EdgeStore.EDGES;
  /** The per-user counts collection, {@code {user, following, followers, friends, fv}}. */
  public static final String COUNTS = EdgeStore.COUNTS;
  /** The contact tag collection. */
  public static final String TAGS = TagStore.TAGS;
  /** The friend group collection. */
  public static final String GROUPS = GroupStore.GROUPS;
  /** The friend group membership collection. */
  public static final String MEMBERS = GroupStore.MEMBERS;

  /** Edge types, as stored in {@code t}. */
  public static final String FOLLOW = EdgeStore.FOLLOW;
  public static final String REQUEST = EdgeStore.REQUEST;
  public static final String FRIEND = EdgeStore.FRIEND;
  public static final String BLOCK = EdgeStore.BLOCK;
  public static final String MUTE = EdgeStore.MUTE;
  public static final String HIDE = EdgeStore.HIDE;

  private RelationsSeeder() {
  }

  /** An edge document {@code {_id, t, a, b, at}}. */
  public static JsonObject edge(long id, String type, long a, long b, long at) {
    return new JsonObject().put("_id", id).put("t", type).put("a", a).put("b", b).put("at", at);
  }

  /**
   * The four edges of a friendship as the relations service stores it: follows both ways ({@code f}) and friendship
   * edges both ways ({@code F}).
   */
  public static List<JsonObject> friendship(LongSupplier ids, long a, long b, long at) {
    return List.of(edge(ids.getAsLong(), FOLLOW, a, b, at), edge(ids.getAsLong(), FOLLOW, b, a, at),
        edge(ids.getAsLong(), FRIEND, a, b, at), edge(ids.getAsLong(), FRIEND, b, a, at));
  }

  /** A {@code contact_tags} document: {@code owner} tagged {@code target} with {@code tag}. */
  public static JsonObject tag(long id, long owner, String tag, long target, long now) {
    return new JsonObject().put("_id", id).put("owner", owner).put("tag", tag)
        .put("tag_lc", tag.toLowerCase(Locale.ROOT)).put("target", target).put("at", now);
  }

  /** A {@code friend_groups} document of {@code size} members. */
  public static JsonObject group(long id, long owner, String name, int size, long now) {
    return new JsonObject().put("_id", id).put("owner", owner).put("name", name)
        .put("name_lc", name.toLowerCase(Locale.ROOT)).put("size", (long) size).put("created", now);
  }

  /** A {@code friend_group_members} document: {@code member} is in {@code owner}'s group {@code group}. */
  public static JsonObject member(long id, long group, long owner, long member, long now) {
    return new JsonObject().put("_id", id).put("g", group).put("owner", owner).put("member", member).put("at", now);
  }

  /** The fields of a counts document to set: any of them may be {@code null} (left as it is). */
  public static JsonObject countFields(Long following, Long followers, Long friends) {
    JsonObject set = new JsonObject();
    if (following != null) {
      set.put("following", following);
    }
    if (followers != null) {
      set.put("followers", followers);
    }
    if (friends != null) {
      set.put("friends", friends);
    }
    return set;
  }

  /** Sets fields of a user's counts document (made with {@link #countFields}), creating it if missing. */
  public static Future<Void> counts(MongoClient mongo, long user, JsonObject set) {
    return mongo.updateCollectionWithOptions(COUNTS, new JsonObject().put("user", user),
        new JsonObject().put("$set", set), new UpdateOptions().setUpsert(true)).mapEmpty();
  }

  /** The Redis copy of a user's follower list, {@code rel:{u:<id>}:fl}. */
  public static String followerListKey(long user) {
    return FollowerLists.key(user);
  }
}
