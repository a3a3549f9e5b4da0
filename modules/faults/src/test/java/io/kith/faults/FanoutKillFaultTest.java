package io.kith.faults;

import io.kith.bench.cluster.KithNode;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** kill -9 of a node while the cluster fans posts out to many followers. */
class FanoutKillFaultTest extends FaultTestBase {

  private static final int FOLLOWERS = 200;
  private static final int AUTHORS = 3;
  private static final int POSTS_PER_AUTHOR = 5;

  @Test
  @DisplayName("kill -9 of a node during a fan-out: every follower's home timeline gets every post exactly once")
  void killDuringFanout() throws Exception {
    // one timeline per fan-out script call: the fan-out of 15 posts to 200 followers lasts long enough to be cut
    start("fanout-kill", Map.of("KITH_FEEDS_FANOUT_TIMELINES_PER_CALL", "1"));
    Api api = cluster.api;
    List<KithNode> gateways = cluster.nodes();
    List<Api.User> authors = new ArrayList<>();
    for (int i = 0; i < AUTHORS; i++) {
      authors.add(api.register(gateways.get(i)));
    }
    List<Api.User> followers = inParallel(FOLLOWERS, i -> {
      KithNode node = gateways.get(i % 3);
      Api.User follower = api.register(node);
      for (Api.User author : authors) {
        api.put(node, "/following/" + author.id(), follower).expect(200);
      }
      // a timeline nobody reads is skipped by the fan-out (rebuilt at its next read): these are all being read
      api.get(node, "/timelines/home", follower).expect(200);
      return follower;
    });

    Load load = new Load();
    List<Long> posts = inParallel(AUTHORS * POSTS_PER_AUTHOR, i -> {
      Api.User author = authors.get(i % AUTHORS);
      JsonObject body = new JsonObject().put("text", "post " + i).put("visibility", "public");
      return load.acknowledged(gateways, i, node -> api.post(node, "/posts", author, body)).json().getLong("id");
    });
    KithNode victim = cluster.node(2);
    load.faulted(victim);
    victim.kill();

    List<KithNode> survivors = gateways.subList(0, 2);
    inParallel(FOLLOWERS, i -> {
      awaitHome(api, load, survivors, i, followers.get(i), posts);
      return null;
    });
    load.assertRefusalsAllowed();
  }

  // Polls the follower's home timeline until it holds every post; then each must be there exactly once.
  private static void awaitHome(Api api, Load load, List<KithNode> survivors, int first, Api.User follower,
                               List<Long> posts) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    List<Long> home;
    do {
      home = new ArrayList<>();
      JsonObject page = load.acknowledged(survivors, first,
          node -> api.get(node, "/timelines/home?limit=100", follower)).json();
      for (Object item : page.getJsonArray("items")) {
        home.add(((JsonObject) item).getLong("id"));
      }
      if (home.containsAll(posts) || System.nanoTime() > deadline) {
        break;
      }
      Thread.sleep(1000);
    } while (true);
    List<Long> sorted = home.stream().sorted().toList();
    assertEquals(posts.stream().sorted().toList(), sorted,
        "follower " + follower.id() + "'s home holds each post exactly once");
  }

  /** A task that may throw. */
  interface Task<T> {
    T run(int index) throws Exception;
  }

  // Runs task(0..count-1) on eight threads; returns the results in index order, failing on the first failure.
  static <T> List<T> inParallel(int count, Task<T> task) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<T>> futures = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        int index = i;
        futures.add(pool.submit(() -> task.run(index)));
      }
      List<T> out = new ArrayList<>();
      for (Future<T> f : futures) {
        out.add(f.get(10, TimeUnit.MINUTES)); // only catches a hang: each call has its own deadline
      }
      return out;
    } finally {
      pool.shutdownNow();
    }
  }
}
