package io.kith.platform.events;

import io.kith.platform.id.IdGenerator;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Request;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
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

  private final Vertx vertx;
  private final Redis redis;
  private final RedisAPI api;
  private final IdGenerator ids;
  private final EventLogOptions options;

  /** Creates the log over a Redis client. */
  public EventLog(Vertx vertx, Redis redis, IdGenerator ids, EventLogOptions options) {
    this.vertx = vertx;
    this.redis = redis;
    this.api = RedisAPI.api(redis);
    this.ids = ids;
    this.options = Objects.requireNonNull(options);
  }

  /** The stream key of {@code domain}. */
  public static String stream(String domain) {
    return STREAM_PREFIX + domain;
  }

  /**
   * Appends an event to {@code domain}'s stream.
   *
   * @return the event as appended (with its id and time)
   */
  public Future<DomainEvent> append(String domain, String type, JsonObject payload) {
    checkName(domain, "domain");
    checkName(type, "type");
    long id;
    try {
      id = ids.next();
    } catch (IllegalStateException e) {
      return Future.failedFuture(e);
    }
    DomainEvent event = new DomainEvent(id, domain, type, System.currentTimeMillis(), payload.copy());
    return redis.send(xadd(event)).map(r -> event);
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
    return redis.batch(xadds).map(r -> events);
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
   * Starts a consumer of {@code domain}'s stream in consumer group {@code group} (created on first use, reading
   * events appended from then on). Events are handled one at a time, in stream order for this consumer.
   */
  public Future<EventConsumer> consume(String domain, String group, Function<DomainEvent, Future<?>> handler) {
    checkName(domain, "domain");
    checkName(group, "group");
    EventConsumer consumer = new EventConsumer(vertx, redis, api, stream(domain), domain, group,
        group + "-" + ids.next(), handler, options);
    return consumer.start().map(v -> consumer);
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
