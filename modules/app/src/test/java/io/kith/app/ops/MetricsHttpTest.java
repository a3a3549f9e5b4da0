package io.kith.app.ops;

import io.kith.app.support.BridgeSocket;
import io.kith.app.support.Reply;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code /metrics} through HTTP: bounded whatever paths, ids and statuses clients cause, and carrying Kith's own
 * meters (see the gateway README's metrics table).
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("/metrics: bounded series and Kith's own meters")
class MetricsHttpTest {

  /**
   * Series a node may publish after the traffic below: about 750 today, room for every store operation Kith uses;
   * percentile histograms made 5,500 here.
   */
  static final int MAX_SERIES = 2_500;
  /** Bytes of such a scrape: about 72 KB today (4.5 MB in production before the bounds). */
  static final int MAX_BYTES = 400_000;

  private TestKith kith;

  /** A node of every module, reading the event log's gauges every second. */
  private static final class MetricsKith extends TestKith {
    MetricsKith() {
      super(config("all").put("metrics", new JsonObject().put("poll-seconds", 1)), "mx");
    }
  }

  @BeforeAll
  void start() {
    kith = new MetricsKith();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  /** The scrape, as text. */
  String scrape() {
    Reply reply = kith.call(HttpMethod.GET, "/metrics", null, null);
    assertEquals(200, reply.status());
    return reply.text();
  }

  /** Each series line of a scrape by its name and labels, with its value. */
  static Map<String, Double> series(String scrape) {
    Map<String, Double> out = new TreeMap<>();
    for (String line : scrape.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      out.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
    }
    return out;
  }

  /** The metric names of a scrape. */
  static Set<String> names(String scrape) {
    Set<String> names = new TreeSet<>();
    series(scrape).keySet().forEach(s -> names.add(s.contains("{") ? s.substring(0, s.indexOf('{')) : s));
    return names;
  }

  /** The sum of every series of {@code name} whose labels contain each of {@code labels} (0 when none). */
  static double value(String scrape, String name, String... labels) {
    double sum = 0;
    for (Map.Entry<String, Double> s : series(scrape).entrySet()) {
      String key = s.getKey();
      String bare = key.contains("{") ? key.substring(0, key.indexOf('{')) : key;
      boolean all = bare.equals(name);
      for (String label : labels) {
        all &= key.contains(label);
      }
      if (all) {
        sum += s.getValue();
      }
    }
    return sum;
  }

  /** Requests on many distinct paths, ids, methods and statuses, sent 25 at a time. */
  private void driveDistinctRequests(User user, int rounds) {
    for (int r = 0; r < rounds; r++) {
      List<Future<Reply>> batch = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        long id = ThreadLocalRandom.current().nextLong(1, 1L << 50);
        String token = UUID.randomUUID().toString();
        batch.add(kith.send(HttpMethod.GET, TestKith.API + "/posts/" + id, user.access(), null));
        batch.add(kith.send(HttpMethod.GET, "/no-such-page/" + token, null, null));
        batch.add(kith.send(HttpMethod.DELETE, TestKith.API + "/no/such/" + token, user.access(), null));
        batch.add(kith.send(HttpMethod.GET, TestKith.API + "/users/" + id + "/followers", null, null));
        batch.add(kith.send(HttpMethod.POST, TestKith.API + "/posts", user.access(),
            new JsonObject().put("visibility", "x" + token)));
      }
      Await.result(Future.all(batch));
    }
  }

  @Test
  @DisplayName("requests on many distinct paths, ids and statuses keep /metrics under a fixed number of series and "
      + "bytes, with routes by template (refused ones too) and no raw path or id in it; more such requests add no "
      + "series")
  void boundedScrape() {
    User user = kith.register();
    driveDistinctRequests(user, 8);
    String first = scrape();
    Map<String, Double> firstSeries = series(first);
    assertTrue(firstSeries.size() < MAX_SERIES, "series: " + firstSeries.size());
    assertTrue(first.length() < MAX_BYTES, "bytes: " + first.length());
    assertFalse(first.contains("no-such-page"), "a raw path is a label value");
    assertFalse(first.contains("quantile="), "percentiles are published");
    assertTrue(first.contains("route=\"unmatched\""), "requests no route matched have one route value");
    // refused by authentication before the router reached the operation's route, still counted under that route
    assertTrue(value(first, "vertx_http_server_requests_total", "code=\"401\"",
        "route=\"/api/v1/users/:userId/followers\"") >= 40, "401s by route");

    driveDistinctRequests(user, 8);
    Set<String> grown = new TreeSet<>(series(scrape()).keySet());
    grown.removeAll(firstSeries.keySet());
    grown.removeIf(s -> s.startsWith("kith_eventlog_") || s.startsWith("jvm_") || s.startsWith("vertx_pool_"));
    assertEquals(Set.of(), grown, "series added by more requests of the same kinds");
  }

  @Test
  @DisplayName("timers publish the fixed SLO buckets only: every HTTP response-time series has the same 12 le values")
  void fixedBuckets() {
    kith.call(HttpMethod.GET, TestKith.API + "/ping", null, null);
    Set<String> les = new TreeSet<>();
    series(scrape()).keySet().stream()
        .filter(s -> s.startsWith("vertx_http_server_response_time_seconds_bucket{"))
        .forEach(s -> les.add(s.replaceAll(".*le=\"([^\"]+)\".*", "$1")));
    assertEquals(Set.of("0.005", "0.01", "0.025", "0.05", "0.1", "0.25", "0.5", "1.0", "2.5", "5.0", "10.0", "+Inf"),
        les);
  }

  @Test
  @DisplayName("logins, refused logins, posts and messages are counted; store latency is timed per store and "
      + "operation")
  void counters() {
    String password = "Sunny-metrics-" + UUID.randomUUID() + "!";
    String username = TestKith.unique("mx");
    kith.post("/accounts", null, new JsonObject().put("username", username).put("password", password)).expect(201);
    User alice = kith.register();
    User bob = kith.register();
    String before = scrape();

    kith.post("/auth/login", null, new JsonObject().put("login", username).put("password", password)).expect(200);
    kith.post("/auth/login", null, new JsonObject().put("login", username).put("password", "wrong-" + password))
        .problem(401, "invalid_credentials");
    kith.publish(alice, "counted");
    kith.post("/direct/" + bob.path() + "/messages", alice, new JsonObject().put("client_id", "m-1")
        .put("text", "counted")).expect(201);
    // a retry of a stored message is not a message sent
    kith.post("/direct/" + bob.path() + "/messages", alice, new JsonObject().put("client_id", "m-1")
        .put("text", "counted")).expect(200);

    String after = scrape();
    assertEquals(1, value(after, "kith_logins_total") - value(before, "kith_logins_total"));
    assertEquals(1, value(after, "kith_logins_failed_total") - value(before, "kith_logins_failed_total"));
    assertEquals(1, value(after, "kith_posts_published_total") - value(before, "kith_posts_published_total"));
    assertEquals(1, value(after, "kith_messages_sent_total") - value(before, "kith_messages_sent_total"));
    assertTrue(value(after, "kith_store_seconds_count", "store=\"redis\"", "operation=\"evalsha\"") > 0, after);
    assertTrue(value(after, "kith_store_seconds_count", "store=\"mongo\"", "operation=\"insert\"") > 0, after);
  }

  @Test
  @DisplayName("open bridge connections and online users follow a socket opening and closing")
  void bridgeGauges() {
    User carol = kith.register();
    double connections = value(scrape(), "kith_bridge_connections");
    BridgeSocket socket = kith.bridge(carol);
    try {
      awaitValue("kith_bridge_connections", v -> v == connections + 1);
      assertTrue(value(scrape(), "kith_online_users") >= 1);
    } finally {
      socket.close();
    }
    awaitValue("kith_bridge_connections", v -> v == connections);
  }

  @Test
  @DisplayName("event-log lag and pending per stream and group, the fan-out backlog and the outbox size are published")
  void eventLogGauges() {
    kith.publish(kith.register(), "fanned out");
    Await.result(Poll.until(kith.client(), TestKith.WAIT, "the event log gauges", () -> {
      String s = scrape();
      return Future.succeededFuture(s.contains("kith_eventlog_pending{group=\"feeds-fanout\",stream=\"events:feeds\"}")
          && s.contains("kith_eventlog_lag{group=\"feeds-fanout\",stream=\"events:feeds\"}")
          && names(s).containsAll(Set.of("kith_fanout_backlog", "kith_outbox_size")));
    }));
  }

  @Test
  @DisplayName("deploy/grafana/kith.json is valid JSON whose every panel queries metrics a node publishes, and it "
      + "shows every kith_ metric")
  void dashboardUsesPublishedMetrics() throws IOException {
    JsonObject dashboard = new JsonObject(Files.readString(Path.of("..", "..", "deploy", "grafana", "kith.json")));
    // every meter exists once its first use happened: a login, a refused one, a post, a message, a bridge connection
    counters();
    kith.publish(kith.register(), "dashboard");
    eventLogGauges();
    String published = scrape();
    Set<String> names = names(published);
    Set<String> queried = new TreeSet<>();
    Pattern metric = Pattern.compile("\\b(?:kith|vertx|jvm|process)_[a-z0-9_]+\\b");
    for (Object p : dashboard.getJsonArray("panels")) {
      JsonObject panel = (JsonObject) p;
      Set<String> ofPanel = new TreeSet<>();
      for (Object t : panel.getJsonArray("targets")) {
        Matcher m = metric.matcher(((JsonObject) t).getString("expr"));
        while (m.find()) {
          ofPanel.add(m.group());
        }
      }
      assertFalse(ofPanel.isEmpty(), "panel '" + panel.getString("title") + "' queries no Kith metric");
      queried.addAll(ofPanel);
    }
    Set<String> unknown = new TreeSet<>(queried);
    unknown.removeAll(names);
    assertEquals(Set.of(), unknown, "queried but not published");
    Set<String> kithMetrics = new TreeSet<>(names);
    kithMetrics.removeIf(n -> !n.startsWith("kith_") || n.endsWith("_max") || n.endsWith("_sum"));
    kithMetrics.removeIf(n -> queried.contains(n) || queried.contains(n.replaceAll("_count$", "_bucket")));
    assertEquals(Set.of(), kithMetrics, "published but not on the dashboard");
  }

  private void awaitValue(String name, java.util.function.DoublePredicate wanted) {
    Await.result(Poll.until(kith.client(), TestKith.WAIT, name,
        () -> Future.succeededFuture(wanted.test(value(scrape(), name)))));
  }
}
