package io.kith.platform.events;

import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@Timeout(120)
@DisplayName("Erasure reports of deleted accounts (account_erasures)")
class ErasuresTest {

  private static final AtomicLong USERS = new AtomicLong(System.nanoTime() % 1_000_000_000L);

  private Platform platform;
  private Erasures erasures;

  @BeforeEach
  void setUp(Vertx vertx) {
    platform = Await.result(KithTestKit.platform(vertx));
    erasures = new Erasures(platform.mongo());
  }

  @AfterEach
  void tearDown() {
    Await.result(platform.close());
  }

  @Test
  @DisplayName("steps are recorded with their counts, a step run again sets its count, and the first finish time stays")
  void stepsAndFinish() {
    long user = USERS.incrementAndGet();
    assertNull(Await.result(erasures.report("feeds", user)));
    assertFalse(Await.result(erasures.done("feeds", user, "posts")));

    Await.result(erasures.step("feeds", user, "posts", "posts", 3));
    Await.result(erasures.step("feeds", user, "posts", "posts", 3));
    Await.result(erasures.step("feeds", user, "likes", "likes", 7));
    assertTrue(Await.result(erasures.done("feeds", user, "posts")));
    assertFalse(Await.result(erasures.done("relations", user, "posts")), "reports are per domain");

    JsonObject first = Await.result(erasures.finish("feeds", user));
    JsonObject again = Await.result(erasures.finish("feeds", user));
    assertEquals("feeds:" + user, again.getString("_id"));
    assertEquals("feeds", again.getString("domain"));
    assertEquals(user, again.getLong("user"));
    assertEquals(new JsonArray().add("posts").add("likes"), again.getJsonArray("steps"));
    assertEquals(new JsonObject().put("posts", 3L).put("likes", 7L), again.getJsonObject("counts"));
    assertNotNull(first.getLong("finished_at"));
    assertEquals(first.getLong("finished_at"), again.getLong("finished_at"));
  }

  @Test
  @DisplayName("a domain that had nothing of the user finishes with an empty report")
  void nothingToErase() {
    long user = USERS.incrementAndGet();
    JsonObject report = Await.result(erasures.finish("activities", user));
    assertEquals(new JsonObject(), report.getJsonObject("counts"));
    assertEquals(user, report.getLong("user"));
    assertNotNull(report.getLong("finished_at"));
  }
}
