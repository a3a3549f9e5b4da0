package io.kith.platform.bus;

import io.kith.platform.Platform;
import io.kith.platform.metrics.KithMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Which nodes make up the cluster and what each runs, asked over the event bus: every node answers a roll call
 * (published to {@link #ADDRESS}) with its modules, its readiness checks and a few of its meters, sent to the caller's
 * one-off address. The caller knows how many members the cluster has (its {@code cluster} readiness check) and stops
 * as soon as that many answered, or at its deadline with the answers it has, so a stuck node shows as missing rather
 * than holding the call. Nothing is stored: a node that left is simply not in the next answer.
 *
 * <p>The address is not client-facing (the bridges allow none of {@code kith.nodes.*}), and between nodes the event
 * bus is authenticated, so only Kith's own nodes hear and answer the roll call.
 */
public final class NodeRollCall {

  /** Event-bus address of the roll call, published to every node. */
  public static final String ADDRESS = "kith.nodes.roll-call";
  /** How long a node's readiness checks may take for its answer. */
  private static final long CHECK_TIMEOUT_MS = 2_000;

  private NodeRollCall() {
  }

  /**
   * Answers roll calls on {@code platform}'s node, naming {@code modules} (the modules the node runs, read at each
   * call); unregister the consumer to stop.
   */
  public static MessageConsumer<JsonObject> answer(Platform platform, Supplier<List<String>> modules) {
    Vertx vertx = platform.vertx();
    String node = host() + "/" + UUID.randomUUID().toString().substring(0, 8);
    long started = System.currentTimeMillis();
    return vertx.eventBus().<JsonObject>consumer(ADDRESS, msg -> {
      String replyTo = msg.body() == null ? null : msg.body().getString("reply_to");
      if (replyTo == null) {
        return;
      }
      readiness(platform).onComplete(ar -> vertx.eventBus().send(replyTo, new JsonObject()
          .put("node", node)
          .put("host", host())
          .put("pid", ProcessHandle.current().pid())
          .put("started", started)
          .put("clustered", vertx.isClustered())
          .put("modules", new JsonArray(new ArrayList<>(modules.get())))
          .put("checks", ar.result())
          .put("metrics", meters(platform.metrics().registry()))));
    });
  }

  /**
   * Publishes a roll call and collects the answers: complete once {@code expected} nodes answered or
   * {@code deadlineMs} passed, whichever comes first; sorted by node name.
   */
  public static Future<List<JsonObject>> call(Vertx vertx, int expected, long deadlineMs) {
    String replyTo = ADDRESS + "." + UUID.randomUUID();
    List<JsonObject> answers = new ArrayList<>();
    Promise<List<JsonObject>> done = Promise.promise();
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(replyTo, msg -> {
      answers.add(msg.body());
      if (answers.size() >= expected) {
        done.tryComplete(answers);
      }
    });
    long timer = vertx.setTimer(deadlineMs, t -> done.tryComplete(answers));
    consumer.completion()
        .onSuccess(v -> vertx.eventBus().publish(ADDRESS, new JsonObject().put("reply_to", replyTo)))
        .onFailure(done::tryFail);
    return done.future().andThen(ar -> {
      vertx.cancelTimer(timer);
      consumer.unregister();
    }).map(list -> {
      List<JsonObject> sorted = new ArrayList<>(list);
      sorted.sort((a, b) -> a.getString("node", "").compareTo(b.getString("node", "")));
      return sorted;
    });
  }

  /** Each readiness check of the node as {name, ok, reason?, data?}, run at once with a deadline. */
  private static Future<JsonArray> readiness(Platform platform) {
    List<Future<JsonObject>> checks = new ArrayList<>();
    for (Map.Entry<String, Supplier<Future<?>>> check : platform.readinessChecks().entrySet()) {
      Future<?> outcome;
      try {
        outcome = check.getValue().get();
      } catch (RuntimeException e) {
        outcome = Future.failedFuture(e);
      }
      checks.add(outcome.timeout(CHECK_TIMEOUT_MS, TimeUnit.MILLISECONDS).transform(ar -> {
        JsonObject out = new JsonObject().put("name", check.getKey()).put("ok", ar.succeeded());
        if (ar.succeeded() && ar.result() instanceof JsonObject data) {
          out.put("data", data);
        } else if (ar.failed()) {
          String reason = ar.cause().getMessage();
          out.put("reason", reason == null ? ar.cause().getClass().getSimpleName() : reason);
        }
        return Future.succeededFuture(out);
      }));
    }
    return Future.join(checks).transform(ar -> {
      JsonArray out = new JsonArray();
      checks.forEach(c -> out.add(c.result()));
      return Future.succeededFuture(out);
    });
  }

  /**
   * The node's meters an operator reads at a glance: HTTP requests served and the time they took (totals since start:
   * a reader turns two readings into a rate and a mean latency), bridge connections, online users, the event log's
   * lag and pending entries (summed over streams and groups), the fan-out backlog, the outbox.
   */
  static JsonObject meters(MeterRegistry registry) {
    double requests = 0;
    double seconds = 0;
    for (Counter c : registry.find("vertx.http.server.requests").counters()) {
      requests += c.count();
    }
    for (Timer t : registry.find("vertx.http.server.response.time").timers()) {
      seconds += t.totalTime(TimeUnit.SECONDS);
    }
    return new JsonObject()
        .put("http_requests", (long) requests)
        .put("http_time_ms", (long) (seconds * 1000))
        .put("bridge_connections", (long) gauges(registry, KithMetrics.BRIDGE_CONNECTIONS))
        .put("online_users", (long) gauges(registry, KithMetrics.ONLINE_USERS))
        .put("eventlog_lag", (long) gauges(registry, KithMetrics.EVENTLOG_LAG))
        .put("eventlog_pending", (long) gauges(registry, KithMetrics.EVENTLOG_PENDING))
        .put("fanout_backlog", (long) gauges(registry, KithMetrics.FANOUT_BACKLOG))
        .put("outbox_size", (long) gauges(registry, KithMetrics.OUTBOX_SIZE))
        .put("heap_used_bytes", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
  }

  private static double gauges(MeterRegistry registry, String name) {
    double sum = 0;
    for (Gauge g : registry.find(name).gauges()) {
      double v = g.value();
      if (!Double.isNaN(v)) {
        sum += v;
      }
    }
    return sum;
  }

  private static String host() {
    try {
      return InetAddress.getLocalHost().getHostName();
    } catch (UnknownHostException e) {
      return "localhost";
    }
  }
}
