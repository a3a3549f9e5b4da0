package io.kith.feeds.service;

import io.kith.platform.Platform;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fan-out's insert side of {@link Timelines}: one script call adds a post to many timelines, only to those that
 * exist, trimmed to the cap, idempotently; a batch larger than one call is split, by hash slot when Redis is a
 * cluster.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TimelineInsertsTest {

  private static final int CAP = 5;
  private static final String MARKER_SCORE = "9007199254740992";

  private Vertx vertx;
  private Platform platform;

  @BeforeAll
  void start() throws Exception {
    vertx = Vertx.vertx();
    platform = await(KithTestKit.platform(vertx));
  }

  @AfterAll
  void stop() throws Exception {
    if (platform != null) {
      await(platform.close());
    }
    if (vertx != null) {
      await(vertx.close());
    }
  }

  private static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }

  /** Timelines with a cap of {@link #CAP} and {@code perCall} timelines per script call. */
  private Timelines timelines(int perCall, boolean sameSlot) {
    JsonObject conf = new JsonObject().put("timeline-cap", CAP).put("fanout-timelines-per-call", perCall)
        .put("fanout-same-slot", sameSlot);
    return new Timelines(platform.redis(), FeedsSettings.from(conf));
  }

  /** Fresh user ids whose home timelines exist (hold only the marker, as after a rebuild with no posts). */
  private List<Long> active(int n) throws Exception {
    List<Long> users = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long user = KithTestKit.newUserId();
      await(platform.redisApi().zadd(List.of(Timelines.key(Timelines.HOME, user), MARKER_SCORE, "m")));
      users.add(user);
    }
    return users;
  }

  private List<String> members(long user) throws Exception {
    Response r = await(platform.redisApi().zrange(List.of(Timelines.key(Timelines.HOME, user), "0", "-1")));
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
  @DisplayName("each timeline keeps the newest posts up to the cap, and its marker")
  void trimsToCap() throws Exception {
    Timelines timelines = timelines(500, false);
    List<Long> users = active(2);
    for (long post = 1; post <= CAP + 3; post++) {
      await(timelines.push(Timelines.HOME, users, post));
    }
    for (long user : users) {
      assertEquals(List.of("4", "5", "6", "7", "8", "m"), members(user));
    }
    // an older post than all those kept is added and trimmed at once
    await(timelines.push(Timelines.HOME, users, 2));
    assertEquals(List.of("4", "5", "6", "7", "8", "m"), members(users.get(0)));
    // a post between kept ones pushes out the oldest
    await(timelines.push(Timelines.HOME, users, 9));
    assertEquals(List.of("5", "6", "7", "8", "9", "m"), members(users.get(1)));
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
      assertEquals(40, await(timelines.push(Timelines.HOME, all, 77)), "same slot: " + sameSlot);
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
    await(timelines.pushAll(Timelines.HOME, user, List.of(3L, 1L, 2L)));
    assertEquals(List.of("1", "2", "3", "m"), members(user));
    await(timelines.pushAll(Timelines.HOME, user, List.of(10L, 9L, 8L, 2L)));
    assertEquals(List.of("2", "3", "8", "9", "10", "m"), members(user));
    long missing = KithTestKit.newUserId();
    await(timelines.pushAll(Timelines.HOME, missing, List.of(5L)));
    assertEquals(false, exists(missing));
  }

  @Test
  @DisplayName("after Redis forgot the scripts (SCRIPT FLUSH) a push loads them again and succeeds")
  void scriptsReloaded() throws Exception {
    Timelines timelines = timelines(500, false);
    List<Long> users = active(3);
    await(platform.redisApi().script(List.of("FLUSH")));
    assertEquals(3, await(timelines.push(Timelines.HOME, users, 5)));
    await(platform.redisApi().script(List.of("FLUSH")));
    await(timelines.pushAll(Timelines.HOME, users.get(0), List.of(6L)));
    assertEquals(List.of("5", "6", "m"), members(users.get(0)));
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
