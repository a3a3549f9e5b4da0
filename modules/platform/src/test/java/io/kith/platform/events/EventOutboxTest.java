package io.kith.platform.events;

import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.FailingRedis;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@Timeout(120)
class EventOutboxTest {

  private Vertx vertx;
  private Platform platform;
  private FailingRedis redis;
  private final List<EventLog> logs = new ArrayList<>();

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    platform = Await.result(KithTestKit.platform(vertx));
    redis = new FailingRedis(platform.redis());
  }

  @AfterEach
  void tearDown() {
    logs.forEach(EventLog::close);
    Await.result(platform.close());
  }

  /** A log over the failing client with its own outbox; drained by the test (the timer is pushed out of the way). */
  private EventLog log() {
    EventLogOptions options = new EventLogOptions(1_000_000L, 30_000L, 64, 500L, 10, 3600L, 3_600_000L);
    EventLog log = new EventLog(vertx, redis, platform.ids(), options, new EventOutbox(platform.mongo()));
    logs.add(log);
    return log;
  }

  /** The event ids in a domain's stream, in stream order. */
  private List<Long> streamIds(String domain) {
    Response entries = Await.result(platform.redisApi().xrange(List.of(EventLog.stream(domain), "-", "+")));
    List<Long> ids = new ArrayList<>();
    for (Response entry : entries) {
      Response fields = entry.get(1);
      for (int i = 0; i < fields.size(); i += 2) {
        if ("id".equals(fields.get(i).toString())) {
          ids.add(Long.parseLong(fields.get(i + 1).toString()));
        }
      }
    }
    return ids;
  }

  private long parked(String domain) {
    return Await.result(platform.mongo().count(EventOutbox.COLLECTION, new JsonObject().put("domain", domain)));
  }

  @Test
  @DisplayName("an append Redis refuses is parked in MongoDB, answered as appended, and reaches the stream with its "
      + "id, type, time and payload once Redis is back")
  void refusedAppendIsParkedThenAppended() {
    String domain = "outbox" + UUID.randomUUID().toString().substring(0, 8);
    EventLog log = log();
    DomainEvent before = Await.result(log.append(domain, "Before", new JsonObject().put("n", 0)));
    redis.failing(true);
    DomainEvent parked = Await.result(log.append(domain, "Parked", new JsonObject().put("n", 1)));
    List<DomainEvent> parkedAll = Await.result(log.appendAll(domain, "ParkedToo",
        List.of(new JsonObject().put("n", 2), new JsonObject().put("n", 3))));
    assertEquals(3L, parked(domain));
    assertEquals(0, Await.result(log.drainOutbox()), "nothing goes while Redis still refuses");
    assertEquals(3L, parked(domain), "a refused drain keeps every event");
    redis.failing(false);
    assertEquals(List.of(before.id()), streamIds(domain));
    Await.result(log.drainOutbox());
    assertEquals(0L, parked(domain));
    assertEquals(List.of(before.id(), parked.id(), parkedAll.get(0).id(), parkedAll.get(1).id()), streamIds(domain));
    // the parked event is stored as it was made, not as of the drain
    Response entries = Await.result(platform.redisApi().xrange(List.of(EventLog.stream(domain), "-", "+")));
    Response fields = entries.get(1).get(1);
    JsonObject asStored = new JsonObject();
    for (int i = 0; i < fields.size(); i += 2) {
      asStored.put(fields.get(i).toString(), fields.get(i + 1).toString());
    }
    assertEquals("Parked", asStored.getString("type"));
    assertEquals(Long.toString(parked.time()), asStored.getString("time"));
    assertEquals(new JsonObject().put("n", 1), new JsonObject(asStored.getString("payload")));
  }

  @Test
  @DisplayName("without an outbox, or when MongoDB refuses too, the append fails")
  void failsWithoutOutbox() {
    String domain = "outbox" + UUID.randomUUID().toString().substring(0, 8);
    EventLog bare = new EventLog(vertx, redis, platform.ids(), EventLogOptions.from(new JsonObject()));
    logs.add(bare);
    redis.failing(true);
    assertThrows(Throwable.class, () -> Await.result(bare.append(domain, "Lost", new JsonObject())));
    io.vertx.ext.mongo.MongoClient closed = io.vertx.ext.mongo.MongoClient.createShared(vertx,
        new JsonObject().put("connection_string", "mongodb://127.0.0.1:1").put("serverSelectionTimeoutMS", 300),
        "outbox-test-" + UUID.randomUUID());
    EventLog noMongo = new EventLog(vertx, redis, platform.ids(), new EventLogOptions(1_000_000L, 30_000L, 64, 500L,
        10, 3600L, 3_600_000L), new EventOutbox(closed));
    logs.add(noMongo);
    assertThrows(Throwable.class, () -> Await.result(noMongo.append(domain, "Lost", new JsonObject())));
    closed.close();
  }

  @Test
  @DisplayName("two nodes draining at once append each parked event once")
  void concurrentDrainsAppendOnce() {
    String domain = "outbox" + UUID.randomUUID().toString().substring(0, 8);
    EventLog a = log();
    EventLog b = log();
    redis.failing(true);
    Set<Long> ids = new HashSet<>();
    for (int i = 0; i < 40; i++) {
      ids.add(Await.result((i % 2 == 0 ? a : b).append(domain, "Parked", new JsonObject().put("n", i))).id());
    }
    redis.failing(false);
    Await.result(Future.all(a.drainOutbox(), b.drainOutbox()));
    Await.result(Future.all(a.drainOutbox(), b.drainOutbox()));
    List<Long> appended = streamIds(domain);
    assertEquals(40, appended.size(), appended.toString());
    assertEquals(ids, new HashSet<>(appended));
    assertEquals(0L, parked(domain));
  }
}
