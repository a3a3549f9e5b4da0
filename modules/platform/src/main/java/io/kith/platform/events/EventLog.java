package io.kith.platform.events;

import io.kith.platform.id.IdGenerator;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * The durable channel between modules: one Redis stream per domain ({@code events:<domain>}), consumer groups per
 * reacting module.
 *
 * <p>A producer commits its write to MongoDB first, then {@link #append appends} the event. A consumer
 * {@link #consume registers} a handler under a group name; every event reaches one consumer of each group, is
 * acknowledged only after the handler's future succeeds, and is claimed by another consumer of the group when it
 * stays unacknowledged longer than {@code eventlog.claim-after-ms} (its consumer died or its handler failed).
 * Handlers may therefore see an event twice: wrap them with {@link #once} or make them idempotent by event id.
 */
public final class EventLog {

  /** Prefix of stream keys. */
  public static final String STREAM_PREFIX = "events:";
  /** Parked events appended per drain. */
  static final int DRAIN_MAX = 500;
  private static final Logger LOG = LoggerFactory.getLogger(EventLog.class);

  private final Vertx vertx;
  private final Redis redis;
  private final RedisAPI api;
  private final IdGenerator ids;
  private final EventLogOptions options;
  private final EventOutbox outbox;
  // the groups this deployment ran, kept in MongoDB beside the outbox; null without an outbox
  private final ConsumerGroups groups;
  private long drainTimer = -1;
  private boolean draining;
  // the groups consumed on this node by stream, for the lag and pending gauges (EventLogMetrics)
  private final Map<String, Set<String>> consumed = new ConcurrentHashMap<>();
  // the consumers this log started, told when a cluster member leaves (stopped ones are dropped then)
  private final List<EventConsumer> consumers = new CopyOnWriteArrayList<>();

  /** Creates the log over a Redis client, without an outbox (a refused append fails). */
  public EventLog(Vertx vertx, Redis redis, IdGenerator ids, EventLogOptions options) {
    this(vertx, redis, ids, options, null);
  }

  /**
   * Creates the log over a Redis client; with an {@code outbox}, an append that Redis refuses is parked there and
   * appended later (see {@link EventOutbox}), and this log drains it every {@code eventlog.outbox-drain-ms}; the log
   * also remembers its consumer groups in that MongoDB, so that a group Redis lost is created again where no event is
   * skipped (see {@link #consume(String, String, int, Function)}).
   */
  public EventLog(Vertx vertx, Redis redis, IdGenerator ids, EventLogOptions options, EventOutbox outbox) {
    this.vertx = vertx;
    this.redis = redis;
    this.api = RedisAPI.api(redis);
    this.ids = ids;
    this.options = Objects.requireNonNull(options);
    this.outbox = outbox;
    this.groups = outbox == null ? null : new ConsumerGroups(outbox.mongo());
    if (outbox != null) {
      drainTimer = vertx.setPeriodic(options.outboxDrainMillis(), t -> drainOutbox());
    }
  }

  /**
   * Appends parked events (at most {@value #DRAIN_MAX} per call; one drain at a time per log). Answers how many went;
   * 0 without an outbox.
   */
  public Future<Integer> drainOutbox() {
    if (outbox == null || draining) {
      return Future.succeededFuture(0);
    }
    draining = true;
    return outbox.drain(DRAIN_MAX, event -> redis.send(xadd(event)))
        .onFailure(e -> LOG.warn("Cannot drain the event outbox: {}", e.getMessage()))
        .onComplete(ar -> draining = false);
  }

  /**
   * A cluster member left: every running consumer of this node claims the entries the departed node's consumers
   * held, without waiting for the claim timeout (see {@link EventConsumer#memberLeft}).
   */
  public void memberLeft() {
    consumers.removeIf(EventConsumer::stopped);
    consumers.forEach(EventConsumer::memberLeft);
  }

  /** Stops draining the outbox (the platform is closing). */
  public void close() {
    if (drainTimer >= 0) {
      vertx.cancelTimer(drainTimer);
      drainTimer = -1;
    }
  }

  /** The groups consumed on this node, by stream key. */
  Map<String, Set<String>> consumedGroups() {
    return consumed;
  }

  /** The Redis command API this log uses. */
  RedisAPI api() {
    return api;
  }

  /** The outbox, or null. */
  EventOutbox outbox() {
    return outbox;
  }

  /** The stream key of {@code domain}. */
  public static String stream(String domain) {
    return STREAM_PREFIX + domain;
  }

  /** The publisher of {@code domain}'s typed events (the way producers append). */
  public EventPublisher publisher(String domain) {
    checkName(domain, "domain");
    return new EventPublisher(this, domain);
  }

  /**
   * Appends an event to {@code domain}'s stream.
   *
   * @return the event as appended (with its id and time)
   */
  public Future<DomainEvent> append(String domain, String type, JsonObject payload) {
    checkName(domain, "domain");
    checkName(type, "type");
    return appendAll(domain, type, List.of(payload)).map(events -> events.get(0));
  }

  /**
   * Appends one event of {@code type} per payload to {@code domain}'s stream, in order, pipelined (one round trip
   * for all, as many entries as a loop of {@link #append} would write). Fails as a whole when Redis refuses any of
   * them; entries written before the refusal stay.
   *
   * @return the events as appended
   */
  public Future<List<DomainEvent>> appendAll(String domain, String type, List<JsonObject> payloads) {
    checkName(domain, "domain");
    checkName(type, "type");
    if (payloads.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    // a node that stalled longer than its id lease renews it before drawing ids instead of dropping the events
    return ids.leased().compose(v -> {
      List<DomainEvent> events = new ArrayList<>(payloads.size());
      List<Request> xadds = new ArrayList<>(payloads.size());
      try {
        for (JsonObject payload : payloads) {
          DomainEvent event = new DomainEvent(ids.next(), domain, type, System.currentTimeMillis(), payload.copy());
          events.add(event);
          xadds.add(xadd(event));
        }
      } catch (IllegalStateException e) {
        return Future.failedFuture(e);
      }
      if (xadds.size() == 1) {
        return redis.send(xadds.get(0)).map(r -> events).recover(e -> parked(events, e).map(x -> events));
      }
      // a refusal part way leaves the entries before it in the stream: parked too, they are appended twice, which
      // consumers tolerate (idempotent by event id)
      return redis.batch(xadds).map(r -> events).recover(e -> parked(events, e).map(x -> events));
    });
  }

  /** Parks events Redis refused; fails with the refusal when there is no outbox or it refuses too. */
  private Future<Void> parked(List<DomainEvent> events, Throwable refusal) {
    if (outbox == null) {
      return Future.failedFuture(refusal);
    }
    List<Future<Void>> parks = new ArrayList<>();
    events.forEach(event -> parks.add(outbox.park(event)));
    return Future.all(parks).<Void>mapEmpty()
        .onSuccess(v -> LOG.warn("Redis refused {} event(s) of {} ({}): parked in the outbox",
            events.size(), events.get(0).domain(), refusal.getMessage()))
        .recover(e -> {
          LOG.error("Events of {} are lost: Redis refused them ({}) and the outbox too ({})", events.get(0).domain(),
              refusal.getMessage(), e.getMessage());
          return Future.failedFuture(refusal);
        });
  }

  private Request xadd(DomainEvent event) {
    return Request.cmd(Command.XADD).arg(stream(event.domain()))
        .arg("MAXLEN").arg("~").arg(options.maxLength())
        .arg("*")
        .arg("id").arg(event.id())
        .arg("type").arg(event.type())
        .arg("time").arg(event.time())
        .arg("payload").arg(event.payload().encode());
  }

  /**
   * Starts a consumer of {@code domain}'s stream in consumer group {@code group}. Events are handled one at a time,
   * in stream order for this consumer.
   *
   * <p>A group missing in Redis is created: at the stream's end (reading events appended from then on) when it is new
   * to the deployment, at the stream's start when it ran before and Redis lost it, so that the events appended while
   * no consumer of the group ran are handled. Without an outbox (no MongoDB to remember groups in) a missing group
   * always starts at the end. A group that vanishes while its consumers run is created again at the start by them
   * (see {@link EventConsumer}).
   */
  public Future<EventConsumer> consume(String domain, String group, Function<DomainEvent, Future<?>> handler) {
    return consume(domain, group, 1, handler);
  }

  /**
   * Starts a consumer that handles up to {@code concurrency} events at a time, in no particular order: for handlers
   * whose events are independent of one another (idempotent set adds, for instance). It takes from the stream only as
   * many events as it has free places, so the other consumers of the group get the rest. With {@code concurrency} 1
   * it is {@link #consume(String, String, Function)}.
   */
  public Future<EventConsumer> consume(String domain, String group, int concurrency,
                                       Function<DomainEvent, Future<?>> handler) {
    checkName(domain, "domain");
    checkName(group, "group");
    String stream = stream(domain);
    consumed.computeIfAbsent(stream, s -> ConcurrentHashMap.newKeySet()).add(group);
    EventConsumer consumer = new EventConsumer(vertx, redis, api, stream, domain, group,
        group + "-" + ids.next(), handler, options, concurrency);
    if (groups == null) {
      return consumer.start("$").map(v -> started(consumer));
    }
    return groups.known(stream, group)
        .compose(known -> consumer.start(known ? "0" : "$"))
        .compose(v -> groups.remember(stream, group)
            .recover(e -> consumer.stop().transform(x -> Future.failedFuture(e))))
        .map(v -> started(consumer));
  }

  private EventConsumer started(EventConsumer consumer) {
    consumers.add(consumer);
    return consumer;
  }

  /**
   * Wraps {@code handler} with a processed-id guard for {@code group}: an event already handled successfully is
   * skipped. Guards are kept for {@link EventLogOptions#processedTtlSeconds()}. The guard is written after the handler
   * succeeds, so a crash in between re-runs the handler; keep the handler's writes idempotent (upserts, set adds).
   */
  public Function<DomainEvent, Future<?>> once(String group, Function<DomainEvent, Future<?>> handler) {
    return event -> {
      String key = "events:done:{" + group + "}:" + event.id();
      return api.exists(List.of(key)).compose(r -> {
        if (r.toInteger() > 0) {
          return Future.succeededFuture();
        }
        return handler.apply(event)
            .compose(x -> api.set(List.of(key, "1", "EX", Long.toString(options.processedTtlSeconds()))));
      });
    };
  }

  private static void checkName(String name, String what) {
    if (name == null || !name.matches("[A-Za-z][A-Za-z0-9_.-]{0,63}")) {
      throw new IllegalArgumentException("invalid event " + what + ": " + name);
    }
  }
}
