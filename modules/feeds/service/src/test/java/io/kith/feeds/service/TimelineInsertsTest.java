package io.kith.feeds.service;

import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.PlatformTestBase;
import io.kith.platform.testkit.RedisNodes;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The write side of {@link Timelines} and its ranges: one script call adds a post to many timelines, only to those
 * that exist, in order, trimmed to the cap, idempotently; a batch larger than one call is split, by hash slot when
 * Redis is a cluster. Backfills merge in order, removals keep the order, marker and expiry, and pages see the newest
 * cap posts.
 */
class TimelineInsertsTest extends PlatformTestBase {

  private static final int CAP = 5;

  /** Timelines with a cap of {@link #CAP} and {@code perCall} timelines per script call. */
  private Timelines timelines(int perCall, boolean sameSlot) {
    // a Redis Cluster refuses a call spanning slots: there the verticle always sets fanout-same-slot, and so does this
    JsonObject conf = new JsonObject().put("timeline-cap", CAP).put("fanout-timelines-per-call", perCall)
        .put("fanout-same-slot", sameSlot || KithTestKit.onCluster());
    return new Timelines(platform.redis(), FeedsSettings.from(conf));
  }

  /** Fresh user ids whose home timelines exist (hold only the marker, as after a rebuild with no posts). */
  private List<Long> active(int n) throws Exception {
    List<Long> users = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long user = KithTestKit.newUserId();
      await(platform.redisApi().rpush(List.of(Timelines.key(Timelines.HOME, user), "m")));
      users.add(user);
    }
    return users;
  }

  /** The whole list, newest first, marker last. */
  private List<String> members(long user) throws Exception {
    Response r = await(platform.redisApi().lrange(Timelines.key(Timelines.HOME, user), "0", "-1"));
    List<String> out = new ArrayList<>();
    r.forEach(m -> out.add(m.toString()));
    return out;
  }

  private boolean exists(long user) throws Exception {
    return await(platform.redisApi().exists(List.of(Timelines.key(Timelines.HOME, user)))).toInteger() == 1;
  }

  @Test
  @DisplayName("a post goes into the timelines that exist and never creates a missing one")
  void onlyExisting() throws Exception {
    Timelines timelines = timelines(500, false);
    List<Long> present = active(3);
    long missing = KithTestKit.newUserId();
    List<Long> all = new ArrayList<>(present);
    all.add(1, missing);

    assertEquals(3, await(timelines.push(Timelines.HOME, all, 1_000)));

    for (long user : present) {
      assertEquals(List.of("1000", "m"), members(user));
    }
    assertEquals(false, exists(missing), "an inactive user's timeline stays missing");
  }

  @Test
  @DisplayName("each timeline is cut back to the newest posts up to the cap, and its marker, once it holds the slack more")
  void trimsToCap() throws Exception {
    Timelines timelines = timelines(500, false);
    List<Long> users = active(2);
    int pushes = CAP + Timelines.TRIM_SLACK + 1;
    for (long post = 1; post < pushes; post++) {
      await(timelines.push(Timelines.HOME, users, post * 10));
    }
    assertEquals(pushes, members(users.get(0)).size(), "the slack: " + (pushes - 1) + " posts and the marker");
    assertEquals(List.of(370L, 360L, 350L, 340L, 330L), await(timelines.range(Timelines.HOME, users.get(0), 0, 0, 50)),
        "a page never shows more than the cap");
    await(timelines.push(Timelines.HOME, users, pushes * 10L));
    for (long user : users) {
      assertEquals(List.of("380", "370", "360", "350", "340", "m"), members(user));
    }
    // an older post than all those kept in a full timeline is not added
    assertEquals(0, await(timelines.push(Timelines.HOME, users, 20)));
    assertEquals(List.of("380", "370", "360", "350", "340", "m"), members(users.get(0)));
    // a post between kept ones goes in its place, and the oldest falls out of the pages
    assertEquals(2, await(timelines.push(Timelines.HOME, users, 365)));
    assertEquals(List.of("380", "370", "365", "360", "350", "340", "m"), members(users.get(1)));
    assertEquals(List.of(380L, 370L, 365L, 360L, 350L), await(timelines.range(Timelines.HOME, users.get(1), 0, 0, 9)));
  }

  @Test
  @DisplayName("posts arriving out of order are kept newest first, each once")
  void outOfOrder() throws Exception {
    Timelines timelines = timelines(3, false);
    List<Long> users = active(4);
    for (long post : List.of(50L, 10L, 30L, 60L, 20L, 40L, 30L, 10L, 60L)) {
      await(timelines.push(Timelines.HOME, users, post));
    }
    for (long user : users) {
      assertEquals(List.of("60", "50", "40", "30", "20", "10", "m"), members(user));
      assertEquals(List.of(60L, 50L, 40L, 30L, 20L), await(timelines.range(Timelines.HOME, user, 0, 0, 10)));
    }
    // older than the cap's worth of newer posts: it would never be shown, so it is not kept
    assertEquals(0, await(timelines.push(Timelines.HOME, users, 5)));
    assertEquals(List.of("60", "50", "40", "30", "20", "10", "m"), members(users.get(0)));
  }

  @Test
  @DisplayName("pages are cut by max_id and since_id, newest first, without the marker")
  void ranges() throws Exception {
    Timelines timelines = timelines(500, false);
    long user = active(1).get(0);
    await(timelines.pushAll(Timelines.HOME, user, List.of(11L, 13L, 17L, 19L, 23L)));
    assertEquals(List.of(23L, 19L, 17L, 13L, 11L), await(timelines.range(Timelines.HOME, user, 0, 0, 10)));
    assertEquals(List.of(23L, 19L), await(timelines.range(Timelines.HOME, user, 0, 0, 2)));
    // max_id between ids, equal to one, above all, below all
    assertEquals(List.of(17L, 13L), await(timelines.range(Timelines.HOME, user, 18, 0, 2)));
    assertEquals(List.of(13L, 11L), await(timelines.range(Timelines.HOME, user, 17, 0, 5)));
    assertEquals(List.of(23L, 19L, 17L), await(timelines.range(Timelines.HOME, user, 1_000, 0, 3)));
    assertEquals(List.of(), await(timelines.range(Timelines.HOME, user, 11, 0, 3)));
    // since_id alone and with max_id
    assertEquals(List.of(23L, 19L), await(timelines.range(Timelines.HOME, user, 0, 17, 10)));
    assertEquals(List.of(17L, 13L), await(timelines.range(Timelines.HOME, user, 19, 11, 10)));
    assertEquals(List.of(), await(timelines.range(Timelines.HOME, user, 0, 23, 10)));
    // an empty timeline and a missing one
    long empty = active(1).get(0);
    assertEquals(List.of(), await(timelines.range(Timelines.HOME, empty, 0, 0, 10)));
    assertEquals(List.of(), await(timelines.range(Timelines.HOME, empty, 5, 0, 10)));
    assertEquals(List.of(), await(timelines.range(Timelines.HOME, KithTestKit.newUserId(), 5, 0, 10)));
  }

  @Test
  @DisplayName("removing posts keeps the others in order, the marker and the expiry; a missing timeline stays missing")
  void removes() throws Exception {
    Timelines timelines = timelines(500, false);
    List<Long> users = active(2);
    String key = Timelines.key(Timelines.HOME, users.get(0));
    await(platform.redisApi().expire(List.of(key, "1000")));
    await(timelines.pushAll(Timelines.HOME, users.get(0), List.of(1L, 2L, 3L, 4L)));
    await(timelines.remove(Timelines.HOME, users.get(0), List.of(2L, 4L, 99L)));
    assertEquals(List.of("3", "1", "m"), members(users.get(0)));
    long ttl = await(platform.redisApi().ttl(key)).toLong();
    assertTrue(ttl > 900 && ttl <= 1000, "expiry kept: " + ttl);

    await(timelines.push(Timelines.HOME, users, 5));
    await(timelines.removeFrom(Timelines.HOME, users, 5));
    assertEquals(List.of("3", "1", "m"), members(users.get(0)));
    assertEquals(List.of("m"), members(users.get(1)));
    long missing = KithTestKit.newUserId();
    await(timelines.remove(Timelines.HOME, missing, List.of(1L)));
    await(timelines.removeFrom(Timelines.HOME, List.of(missing), 1));
    assertEquals(false, exists(missing));
  }

  @Test
  @DisplayName("pushing the same post again adds nothing and leaves every timeline as it was")
  void idempotent() throws Exception {
    Timelines timelines = timelines(2, false);
    List<Long> users = active(5);
    assertEquals(5, await(timelines.push(Timelines.HOME, users, 42)));
    assertEquals(0, await(timelines.push(Timelines.HOME, users, 42)));
    for (long user : users) {
      assertEquals(List.of("42", "m"), members(user));
    }
  }

  @Test
  @DisplayName("a batch of more timelines than one script call takes reaches every existing one, skipping the rest")
  void manyCalls() throws Exception {
    for (boolean sameSlot : List.of(false, true)) {
      Timelines timelines = timelines(7, sameSlot);
      List<Long> present = active(40);
      List<Long> all = new ArrayList<>();
      List<Long> missing = new ArrayList<>();
      for (int i = 0; i < present.size(); i++) {
        all.add(present.get(i));
        if (i % 4 == 0) {
          long gone = KithTestKit.newUserId();
          missing.add(gone);
          all.add(gone);
        }
      }
      // the worker's path: on its own connection
      assertEquals(40, await(timelines.fanOut(Timelines.HOME, all, 77)), "same slot: " + sameSlot);
      for (long user : present) {
        assertEquals(List.of("77", "m"), members(user), "same slot: " + sameSlot);
      }
      for (long user : missing) {
        assertEquals(false, exists(user), "same slot: " + sameSlot);
      }
    }
  }

  @Test
  @DisplayName("a backfill adds several posts to one existing timeline, trimmed to the cap, and skips a missing one")
  void backfill() throws Exception {
    Timelines timelines = timelines(500, false);
    long user = active(1).get(0);
    String key = Timelines.key(Timelines.HOME, user);
    await(platform.redisApi().expire(List.of(key, "1000")));
    await(timelines.pushAll(Timelines.HOME, user, List.of(3L, 1L, 2L)));
    assertEquals(List.of("3", "2", "1", "m"), members(user));
    await(timelines.pushAll(Timelines.HOME, user, List.of(10L, 9L, 8L, 2L)));
    assertEquals(List.of("10", "9", "8", "3", "2", "m"), members(user));
    long ttl = await(platform.redisApi().ttl(key)).toLong();
    assertTrue(ttl > 900 && ttl <= 1000, "expiry kept: " + ttl);
    long missing = KithTestKit.newUserId();
    await(timelines.pushAll(Timelines.HOME, missing, List.of(5L)));
    assertEquals(false, exists(missing));
  }

  @Test
  @DisplayName("after Redis forgot the scripts (SCRIPT FLUSH) a push loads them again and succeeds")
  void scriptsReloaded() throws Exception {
    Timelines timelines = timelines(500, false);
    List<Long> users = active(3);
    forgetScripts();
    assertEquals(3, await(timelines.push(Timelines.HOME, users, 5)));
    for (long user : users) {
      assertEquals(List.of("5", "m"), members(user));
    }
    forgetScripts();
    await(timelines.pushAll(Timelines.HOME, users.get(0), List.of(6L)));
    assertEquals(List.of("6", "5", "m"), members(users.get(0)));
    forgetScripts();
    assertEquals(List.of(6L, 5L), await(timelines.range(Timelines.HOME, users.get(0), 0, 0, 10)));
  }

  /** SCRIPT FLUSH on every master: a cluster client would send it to one node only. */
  private void forgetScripts() throws Exception {
    await(RedisNodes.onEveryMaster(vertx, platform.redis(),
        () -> Request.cmd(Command.SCRIPT).arg("FLUSH")));
  }

  @Test
  @DisplayName("when the fan-out's own connection is lost, pushes go on, through the pool and then a new connection")
  void laneLost() throws Exception {
    Timelines timelines = timelines(500, false);
    List<Long> users = active(3);
    assertEquals(3, await(timelines.fanOut(Timelines.HOME, users, 10)));
    await(platform.redisApi().client(List.of("KILL", "SKIPME", "yes", "TYPE", "normal")));
    assertEquals(3, await(timelines.fanOut(Timelines.HOME, users, 20)));
    assertEquals(3, await(timelines.fanOut(Timelines.HOME, users, 30)));
    for (long user : users) {
      assertEquals(List.of("30", "20", "10", "m"), members(user));
    }
  }

  @Test
  @DisplayName("hash slots are those CLUSTER KEYSLOT answers, hash tags included")
  void slots() {
    // answers of CLUSTER KEYSLOT from a redis-server 7.0 with cluster-enabled yes
    Map<String, Integer> keyslot = Map.of("123456789", 12739, "foo", 12182, "hello", 866,
        "feed:{u:42}:home", 8980, "feed:{u:7}:moments", 7954, "a{}b", 13694, "foo{{bar}}zap", 4015,
        "x{bar}{zap}", 5061, "{}", 15257, "{", 4092);
    keyslot.forEach((key, slot) -> assertEquals(slot, Timelines.slot(key), key));
    assertEquals(Timelines.slot("feed:{u:42}:home"), Timelines.slot("feed:{u:42}:moments"));
  }

  @Test
  @DisplayName("grouped by slot, every call holds keys of one slot only, at most the per-call number, none lost")
  void groupsBySlot() {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < 3_000; i++) {
      keys.add(Timelines.key(i % 2 == 0 ? Timelines.HOME : Timelines.MOMENTS, i / 2));
    }
    // the same user's home and moments share a slot, so some calls hold several keys
    List<List<String>> groups = Timelines.callGroups(keys, 3, true);
    Set<String> seen = new HashSet<>();
    boolean shared = false;
    for (List<String> group : groups) {
      assertTrue(!group.isEmpty() && group.size() <= 3, "group size " + group.size());
      int slot = Timelines.slot(group.get(0));
      group.forEach(k -> assertEquals(slot, Timelines.slot(k), "one slot per call: " + group));
      shared |= group.size() > 1;
      seen.addAll(group);
    }
    assertTrue(shared);
    assertEquals(new HashSet<>(keys), seen);
    assertEquals(keys.size(), groups.stream().mapToInt(List::size).sum());

    List<List<String>> plain = Timelines.callGroups(keys, 500, false);
    assertEquals(6, plain.size());
    assertEquals(keys, plain.stream().flatMap(List::stream).toList());
  }
}
