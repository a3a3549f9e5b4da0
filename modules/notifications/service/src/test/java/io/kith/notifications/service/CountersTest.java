package io.kith.notifications.service;

import io.kith.notifications.api.Notifications;
import io.kith.platform.page.Page;
import io.kith.platform.testkit.KithTestKit;
import io.kith.relations.api.RelationsEvents;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

@DisplayName("Unread counters, the cap and rebuilding from MongoDB")
class CountersTest extends NotificationsTestBase {

  private static final int CAP = 12;
  private static final List<String> RELATION_EVENTS = List.of(RelationsEvents.USER_FOLLOWED,
      RelationsEvents.FOLLOW_REQUESTED, RelationsEvents.FOLLOW_REQUEST_ACCEPTED, RelationsEvents.FRIENDSHIP_FORMED);

  @Override
  protected JsonObject notificationsConfig() {
    return new JsonObject().put("max-per-user", CAP);
  }

  @Test
  @DisplayName("beyond the cap the oldest are evicted from Redis and MongoDB and the counters follow")
  void cap() throws Exception {
    long alice = KithTestKit.newUserId();
    List<Long> from = new ArrayList<>();
    for (int i = 0; i < CAP + 5; i++) {
      from.add(KithTestKit.newUserId());
      relationsEvent(RelationsEvents.USER_FOLLOWED, from.get(i), alice);
    }
    drain(alice);
    List<JsonObject> kept = all(alice);
    assertEquals(CAP - 1, kept.size(), "the cap (the drain's marker was the newest and is deleted)");
    assertEquals(from.get(from.size() - 1), kept.get(0).getLong("from_user"));
    assertEquals(from.get(from.size() - CAP + 1), kept.get(kept.size() - 1).getLong("from_user"),
        "the oldest went");
    JsonObject scan = assertCountersMatchScan(alice);
    assertEquals((long) CAP - 1, scan.getLong("total"));
  }

