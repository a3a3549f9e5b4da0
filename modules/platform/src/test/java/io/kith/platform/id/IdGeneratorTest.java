package io.kith.platform.id;

import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.EventLog;
import io.kith.platform.events.EventLogOptions;
import io.kith.platform.store.Stores;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@Timeout(120)
class IdGeneratorTest {

  private static final long MAX_SAFE = 1L << 53;

  private Vertx vertx;
  private Redis client;
  private RedisAPI redis;
  private final List<IdGenerator> generators = new ArrayList<>();
  private final List<Redis> clients = new ArrayList<>();
  private final List<Vertx> others = new ArrayList<>();

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    client = newClient(vertx);
    redis = RedisAPI.api(client);
  }

  @AfterEach
  void tearDown() {
    for (IdGenerator g : generators) {
      Await.result(g.close());
    }
    clients.forEach(Redis::close);
    for (Vertx v : others) {
      Await.result(v.close());
    }
  }

  private Redis newClient(Vertx on) {
    Redis c = Stores.redis(on, KithTestKit.redisUrl(), KithTestKit.redisSection());
    clients.add(c);
    return c;
  }

  private IdGenerator lease(Vertx on, RedisAPI api, int leaseSeconds, int candidate) {
    IdGenerator g = Await.result(IdGenerator.lease(on, api, leaseSeconds, candidate));
    generators.add(g);
    return g;
  }

  private IdGenerator lease(Vertx on, RedisAPI api) {
    IdGenerator g = Await.result(IdGenerator.lease(on, api, 30));
    generators.add(g);
    return g;
  }

  private static String leaseKey(int node) {
    return "ids:{n" + node + "}:lease";
  }

  private static String highWaterKey(int node) {
    return "ids:{n" + node + "}:hw";
  }

  /** Draws {@code count} ids, or fewer if the generator refuses (then the refusal ends the draw). */
  private static long[] drawUntilRefused(IdGenerator g, int count) {
    long[] ids = new long[count];
    int n = 0;
    try {
      while (n < count) {
        ids[n] = g.next();
        n++;
      }
    } catch (IllegalStateException refused) {
      // the generator may refuse to run further ahead of what its lease covers
    }
    return Arrays.copyOf(ids, n);
  }

  private static void assertStrictlyIncreasing(long[] ids) {
    for (int i = 1; i < ids.length; i++) {
      if (ids[i] <= ids[i - 1]) {
        fail("id " + ids[i] + " at " + i + " is not greater than the one before, " + ids[i - 1]);
      }
    }
  }

  @Test
  @DisplayName("ids are positive, below 2^53, carry the generator's node number and strictly increase")
  void positiveSafeIncreasing() {
    IdGenerator g = lease(vertx, redis);

    long[] ids = drawUntilRefused(g, 100_000);

    assertEquals(100_000, ids.length, "the generator refused within a normal burst");
    for (long id : ids) {
      assertTrue(id > 0 && id < MAX_SAFE, "id out of range: " + id);
      assertEquals(g.node(), IdGenerator.nodeOf(id));
    }
    assertStrictlyIncreasing(ids);
  }

  @Test
  @DisplayName("two generators on two Vert.x instances get different node numbers, even when both ask for the same")
  void differentNodes() {
    Vertx second = Vertx.vertx();
    others.add(second);
    IdGenerator a = lease(vertx, redis);

    IdGenerator b = lease(second, RedisAPI.api(newClient(second)), 30, a.node());

    assertNotEquals(a.node(), b.node());
    assertEquals(b.node(), IdGenerator.nodeOf(b.next()));
    assertEquals(a.node(), IdGenerator.nodeOf(a.next()));
  }

  @Test
  @DisplayName("ids drawn concurrently by several threads from two generators on two Vert.x instances are all unique")
  void uniqueUnderConcurrency() throws Exception {
    Vertx second = Vertx.vertx();
    others.add(second);
    IdGenerator a = lease(vertx, redis);
    IdGenerator b = lease(second, RedisAPI.api(newClient(second)));
    int threads = 4;
    int perGenerator = 50_000;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Callable<long[][]>> work = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      work.add(() -> {
        long[] fromA = new long[perGenerator];
        long[] fromB = new long[perGenerator];
        for (int i = 0; i < perGenerator; i++) {
          fromA[i] = a.next();
          fromB[i] = b.next();
        }
        return new long[][] {fromA, fromB};
      });
    }

    long[] all = new long[threads * perGenerator * 2];
    int n = 0;
    try {
      for (java.util.concurrent.Future<long[][]> result : pool.invokeAll(work)) {
        long[][] drawn = result.get();
        assertStrictlyIncreasing(drawn[0]);
        assertStrictlyIncreasing(drawn[1]);
        for (long[] ids : drawn) {
          System.arraycopy(ids, 0, all, n, ids.length);
          n += ids.length;
        }
      }
    } finally {
      pool.shutdownNow();
    }

    Arrays.sort(all);
    for (int i = 1; i < all.length; i++) {
      if (all[i] == all[i - 1]) {
        fail("id " + all[i] + " was issued twice");
      }
    }
    assertTrue(all[0] > 0 && all[all.length - 1] < MAX_SAFE);
  }

  @Test
  @DisplayName("an id tells the time it was made and its node, and minIdAt bounds the ids of a millisecond")
  void timeRoundTrip() {
    int unused = -1;
    for (int k = 0; k < IdGenerator.NODES && unused < 0; k++) {
      if (Await.result(redis.exists(List.of(leaseKey(k), highWaterKey(k)))).toInteger() == 0) {
        unused = k;
      }
    }
    assertTrue(unused >= 0, "no unused node number left in the test Redis");
    IdGenerator g = lease(vertx, redis, 30, unused);
    assertEquals(unused, g.node());

    long before = System.currentTimeMillis();
    long id = g.next();
    long after = System.currentTimeMillis();

    long time = IdGenerator.timeOf(id);
    assertTrue(time >= before && time <= after, "time " + time + " not within [" + before + ", " + after + "]");
    assertEquals(unused, IdGenerator.nodeOf(id));
    assertTrue(IdGenerator.minIdAt(time) <= id && id < IdGenerator.minIdAt(time + 1));
    assertEquals(time, IdGenerator.timeOf(IdGenerator.minIdAt(time)));
    assertEquals(0, IdGenerator.minIdAt(IdGenerator.EPOCH - 1000), "before the epoch there are no ids");
    long later = g.next();
    assertTrue(IdGenerator.timeOf(later) >= time);
  }

  @Test
  @DisplayName("closing a generator frees its number; the next holder's ids are larger even if the old ran ahead")
  void closeReleasesWithHighWater() {
    IdGenerator old = lease(vertx, redis);
    int node = old.node();
    // more than 32 ids per millisecond: the generator borrows future milliseconds and runs ahead of the clock
    long[] drawn = drawUntilRefused(old, 100_000);
    long lastOld = drawn[drawn.length - 1];
    assertTrue(IdGenerator.timeOf(lastOld) > System.currentTimeMillis(), "the burst did not run ahead of the clock");

    Await.result(old.close());

    assertEquals(0, Await.result(redis.exists(List.of(leaseKey(node)))).toInteger(), "the lease was released");
    assertThrows(IllegalStateException.class, old::next, "a closed generator issues no ids");
    IdGenerator next = lease(vertx, redis, 30, node);
    assertEquals(node, next.node());
    long first = next.next();
    assertTrue(first > lastOld, "id " + first + " of the new holder is not above " + lastOld);
  }

  @Test
  @DisplayName("a generator whose lease was taken over stops using that number and leases another")
  void stolenLease() {
    IdGenerator g = lease(vertx, redis, 3, (int) (Math.random() * IdGenerator.NODES));
    int node = g.node();
    long before = g.next();
    String thief = "thief-" + UUID.randomUUID();
    assertEquals("OK", Await.result(redis.set(List.of(leaseKey(node), thief, "XX", "PX", "60000"))).toString());
    try {
      Await.result(Poll.until(vertx, Duration.ofSeconds(10), "the generator to give up node " + node,
          () -> Future.succeededFuture(g.node() != node)));

      long after = g.next();
      assertEquals(g.node(), IdGenerator.nodeOf(after));
      assertNotEquals(node, IdGenerator.nodeOf(after));
      assertTrue(after > before, "ids keep increasing across the change of number");
      Response holder = Await.result(redis.get(leaseKey(node)));
      assertEquals(thief, holder == null ? null : holder.toString(), "the generator left the thief's lease alone");
    } finally {
      Await.result(redis.eval(List.of("if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('del', KEYS[1]) end",
          "1", leaseKey(node), thief)));
    }
  }

  @Test
  @DisplayName("a generator that cannot renew its lease stops issuing ids before the lease runs out")
  void stopsWhenRenewalFails() {
    Redis own = newClient(vertx);
    IdGenerator g = lease(vertx, RedisAPI.api(own), 3, (int) (Math.random() * IdGenerator.NODES));
    int node = g.node();
    g.next();

    own.close();
    Await.result(Poll.until(vertx, Duration.ofSeconds(10), "the generator to refuse",
        () -> {
          try {
            g.next();
            return Future.succeededFuture(false);
          } catch (IllegalStateException refused) {
            return Future.succeededFuture(true);
          }
        }));

    long ttl = Await.result(redis.pttl(leaseKey(node))).toLong();
    assertTrue(ttl > 0, "the generator was still issuing ids after its lease expired (pttl " + ttl + ")");
  }

  @Test
  @DisplayName("a number whose holder vanished without releasing it is taken over with ids above all the holder's")
  void takeoverAfterCrash() {
    Redis own = newClient(vertx);
    IdGenerator crashed = lease(vertx, RedisAPI.api(own), 3, (int) (Math.random() * IdGenerator.NODES));
    int node = crashed.node();
    // a burst runs ahead of the clock, then the holder disappears: no renewal, no release
    long[] drawn = drawUntilRefused(crashed, 200_000);
    own.close();
    long lastCrashed = drawn[drawn.length - 1];

    Await.result(Poll.until(vertx, Duration.ofSeconds(15), "the lease of the vanished holder to expire",
        () -> redis.exists(List.of(leaseKey(node))).map(r -> r.toInteger() == 0)));
    IdGenerator next = lease(vertx, redis, 30, node);

    assertEquals(node, next.node());
    long first = next.next();
    assertTrue(first > lastCrashed, "id " + first + " of the new holder is not above " + lastCrashed
        + " issued by the vanished one (" + drawn.length + " ids drawn)");
  }

  @Test
  @DisplayName("a node stalled past its lease leases one number again, not one per missed renewal, and an event "
      + "appended as it resumes is appended, not dropped")
  void stallPastTheLease() throws Exception {
    // one event loop: the generator's renewal timer, its Redis connection and the stalled task all run on it
    Vertx stalled = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
    others.add(stalled);
    Redis own = newClient(stalled);
    IdGenerator g = lease(stalled, RedisAPI.api(own), 3, (int) (Math.random() * IdGenerator.NODES));
    int node = g.node();
    String owner = Await.result(redis.get(leaseKey(node))).toString();
    EventLog log = new EventLog(stalled, own, g, EventLogOptions.from(new JsonObject()));
    String domain = "stall-" + UUID.randomUUID().toString().substring(0, 8);
    CompletableFuture<Future<DomainEvent>> resumed = new CompletableFuture<>();

    stalled.runOnContext(v -> {
      // the stall (a SIGSTOP): nothing runs on this node until its lease has expired in Redis, which takes at least
      // two renewal periods; the missed renewals then all fire at once
      try {
        while (redis.exists(List.of(leaseKey(node))).toCompletionStage().toCompletableFuture()
            .get(30, TimeUnit.SECONDS).toInteger() > 0) {
          Thread.sleep(50);
        }
      } catch (Exception e) {
        resumed.completeExceptionally(e);
        return;
      }
      // the first thing the node does as it resumes (a presence change, say) appends an event
      resumed.complete(log.append(domain, "PresenceChanged", new JsonObject().put("online", true)));
    });

    DomainEvent event = Await.result(resumed.get(60, TimeUnit.SECONDS));
    Response entries = Await.result(redis.xrange(List.of(EventLog.stream(domain), "-", "+")));
    assertEquals(1, entries.size(), "the event is in its stream");
    assertEquals(Long.toString(event.id()), entries.get(0).get(1).get(1).toString());
    int held = 0;
    for (int k = 0; k < IdGenerator.NODES; k++) {
      Response holder = Await.result(redis.get(leaseKey(k)));
      if (holder != null && owner.equals(holder.toString())) {
        held++;
      }
    }
    assertEquals(1, held, "node numbers leased by the generator after the stall");
    assertEquals(g.node(), IdGenerator.nodeOf(g.next()));
    log.close();
  }

  @Test
  @DisplayName("a lease shorter than three seconds is refused")
  void shortLeaseRefused() {
    Throwable e = Await.failure(IdGenerator.lease(vertx, redis, 2));

    assertTrue(e instanceof IllegalArgumentException, String.valueOf(e));
    assertTrue(e.getMessage().contains("ids.lease-seconds"), e.getMessage());
  }
}
