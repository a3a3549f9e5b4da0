package io.kith.bench.scenario;

import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EdgeSeederTest {

  private Vertx vertx;
  private Platform platform;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
    platform = Await.result(BenchStores.open(vertx, KithTestKit.redisUrl(), KithTestKit.mongoUrl()));
  }

  @AfterAll
  void stop() {
    if (platform != null) {
      Await.result(platform.close());
    }
    if (vertx != null) {
      Await.result(vertx.close());
    }
  }

  /**
   * Ids 1, 2, 3... that refuse two requests in a row every {@code every} requests, as a generator ahead of the clock
   * does: the first refusal ends a batch, the second leaves the next one empty.
   */
  private static LongSupplier refusingIds(int every) {
    AtomicLong calls = new AtomicLong();
    AtomicLong next = new AtomicLong();
    return () -> {
      long call = calls.incrementAndGet();
      if (call % every == 0 || call % every == 1) {
        throw new IllegalStateException("ids are drawn faster than id node 1 can cover; retry shortly");
      }
      return next.incrementAndGet();
    };
  }

  @Test
  @DisplayName("follow edges come out in follower order with increasing ids, and a refused id only ends a batch early")
  void followsSource() {
    EdgeSeeder.Source source = EdgeSeeder.follows(42, 25, i -> 1000 + i, refusingIds(7), () -> 5L);
    List<JsonObject> all = new ArrayList<>();
    int emptyBatches = 0;
    while (source.remaining() > 0) {
      List<JsonObject> batch = source.next(4);
      assertTrue(batch.size() <= 4);
      if (batch.isEmpty()) {
        emptyBatches++;
      }
      all.addAll(batch);
      assertEquals(25 - all.size(), source.remaining());
    }
    assertEquals(25, all.size());
    assertTrue(emptyBatches > 0, "some batch came out empty (the seeder then waits)");
    for (int i = 0; i < all.size(); i++) {
      JsonObject edge = all.get(i);
      assertEquals("f", edge.getString("t"));
      assertEquals(1000 + i, edge.getLong("a"), "follower " + i);
      assertEquals(42, edge.getLong("b"));
      assertEquals(5, edge.getLong("at"));
      if (i > 0) {
        assertTrue(edge.getLong("_id") > all.get(i - 1).getLong("_id"), "ids increase");
      }
    }
    assertTrue(source.next(4).isEmpty());
  }

  @Test
  @DisplayName("a list source hands out its documents in order, in batches of at most the size asked")
  void listSource() {
    List<JsonObject> docs = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      docs.add(new JsonObject().put("_id", i));
    }
    EdgeSeeder.Source source = EdgeSeeder.of(docs);
    assertEquals(List.of(docs.get(0), docs.get(1), docs.get(2)), source.next(3));
    assertEquals(List.of(docs.get(3), docs.get(4), docs.get(5)), source.next(3));
    assertEquals(List.of(docs.get(6)), source.next(3));
    assertEquals(0, source.remaining());
  }

  @Test
  @DisplayName("seeding inserts every document once, over several batches in flight and refused ids")
  void seedsEverything() {
    String collection = "bench_seed_" + UUID.randomUUID().toString().replace("-", "");
    long celebrity = platform.ids().next();
    int count = EdgeSeeder.BATCH * EdgeSeeder.IN_FLIGHT * 2 + 345;
    EdgeSeeder.Source source = EdgeSeeder.follows(celebrity, count, i -> 1 + i, refusingIds(997),
        System::currentTimeMillis);
    Promise<EdgeSeeder.Result> done = Promise.promise();
    // the seeder keeps its state on one event loop, as the load runner's context does in a run
    vertx.runOnContext(v -> EdgeSeeder.seed(vertx, platform.mongo(), collection, source, "test edges")
        .onComplete(done));
    EdgeSeeder.Result result = Await.result(done.future());
    assertEquals(count, result.documents());
    assertTrue(result.describe().contains("documents in"), result.describe());
    List<JsonObject> stored = Await.result(platform.mongo().find(collection, new JsonObject()));
    assertEquals(count, stored.size());
    Set<Long> followers = new HashSet<>();
    stored.forEach(e -> followers.add(e.getLong("a")));
    assertEquals(count, followers.size(), "each follower once");
    Await.result(platform.mongo().dropCollection(collection));
  }

  @Test
  @DisplayName("seeding nothing completes at once, and a store failure fails the seeding with what was done")
  void emptyAndFailure() {
    Promise<EdgeSeeder.Result> empty = Promise.promise();
    vertx.runOnContext(v -> EdgeSeeder.seed(vertx, platform.mongo(), "unused", EdgeSeeder.of(List.of()), "nothing")
        .onComplete(empty));
    assertEquals(0, Await.result(empty.future()).documents());

    String collection = "bench_seed_" + UUID.randomUUID().toString().replace("-", "");
    List<JsonObject> docs = List.of(new JsonObject().put("_id", 1L), new JsonObject().put("_id", 1L));
    Promise<EdgeSeeder.Result> duplicate = Promise.promise();
    vertx.runOnContext(v -> EdgeSeeder.seed(vertx, platform.mongo(), collection, EdgeSeeder.of(docs), "duplicates")
        .onComplete(duplicate));
    Throwable failure = Await.failure(duplicate.future());
    assertTrue(failure.getMessage().startsWith("seeding duplicates failed"), failure.getMessage());
    Await.result(platform.mongo().dropCollection(collection).recover(e -> Future.succeededFuture()));
  }
}
