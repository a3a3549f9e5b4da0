package io.kith.activities.service;

import io.kith.accounts.api.AccountsService;
import io.kith.accounts.service.AccountsModule;
import io.kith.activities.api.ActivitiesEvents;
import io.kith.activities.api.ActivitiesService;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.EventConsumer;
import io.kith.platform.events.EventLog;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.ServiceTestBase;
import io.kith.platform.testkit.TestUsers;
import io.kith.relations.service.RelationsModule;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two nodes (two Vert.x instances, each with its own platform, id lease, activities service and sweep) over the same
 * stores: what a cluster does to reminders and to joins arriving on different nodes at once.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Activities on two nodes")
class TwoNodesTest extends ServiceTestBase {

  /** Reminders this long before the start, swept every 50 ms on each node. */
  private static final int REMIND_SECONDS = 2;

  private final List<Vertx> vertxes = new ArrayList<>();
  private final List<Platform> platforms = new ArrayList<>();
  private final List<ActivitiesService> nodes = new ArrayList<>();
  private AccountsService accounts;

  @BeforeAll
  void deploy() throws Exception {
    for (int i = 0; i < 2; i++) {
      Vertx vertx = Vertx.vertx();
      Platform platform = await(KithTestKit.platform(vertx, new JsonObject()
          .put("accounts", new JsonObject().put("register-max-per-address", 100_000))
          .put("activities", new JsonObject().put("reminder-before-seconds", REMIND_SECONDS)
              .put("sweep-interval-ms", 50).put("creates-per-hour", 1_000_000))));
      await(KithTestKit.deploy(platform, new AccountsModule(), new RelationsModule(), new ActivitiesModule()));
      vertxes.add(vertx);
      platforms.add(platform);
      nodes.add(ActivitiesService.proxy(vertx));
    }
    accounts = AccountsService.proxy(vertxes.get(0));
  }

  @AfterAll
  void undeploy() throws Exception {
    for (Platform p : platforms) {
      await(p.close());
    }
    for (Vertx v : vertxes) {
      await(v.close());
    }
  }

  private long newUser() throws Exception {
    return await(TestUsers.register(accounts::register, "t")).getLong("id");
  }

  private static JsonObject body(long startIn) {
    long start = System.currentTimeMillis() + startIn;
    return new JsonObject().put("title", "Two nodes").put("start", start).put("end", start + 3_600_000L)
        .put("place", new JsonObject().put("name", "Here"));
  }

  @Test
  @DisplayName("reminders are appended exactly once per activity with both nodes sweeping, naming the participants")
  void remindersOnce() throws Exception {
    long organiser = newUser();
    String group = "activities-test-" + UUID.randomUUID();
    List<DomainEvent> seen = new CopyOnWriteArrayList<>();
    EventConsumer recorder = await(platforms.get(0).events().consume(ActivitiesEvents.DOMAIN, group, e -> {
      if (ActivitiesEvents.ACTIVITY_STARTING_SOON.equals(e.type())) {
        seen.add(e);
      }
      return Future.succeededFuture();
    }));
    try {
      List<Long> ids = new ArrayList<>();
      Map<Long, List<Long>> participants = new HashMap<>();
      long lastStart = 0;
      for (int i = 0; i < 8; i++) {
        JsonObject view = await(nodes.get(i % 2).create(organiser, body((REMIND_SECONDS + 6) * 1000L + i * 100L)));
        long id = view.getLong("id");
        ids.add(id);
        lastStart = Math.max(lastStart, view.getLong("start"));
        List<Long> joined = List.of(KithTestKit.newUserId(), KithTestKit.newUserId());
        for (long u : joined) {
          await(nodes.get((i + 1) % 2).join(u, id));
        }
        participants.put(id, joined);
      }
      long cancelled = await(nodes.get(0).create(organiser, body((REMIND_SECONDS + 1) * 1000L))).getLong("id");
      await(nodes.get(1).cancel(organiser, cancelled));
      long allStarted = lastStart + 500;
      await(Poll.until(vertxes.get(0), Duration.ofSeconds(30), "every activity started, sweeps past", () ->
          Future.succeededFuture(System.currentTimeMillis() > allStarted && seen.size() >= ids.size())));
      // a reminder put back on the queue (as a rebuild could) is claimed by nobody: the record says it was sent
      await(platforms.get(1).redisApi().zadd(List.of(HotActivities.DUE, "0", Long.toString(ids.get(0)))));
      // a few more sweeps on both nodes to catch a late duplicate
      long settle = System.currentTimeMillis() + 500;
      await(Poll.until(vertxes.get(0), Duration.ofSeconds(5), "settle", () ->
          Future.succeededFuture(System.currentTimeMillis() > settle)));
      for (long id : ids) {
        List<DomainEvent> mine = seen.stream().filter(e -> e.payload().getLong("activity") == id).toList();
        assertEquals(1, mine.size(), "one reminder for " + id + ": " + mine);
        JsonObject p = mine.get(0).payload();
        assertEquals(participants.get(id), p.getJsonArray("participants").stream()
            .map(x -> ((Number) x).longValue()).toList());
        assertEquals(organiser, p.getLong("organiser"));
        assertEquals("Here", p.getJsonObject("place").getString("name"));
      }
      assertEquals(0, seen.stream().filter(e -> e.payload().getLong("activity") == cancelled).count(),
          "a cancelled activity is not reminded");
    } finally {
      await(recorder.stop());
      await(platforms.get(0).redisApi().xgroup(List.of("DESTROY", EventLog.stream(ActivitiesEvents.DOMAIN), group)));
    }
  }

  @Test
  @DisplayName("200 joins split over both nodes on capacity 50: exactly 50 participants")
  void joinsAcrossNodes() throws Exception {
    long organiser = newUser();
    long id = await(nodes.get(0).create(organiser, body(86_400_000L).put("capacity", 50))).getLong("id");
    List<Future<JsonObject>> joins = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      long u = KithTestKit.newUserId();
      joins.add(nodes.get(i % 2).join(u, id));
      if (i % 10 == 0) {
        // the same user through both nodes at once
        joins.add(nodes.get((i + 1) % 2).join(u, id));
      }
    }
    await(Future.join(joins).otherwiseEmpty());
    Map<String, Integer> out = new HashMap<>();
    for (Future<JsonObject> f : joins) {
      out.merge(f.succeeded() ? f.result().getString("status") : Failures.codeOf(f.cause()), 1, Integer::sum);
    }
    Long joined = await(platforms.get(0).mongo().count(ParticipantStore.COLLECTION,
        new JsonObject().put("activity", id).put("status", "joined")));
    assertEquals(50L, joined, "outcomes " + out);
    for (ActivitiesService node : nodes) {
      assertEquals(50, await(node.activity(organiser, id)).getInteger("participant_count"));
    }
  }
}