  @Test
  @DisplayName("the counters equal a full scan after a concurrent burst of inserts, reads, marks and deletes")
  void concurrentBurst() throws Exception {
    long alice = KithTestKit.newUserId();
    List<Future<?>> burst = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      long from = KithTestKit.newUserId();
      burst.add(platform.events().append(RelationsEvents.DOMAIN, RELATION_EVENTS.get(i % 4),
          new JsonObject().put("from", from).put("to", alice)));
      if (i % 3 == 0) {
        burst.add(notifications.markAllRead(alice));
      }
      if (i % 5 == 0) {
        burst.add(notifications.list(alice, filters(new JsonObject().put("limit", 3)),
            pageOf(new JsonObject().put("limit", 3))).map(Page::toJson).compose(page -> {
          List<Long> ids = new ArrayList<>();
          page.getJsonArray("items").forEach(n -> ids.add(((JsonObject) n).getLong("id")));
          return ids.isEmpty() ? Future.succeededFuture() : Future.all(notifications.markRead(alice, ids),
              notifications.delete(alice, ids.subList(0, 1)));
        }));
      }
      if (i % 7 == 0) {
        burst.add(notifications.deleteWhere(alice, new JsonObject().put("types",
            new JsonArray().add(Notifications.FRIEND)).put("where", new JsonObject().put("unread", false))));
        burst.add(notifications.markReadWhere(alice, new JsonObject().put("types",
            new JsonArray().add(Notifications.FOLLOW_REQUEST))));
      }
    }
    await(Future.join(burst));
    drain(alice);
    assertCountersMatchScan(alice);
  }

  @Test
  @DisplayName("a seeded random sequence of operations keeps the counters equal to a scan after every step")
  void randomSequence() throws Exception {
    long seed = Long.getLong("kith.seed", System.nanoTime());
    Random random = new Random(seed);
    long alice = KithTestKit.newUserId();
    List<Long> actors = List.of(KithTestKit.newUserId(), KithTestKit.newUserId(), KithTestKit.newUserId());
    try {
      for (int step = 0; step < 30; step++) {
        int op = random.nextInt(7);
        long actor = actors.get(random.nextInt(actors.size()));
        List<Long> existing = new ArrayList<>();
        all(alice).forEach(n -> existing.add(n.getLong("id")));
        switch (op) {
          case 0, 1, 2 -> {
            // several events at once; fresh actors too, so the cap is reached
            for (int i = 0; i < 1 + random.nextInt(4); i++) {
              long from = random.nextBoolean() ? actor : KithTestKit.newUserId();
              relationsEvent(RELATION_EVENTS.get(random.nextInt(4)), from, alice);
            }
            drain(alice);
          }
          case 3 -> {
            if (!existing.isEmpty()) {
              await(notifications.markRead(alice, pick(random, existing)));
            }
          }
          case 4 -> {
            if (!existing.isEmpty()) {
              await(notifications.delete(alice, pick(random, existing)));
            }
          }
          case 5 -> await(random.nextBoolean()
              ? notifications.markReadWhere(alice, condition(random, actor))
              : notifications.deleteWhere(alice, condition(random, actor)));
          default -> {
            if (random.nextInt(4) == 0) {
              await(notifications.markAllRead(alice));
            } else {
              // Redis loses the user's side: the next access rebuilds it from MongoDB
              List<String> keys = new ArrayList<>(List.of(HotStore.countersKey(alice)));
              await(platform.redisApi().del(keys));
            }
          }
        }
        assertCountersMatchScan(alice);
      }
    } catch (AssertionError | Exception e) {
      throw new AssertionError("random sequence failed; rerun with -Dkith.seed=" + seed + ": " + e.getMessage(), e);
    }
  }

  private static List<Long> pick(Random random, List<Long> ids) {
    List<Long> out = new ArrayList<>();
    for (long id : ids) {
      if (random.nextInt(3) == 0) {
        out.add(id);
      }
    }
    if (out.isEmpty()) {
      out.add(ids.get(random.nextInt(ids.size())));
    }
    return out;
  }

  private static JsonObject condition(Random random, long actor) {
    JsonObject c = new JsonObject();
    if (random.nextBoolean()) {
      c.put("types", new JsonArray().add(Notifications.TYPES.get(random.nextInt(4))));
    }
    JsonObject where = new JsonObject();
    if (random.nextBoolean() || c.isEmpty()) {
      where.put("from_user", actor);
    }
    if (random.nextInt(3) == 0) {
      where.put("unread", random.nextBoolean());
    }
    return c.put("where", where);
  }

  @Test
  @DisplayName("when Redis has lost a user's notifications, the first access rebuilds them from MongoDB, read state included")
  void rebuild() throws Exception {
    long alice = KithTestKit.newUserId();
    for (int i = 0; i < 6; i++) {
      relationsEvent(RELATION_EVENTS.get(i % 4), KithTestKit.newUserId(), alice);
    }
    drain(alice);
    List<JsonObject> before = all(alice);
    await(notifications.markRead(alice, List.of(before.get(0).getLong("id"), before.get(1).getLong("id"))));
    JsonObject counts = await(notifications.unreadCounts(alice));
    assertEquals(4L, counts.getLong("total"));

    // everything of alice's side goes, as after a flush
    var api = platform.redisApi();
    List<String> keys = new ArrayList<>();
    api.keys("ntf:{u:" + alice + "}*").toCompletionStage().toCompletableFuture().get()
        .forEach(k -> keys.add(k.toString()));
    keys.remove(HotStore.generationKey(alice));
    await(api.del(keys));
    assertEquals(0, await(api.exists(List.of(HotStore.countersKey(alice)))).toInteger());

    assertEquals(counts, await(notifications.unreadCounts(alice)), "counts rebuilt once from the record");
    assertEquals(before.stream().map(n -> n.getLong("id")).toList(), all(alice).stream().map(n -> n.getLong("id"))
        .toList());
    assertEquals(2, all(alice, where("unread", false)).size());
    assertCountersMatchScan(alice);

    // a notification arriving while the side is missing is kept in the record and appears after the rebuild
    await(api.del(List.of(HotStore.countersKey(alice))));
    relationsEvent(RelationsEvents.USER_FOLLOWED, KithTestKit.newUserId(), alice);
    drain(alice);
    assertEquals(7, all(alice).size());
    assertCountersMatchScan(alice);
  }
}
