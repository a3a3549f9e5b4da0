package io.kith.platform.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.DoubleSupplier;

/**
 * Kith's own meters on a node's registry (the one {@code /metrics} publishes, beside Vert.x's): their names, and the
 * way modules make them. Names are Micrometer's dotted form; Prometheus shows {@code kith.logins} as
 * {@code kith_logins_total}, a timer {@code kith.store} as {@code kith_store_seconds_*}. The gateway README lists
 * them all.
 */
public final class KithMetrics {

  /** Counter: successful logins (password logins that issued tokens). */
  public static final String LOGINS = "kith.logins";
  /** Counter: refused logins (wrong username or password, throttled). */
  public static final String LOGINS_FAILED = "kith.logins.failed";
  /** Counter: chat messages stored (retries of a stored client id not counted). */
  public static final String MESSAGES_SENT = "kith.messages.sent";
  /** Counter: posts published. */
  public static final String POSTS_PUBLISHED = "kith.posts.published";
  /** Counter, tag {@code result} (hit, miss): post documents reads looked up in the Redis post cache. */
  public static final String POST_COPIES = "kith.feeds.post.copies";
  /** Gauge: bridge connections open on this node (SockJS and TCP). */
  public static final String BRIDGE_CONNECTIONS = "kith.bridge.connections";
  /** Gauge: distinct users with a bridge connection on this node. */
  public static final String ONLINE_USERS = "kith.online.users";
  /** Timer, tags {@code store} (redis, mongo) and {@code operation} (command or driver method). */
  public static final String STORE = "kith.store";
  /** Gauge, tags {@code stream} and {@code group}: entries of the stream not yet delivered to the group. */
  public static final String EVENTLOG_LAG = "kith.eventlog.lag";
  /** Gauge, tags {@code stream} and {@code group}: entries delivered to the group and not yet acknowledged. */
  public static final String EVENTLOG_PENDING = "kith.eventlog.pending";
  /** Gauge: posts waiting for fan-out (lag plus pending of the feeds stream's fan-out group). */
  public static final String FANOUT_BACKLOG = "kith.fanout.backlog";
  /** Gauge: events parked in MongoDB because Redis refused their append. */
  public static final String OUTBOX_SIZE = "kith.outbox.size";

  private final MeterRegistry registry;
  private final Map<String, List<DoubleSupplier>> sums = new ConcurrentHashMap<>();

  /** Meters on {@code registry}. */
  public KithMetrics(MeterRegistry registry) {
    this.registry = registry;
  }

  /** Meters that nothing publishes (a platform built without a metrics registry, as in most tests). */
  public static KithMetrics unpublished() {
    return new KithMetrics(new SimpleMeterRegistry());
  }

  /** The registry. */
  public MeterRegistry registry() {
    return registry;
  }

  /** The counter {@code name} (made on first use). */
  public Counter counter(String name, String description) {
    return Counter.builder(name).description(description).register(registry);
  }

  /** The latency timer of {@code operation} on {@code store}. */
  public Timer storeTimer(String store, String operation) {
    return Timer.builder(STORE).description("Store operation latency").tag("store", store)
        .tag("operation", operation).register(registry);
  }

  /**
   * Registers the gauge {@code name} reading {@code value}, once per node: a value that is the same whoever reads it
   * (a consumer group's backlog in Redis), so a second registration (another verticle instance) keeps the first.
   */
  public void gauge(String name, String description, DoubleSupplier value) {
    Gauge.builder(name, value, DoubleSupplier::getAsDouble).description(description).register(registry);
  }

  /**
   * Adds {@code part} to the gauge {@code name}, which publishes the sum of its parts (the gateway's verticle
   * instances each hold some of a node's bridge connections). Run the answer to take the part out again.
   */
  public Runnable addToGauge(String name, String description, DoubleSupplier part) {
    List<DoubleSupplier> parts = sums.computeIfAbsent(name, n -> {
      List<DoubleSupplier> created = new CopyOnWriteArrayList<>();
      Gauge.builder(n, created, l -> l.stream().mapToDouble(DoubleSupplier::getAsDouble).sum())
          .description(description).register(registry);
      return created;
    });
    parts.add(part);
    return () -> parts.remove(part);
  }
}
