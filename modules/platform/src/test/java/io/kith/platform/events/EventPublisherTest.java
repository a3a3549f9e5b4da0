package io.kith.platform.events;

import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.FailingRedis;
import io.kith.platform.testkit.KithTestKit;
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
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@Timeout(120)
class EventPublisherTest {

  /** A typed event as a domain's api module declares one. */
  record Pinged(long from, String note) implements Event {
    @Override
    public String eventType() {
      return "Pinged";
    }

    @Override
    public JsonObject toJson() {
      return new JsonObject().put("from", from).put("note", note);
    }
  }

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

  private EventLog bare() {
    EventLog log = new EventLog(vertx, redis, platform.ids(), EventLogOptions.from(new JsonObject()));
    logs.add(log);
    return log;
  }

  /** The stream's entries as {type, payload} objects, in stream order. */
  private List<JsonObject> entries(String domain) {
    Response entries = Await.result(platform.redisApi().xrange(List.of(EventLog.stream(domain), "-", "+")));
    List<JsonObject> out = new ArrayList<>();
    for (Response entry : entries) {
      Response fields = entry.get(1);
      JsonObject e = new JsonObject();
      for (int i = 0; i < fields.size(); i += 2) {
        e.put(fields.get(i).toString(), fields.get(i + 1).toString());
      }
      out.add(e);
    }
    return out;
  }

  @Test
  @DisplayName("a published event lands in its domain's stream under its type with the JSON its record writes")
  void publishesTypedEvent() {
    String domain = "pub" + UUID.randomUUID().toString().substring(0, 8);
    EventPublisher publisher = bare().publisher(domain);
    Await.result(publisher.publish(new Pinged(7, "hi")));
    List<JsonObject> stored = entries(domain);
    assertEquals(1, stored.size());
    assertEquals("Pinged", stored.get(0).getString("type"));
    assertEquals("{\"from\":7,\"note\":\"hi\"}", stored.get(0).getString("payload"));
  }

  @Test
  @DisplayName("publish answers without failing when the event cannot be appended, while append fails so the caller "
      + "can retry")
  void publishNeverFails() {
    String domain = "pub" + UUID.randomUUID().toString().substring(0, 8);
    EventPublisher publisher = bare().publisher(domain);
    redis.failing(true);
    Await.result(publisher.publish(new Pinged(1, "lost")));
    assertThrows(Throwable.class, () -> Await.result(publisher.append(new Pinged(2, "retry"))));
    redis.failing(false);
    assertEquals(0, entries(domain).size());
  }

  @Test
  @DisplayName("a publisher refuses a domain name that cannot name a stream")
  void refusesBadDomain() {
    assertThrows(IllegalArgumentException.class, () -> bare().publisher("no spaces"));
  }
}
