package io.kith.bench.scenario.feeds;

import io.kith.bench.scenario.RedisWork;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The arithmetic and checks of the feeds scenarios that need no Kith. */
class FeedsScenarioPartsTest {

  @Test
  @DisplayName("Redis work between two INFO samples: CPU time and the busiest commands, per unit")
  void redisWork() {
    RedisWork before = RedisWork.parse("# CPU\r\nused_cpu_sys:1.500000\r\nused_cpu_user:2.000000\r\n"
        + "# Commandstats\r\ncmdstat_evalsha:calls=10,usec=1000,usec_per_call=100.00,rejected_calls=0\r\n"
        + "cmdstat_get:calls=1,usec=5,usec_per_call=5.00\r\n");
    RedisWork after = RedisWork.parse("# CPU\r\nused_cpu_sys:2.000000\r\nused_cpu_user:3.500000\r\n"
        + "# Commandstats\r\ncmdstat_evalsha:calls=20,usec=3000,usec_per_call=150.00,rejected_calls=0\r\n"
        + "cmdstat_get:calls=1,usec=5,usec_per_call=5.00\r\ncmdstat_lpos:calls=4,usec=400,usec_per_call=100.00\r\n");
    RedisWork spent = after.minus(before);
    assertEquals(2_000_000, spent.cpuMicros(), 1e-6);
    assertEquals(java.util.Map.of("evalsha", 2000L, "lpos", 400L), spent.commandMicros());
    assertEquals(java.util.Map.of("evalsha", 10L, "lpos", 4L), spent.commandCalls());
    assertEquals("evalsha 20.00 us x0.100, lpos 4.00 us x0.040", spent.top(100, 5));
    assertEquals("evalsha 20.00 us x0.100", spent.top(100, 1));
  }

  @Test
  @DisplayName("the fan-out sample holds the oldest follower (last in the worker's stream), the newest, and a spread")
  void sample() {
    List<Long> followers = new ArrayList<>();
    for (long i = 1; i <= 10_000; i++) {
      followers.add(i);
    }
    List<Long> sample = FeedsFanoutScenario.sample(followers);
    assertEquals(1L, sample.get(0));
    assertEquals(10_000L, sample.get(sample.size() - 1));
    assertEquals(FeedsFanoutScenario.SAMPLE + 2, sample.size());
    assertEquals(List.of(1L, 2L), FeedsFanoutScenario.sample(List.of(1L, 2L)));
    assertEquals(List.of(7L), FeedsFanoutScenario.sample(List.of(7L)));
  }

  @Test
  @DisplayName("redis-benchmark's CSV output gives the LPUSH requests per second")
  void redisBenchmarkCsv() {
    assertEquals(467289.72, LpushBaseline.parseRedisBenchmark(List.of(
        "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\"",
        "\"LPUSH\",\"467289.72\",\"1.519\",\"0.192\",\"1.287\"")), 1e-6);
    assertThrows(IllegalStateException.class, () -> LpushBaseline.parseRedisBenchmark(List.of("error")));
    assertEquals("467,290, 1,000 LPUSH/s", LpushBaseline.rates(List.of(467289.72, 1000.0)));
  }

  @Test
  @DisplayName("five in eight seeded moments posts are visible to the viewer, and the pull filter says the same")
  void momentsKinds() {
    int visible = 0;
    for (int k = 0; k < 8; k++) {
      visible += FeedsMomentsScenario.kind(k, 42).visible() ? 1 : 0;
    }
    assertEquals(5, visible);
    JsonObject filter = FeedsMomentsScenario.pullFilter(42, List.of(1L, 2L));
    assertEquals(new JsonArray().add(1L).add(2L), filter.getJsonObject("author").getJsonArray("$in"));
    JsonArray or = filter.getJsonArray("$or");
    assertEquals(3, or.size());
    assertEquals(42L, or.getJsonObject(1).getLong("aud.users"), "only: the viewer is in the audience");
    assertEquals(42L, or.getJsonObject(2).getJsonObject("aud.users").getLong("$ne"), "except: the viewer is not");
  }

  @Test
  @DisplayName("a timeline page passes only with the expected ids in order, each hydrated with its author")
  void pageCheck() {
    JsonObject author = new JsonObject().put("id", 7L).put("username", "a");
    JsonObject view = new JsonObject().put("id", 100L).put("author", author).put("counts", new JsonObject())
        .put("viewer", new JsonObject());
    JsonObject page = new JsonObject().put("items", new JsonArray().add(view));
    FeedsSeed.checkPage(page, List.of(100L), Map.of(100L, 7L));
    assertThrows(IllegalStateException.class, () -> FeedsSeed.checkPage(page, List.of(101L), Map.of(100L, 7L)));
    assertThrows(IllegalStateException.class, () -> FeedsSeed.checkPage(page, List.of(100L), Map.of(100L, 8L)),
        "another author");
    JsonObject bare = new JsonObject().put("items", new JsonArray().add(new JsonObject().put("id", 100L)));
    assertThrows(IllegalStateException.class, () -> FeedsSeed.checkPage(bare, List.of(100L), Map.of(100L, 7L)),
        "not hydrated");
    assertEquals(List.of(9L, 8L), FeedsHomeScenario.newest(List.of(3L, 9L, 8L), 2));
    assertTrue(FeedsHomeScenario.visibility(3).equals("friends"));
  }
}
