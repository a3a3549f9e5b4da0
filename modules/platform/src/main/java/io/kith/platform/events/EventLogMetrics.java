package io.kith.platform.events;

import io.kith.platform.metrics.KithMetrics;
import io.micrometer.core.instrument.Gauge;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The event log's gauges, read every {@code metrics.poll-seconds} rather than per scrape (a scrape must not wait on
 * Redis, and Prometheus may scrape often): {@value KithMetrics#EVENTLOG_LAG} and
 * {@value KithMetrics#EVENTLOG_PENDING} of each group consumed on this node (from {@code XINFO GROUPS}, one call per
 * stream), and {@value KithMetrics#OUTBOX_SIZE} (a count of the outbox collection). One poll runs at a time.
 *
 * <p>Redis 7 reports a group's lag; an older Redis (the embedded 6.2) does not, and the lag is then counted from the
 * group's last delivered entry up to {@value #COUNTED_LAG_CAP} entries, which is enough to tell a consumer that
 * keeps up from one that does not.
 */
public final class EventLogMetrics {

  /** Most entries counted for a group's lag on a Redis that does not report it. */
  static final int COUNTED_LAG_CAP = 1_000;
  private static final Logger LOG = LoggerFactory.getLogger(EventLogMetrics.class);

  private final Vertx vertx;
  private final EventLog log;
  private final KithMetrics metrics;
  private final Map<String, AtomicLong> lags = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> pendings = new ConcurrentHashMap<>();
  private final AtomicLong outboxSize = new AtomicLong();
  private long timer = -1;
  private boolean polling;
  private boolean warned;

  /** Gauges of {@code log} on {@code metrics}, polled every {@code everyMillis} from now on. */
  public EventLogMetrics(Vertx vertx, EventLog log, KithMetrics metrics, long everyMillis) {
    this.vertx = vertx;
    this.log = log;
    this.metrics = metrics;
    Gauge.builder(KithMetrics.OUTBOX_SIZE, outboxSize, AtomicLong::get)
        .description("Events parked in MongoDB because Redis refused their append").register(metrics.registry());
    this.timer = vertx.setPeriodic(everyMillis, everyMillis, t -> poll());
  }

  /** Stops polling. */
  public void close() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
  }

  /** Lag plus pending of {@code group} on {@code domain}'s stream at the last poll (0 before the first). */
  public long backlog(String domain, String group) {
    String key = EventLog.stream(domain) + "/" + group;
    AtomicLong lag = lags.get(key);
    AtomicLong pending = pendings.get(key);
    return (lag == null ? 0 : lag.get()) + (pending == null ? 0 : pending.get());
  }

  /** Reads every gauge once (skipped while the previous poll runs). */
  public Future<Void> poll() {
    if (polling) {
      return Future.succeededFuture();
    }
    polling = true;
    List<Future<?>> reads = new ArrayList<>();
    log.consumedGroups().forEach((stream, groups) -> reads.add(pollStream(stream, groups)));
    if (log.outbox() != null) {
      reads.add(log.outbox().size().onSuccess(outboxSize::set));
    }
    return Future.join(reads).<Void>mapEmpty()
        .onFailure(e -> {
          // a store outage shows on the store meters and /ready; one line is enough here
          if (!warned) {
            warned = true;
            LOG.warn("Cannot read the event log's gauges: {}", e.getMessage());
          }
        })
        .onComplete(ar -> polling = false);
  }

  private Future<Void> pollStream(String stream, Set<String> groups) {
    return log.api().xinfo(List.of("GROUPS", stream)).compose(reply -> {
      List<Future<?>> counted = new ArrayList<>();
      for (Response group : reply) {
        Map<String, Response> fields = fields(group);
        String name = String.valueOf(fields.get("name"));
        if (!groups.contains(name)) {
          continue;
        }
        String key = stream + "/" + name;
        gauge(pendings, KithMetrics.EVENTLOG_PENDING, "Entries delivered to the group and not yet acknowledged",
            stream, name).set(fields.get("pending").toLong());
        AtomicLong lag = gauge(lags, KithMetrics.EVENTLOG_LAG, "Entries of the stream not yet delivered to the group",
            stream, name);
        Response reported = fields.get("lag");
        if (reported != null) {
          lag.set(reported.toLong());
        } else {
          // a Redis before 7 (or a lag Redis cannot tell): count what follows the last delivered entry, bounded
          counted.add(log.api().xrange(List.of(stream, "(" + fields.get("last-delivered-id"), "+", "COUNT",
              Integer.toString(COUNTED_LAG_CAP))).onSuccess(r -> lags.get(key).set(r.size())));
        }
      }
      return Future.join(counted).mapEmpty();
    }, e -> Future.succeededFuture()).mapEmpty();
  }

  private AtomicLong gauge(Map<String, AtomicLong> holders, String name, String description, String stream,
                           String group) {
    return holders.computeIfAbsent(stream + "/" + group, k -> {
      AtomicLong holder = new AtomicLong();
      Gauge.builder(name, holder, AtomicLong::get).description(description).tag("stream", stream).tag("group", group)
          .register(metrics.registry());
      return holder;
    });
  }

  private static Map<String, Response> fields(Response pairs) {
    Map<String, Response> fields = new java.util.HashMap<>();
    for (int i = 0; i + 1 < pairs.size(); i += 2) {
      fields.put(pairs.get(i).toString(), pairs.get(i + 1));
    }
    return fields;
  }
}
