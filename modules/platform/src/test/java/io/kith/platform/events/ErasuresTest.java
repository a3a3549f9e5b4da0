package io.kith.platform.events;

import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
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

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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

  @Test
  @DisplayName("a failing step stops the run unfinished; the next run skips the recorded steps and finishes")
  void resumes() {
    long user = USERS.incrementAndGet();
    List<String> ran = new ArrayList<>();
    boolean[] broken = {true};
    List<ErasureSteps.Step> steps = List.of(
        new ErasureSteps.Step("posts", "posts", u -> {
          ran.add("posts");
          return Future.succeededFuture(3L);
        }),
        new ErasureSteps.Step("likes", "likes", u -> {
          ran.add("likes");
          return broken[0] ? Future.failedFuture("store down") : Future.succeededFuture(5L);
        }));

    Await.failure(ErasureSteps.run(erasures, "things", user, steps));
    JsonObject half = Await.result(erasures.report("things", user));
    assertEquals(List.of("posts"), half.getJsonArray("steps").getList());
    assertNull(half.getLong("finished_at"));

    broken[0] = false;
    JsonObject done = Await.result(ErasureSteps.run(erasures, "things", user, steps));
    assertEquals(List.of("posts", "likes", "likes"), ran, "the recorded step is not run again");
    assertEquals(new JsonObject().put("posts", 3L).put("likes", 5L), done.getJsonObject("counts"));
    assertNotNull(done.getLong("finished_at"));
  }

  @Test
  @DisplayName("the consumer erases the user an event of the given type names, once per event, and skips other types")
  void consumes() {
    long user = USERS.incrementAndGet();
    String group = "erasure-steps-test-" + user;
    List<Long> erased = new CopyOnWriteArrayList<>();
    EventConsumer consumer = Await.result(ErasureSteps.consume(platform.events(), "stepstest", group, "Gone",
        e -> e.payload().getLong("user_id", 0L), u -> {
          erased.add(u);
          return Future.succeededFuture();
        }));
    Await.result(platform.events().append("stepstest", "Other", new JsonObject().put("user_id", user + 1)));
    Await.result(platform.events().append("stepstest", "Gone", new JsonObject().put("user_id", 0L)));
    Await.result(platform.events().append("stepstest", "Gone", new JsonObject().put("user_id", user)));
    Await.result(Poll.until(platform.vertx(), Duration.ofSeconds(60), "the erasure of " + user,
        () -> Future.succeededFuture(!erased.isEmpty())));
    Await.result(consumer.stop());
    assertEquals(List.of(user), erased);
  }
}
