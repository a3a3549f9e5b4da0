package io.kith.platform.events;

import io.kith.platform.error.BurstLog;
import io.kith.platform.store.StoreFailures;
import io.kith.platform.store.GuardedRedis;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * One consumer of a domain stream within a consumer group; see {@link EventLog#consume}.
 *
 * <p>It reads new entries on a connection of its own (the read blocks), handles them one by one and acknowledges each
 * after its handler succeeds. A consumer started with a concurrency above one instead keeps up to that many handlers
 * running: it reads only as many entries as it has free places, and reads again as soon as one frees, so that the
 * events of a busy moment are shared by the consumers of the group instead of being taken by one of them. A timer
 * looks for entries of the group left pending longer than the claim timeout by any consumer (including this one,
 * when a handler failed) and claims them; entries delivered more than {@link EventLogOptions#maxDeliveries()} times
 * go to the dead-letter stream {@code events:<domain>:dead:<group>} so that one poisoned event cannot block the group
 * forever.
 *
 * <p>A group lives inside its stream in Redis, so it vanishes when Redis loses its data (FLUSHALL, a restart without
 * persistence) or when someone destroys it. A read or claim answered {@code NOGROUP} (or, for a read blocked on a
 * stream that was deleted, {@code UNBLOCKED}) makes the consumer create the group again at the stream's start (id 0,
 * creating the stream if it is gone) and carry on: entries appended since the loss are all handled, none skipped,
 * and entries that were still in the stream are read again and skipped by the processed-id guard
 * ({@link EventLog#once}). Entries pending in the lost group (read, not yet acknowledged) are forgotten with it: after
 * a flush they are gone from the stream too; after a destroyed group they are read again from the start.
 */
public final class EventConsumer {

  private static final Logger LOG = LoggerFactory.getLogger(EventConsumer.class);
  /** Read failures (Redis unreachable) are retried every second; a line per stream and group a minute is enough. */
  private static final BurstLog RETRIES = new BurstLog(LOG, 60_000);

  private final Vertx vertx;
  private final Redis redis;
  private final RedisAPI api;
  private final String stream;
  private final String domain;
  private final String group;
  private final String name;
  private final Function<DomainEvent, Future<?>> handler;
  private final EventLogOptions options;
  private final int concurrency;
  // concurrent mode: handlers running, changed on the consumer's context only
  private int running;
  private Context context;

  private RedisConnection reader;
  // CLIENT ID of the reader's connection, to unblock its read when stopping, and the client of its server
  private volatile String readerId;
  private volatile Redis readerNode;
  // an XREADGROUP is outstanding on the reader
  private volatile boolean reading;
  private long claimTimer = -1;
  private boolean claiming;
  private volatile boolean stopped;
  private Future<Void> loopDone = Future.succeededFuture();
  // the group was found missing and not read from since: one log line per loss, not one per failed command
  private final AtomicBoolean groupLost = new AtomicBoolean();

  EventConsumer(Vertx vertx, Redis redis, RedisAPI api, String stream, String domain, String group, String name,
                Function<DomainEvent, Future<?>> handler, EventLogOptions options, int concurrency) {
    this.vertx = vertx;
    this.redis = redis;
    this.api = api;
    this.stream = stream;
    this.domain = domain;
    this.group = group;
    this.name = name;
    this.handler = handler;
    this.options = options;
    this.concurrency = Math.max(1, concurrency);
  }

  /** This consumer's name within its group. */
  public String name() {
    return name;
  }

  /** Creates the group at {@code from} if it is missing, then starts reading and claiming. */
  Future<Void> start(String from) {
    return createGroup(from)
        .compose(v -> openReader())
        .map(v -> {
          long every = Math.max(100, options.claimAfterMillis() / 2);
          claimTimer = vertx.setPeriodic(every, every, id -> claim());
          Promise<Void> done = Promise.promise();
          loopDone = done.future();
          context = vertx.getOrCreateContext();
          loop(done);
          return null;
        });
  }

  // On a Redis Cluster the reader is a connection to the stream's master alone, so that CLIENT ID and CLIENT UNBLOCK
  // (commands without keys, which a cluster client sends to any node) reach the node where the read blocks; after a
  // failover the read fails and the reconnect finds the new master.
  private Future<Void> openReader() {
    Future<Redis> node = redis instanceof GuardedRedis guarded ? guarded.nodeOf(stream) : Future.succeededFuture(redis);
    return node.compose(client -> client.connect().compose(conn -> conn.send(Request.cmd(Command.CLIENT).arg("ID"))
        .<Void>map(id -> {
          reader = conn;
          readerNode = client;
          readerId = id.toString();
          return null;
        })
        .onFailure(e -> conn.close())));
  }

  /** Creates the group at entry id {@code from} (and the stream if it is missing); an existing group is kept. */
  private Future<Void> createGroup(String from) {
    return api.xgroup(List.of("CREATE", stream, group, from, "MKSTREAM")).<Void>mapEmpty()
        .recover(e -> "BUSYGROUP".equals(StoreFailures.redisErrorCode(e)) ? Future.succeededFuture()
            : Future.failedFuture(e));
  }

  // NOGROUP answers a read, pending list or claim of a group that is gone; UNBLOCKED ends a read that was blocked on
  // a stream that was deleted (Redis 7; 6.2 answers NOGROUP once the stream is written again)
  private static boolean isGroupGone(Throwable e) {
    String code = StoreFailures.redisErrorCode(e);
    return "NOGROUP".equals(code) || "UNBLOCKED".equals(code);
  }

  /**
   * Creates the vanished group again at the stream's start, so that no entry appended since the loss is skipped
   * ({@code $} would skip them); logs the loss once, however many commands of this consumer ran into it.
   */
  private Future<Void> recreateGroup() {
    if (groupLost.compareAndSet(false, true)) {
      LOG.warn("Consumer group {} of {} is gone (Redis lost its data, or the group was destroyed): creating it again "
          + "at the stream's start; entries still in the stream are read again and skipped if already handled", group,
          stream);
    }
    return createGroup("0");
  }

  /** After a failed read: the group is created again if it vanished, else the read is retried on a new connection. */
  private void readFailed(Throwable cause, Promise<Void> done) {
    if (isGroupGone(cause)) {
      // a group lost again before any read succeeded (destroyed over and over) is recreated once a second, no faster
      boolean again = groupLost.get();
      recreateGroup().onComplete(ar -> {
        if (ar.succeeded() && again) {
          vertx.setTimer(1000, t -> loop(done));
        } else if (ar.succeeded()) {
          loop(done);
        } else {
          retryLater(ar.cause(), done);
        }
      });
    } else {
      retryLater(cause, done);
    }
  }

  private void retryLater(Throwable cause, Promise<Void> done) {
    RETRIES.warn(stream + "/" + group, "Reading {} as {}/{} failed, retrying every second: {}", stream, group, name,
        cause.getMessage());
    vertx.setTimer(1000, t -> reconnect(done));
  }

  /** A read answered: the group exists, so a later loss is a new incident worth a line. */
  private Response readSucceeded(Response r) {
    groupLost.set(false);
    return r;
  }

  private void loop(Promise<Void> done) {
    if (concurrency == 1) {
      read(done);
    } else {
      context.runOnContext(v -> readSome(done));
    }
  }

  /**
   * Concurrent mode, on the consumer's context: reads as many entries as there are free places (blocking until some
   * arrive), starts a handler for each, and reads again while places are free; a finishing handler reads again when
   * no read is outstanding.
   */
  private void readSome(Promise<Void> done) {
    if (reading) {
      return;
    }
    if (stopped) {
      if (running == 0) {
        done.tryComplete();
      }
      return;
    }
    int free = concurrency - running;
    if (free <= 0) {
      return;
    }
    // set before checking stopped, which stop() sets before checking reading: one of the two sees the other
    reading = true;
    if (stopped) {
      reading = false;
      readSome(done);
      return;
    }
    Request xread = Request.cmd(Command.XREADGROUP).arg("GROUP").arg(group).arg(name)
        .arg("COUNT").arg(Math.min(free, options.batchSize()))
        .arg("BLOCK").arg(options.blockMillis())
        .arg("STREAMS").arg(stream).arg(">");
    reader.send(xread).map(this::readSucceeded).onComplete(ar -> context.runOnContext(v -> {
      reading = false;
      if (ar.failed()) {
        if (!stopped) {
          readFailed(ar.cause(), done);
        } else {
          readSome(done);
        }
        return;
      }
      for (Entry entry : entriesOfRead(ar.result())) {
        running++;
        handleOne(entry).onComplete(x -> context.runOnContext(w -> {
          running--;
          readSome(done);
        }));
      }
      readSome(done);
    }));
  }

  private void read(Promise<Void> done) {
    // set before checking stopped, which stop() sets before checking reading: one of the two sees the other
    reading = true;
    if (stopped) {
      reading = false;
      done.tryComplete();
      return;
    }
    Request xread = Request.cmd(Command.XREADGROUP).arg("GROUP").arg(group).arg(name)
        .arg("COUNT").arg(options.batchSize())
        .arg("BLOCK").arg(options.blockMillis())
        .arg("STREAMS").arg(stream).arg(">");
    reader.send(xread)
        .andThen(ar -> reading = false)
        .map(this::readSucceeded)
        .compose(r -> handleAll(entriesOfRead(r)))
        .onComplete(ar -> {
          if (ar.failed() && !stopped) {
            readFailed(ar.cause(), done);
          } else {
            read(done);
          }
        });
  }

  private void reconnect(Promise<Void> done) {
    if (stopped) {
      done.tryComplete();
      return;
    }
    if (reader != null) {
      reader.close();
    }
    openReader().onComplete(ar -> {
      if (ar.succeeded()) {
        loop(done);
      } else {
        vertx.setTimer(1000, t -> reconnect(done));
      }
    });
  }

  /**
   * A cluster member left: its consumers can no longer acknowledge what they hold, so entries of the group pending
   * longer than {@link EventLogOptions#memberLeftIdleMillis()} are claimed now, and once more when that idle time has
   * passed (entries delivered to the departed node just before it went), instead of after the claim timeout. The
   * idle floor is nonzero so that entries a live consumer is handling this very moment are left to it; one handled
   * longer than that may run twice, which handlers tolerate (idempotent by event id).
   */
  public void memberLeft() {
    long idle = options.memberLeftIdleMillis();
    claimSoon(idle);
    vertx.setTimer(Math.max(1, idle), t -> claimSoon(idle));
  }

  // a pass already running may have asked with the long timeout: try again shortly rather than skip this one
  private void claimSoon(long minIdle) {
    if (stopped) {
      return;
    }
    if (claiming) {
      vertx.setTimer(100, t -> claimSoon(minIdle));
    } else {
      claim(minIdle);
    }
  }

  private void claim() {
    claim(options.claimAfterMillis());
  }

  private void claim(long minIdle) {
    claim(minIdle, "-");
  }

  /**
   * One page of the pending entries idle at least {@code minIdle}, from entry id {@code from} on. A full page is
   * followed at once by the page after its last entry, so that thousands of entries left by a store outage come back
   * in one pass rather than a page per claim period (by default 64 per 15 s: 25 minutes for 6,500); the pass walks
   * forward and ends at the list's end, so entries it claimed and failed again wait for the next period instead of
   * looping.
   */
  private void claim(long minIdle, String from) {
    if (stopped || claiming) {
      return;
    }
    claiming = true;
    String[] next = {null};
    api.xpending(List.of(stream, group, "IDLE", Long.toString(minIdle), from, "+",
            Integer.toString(options.batchSize())))
        .compose(pending -> {
          if (pending != null && pending.size() >= options.batchSize()) {
            next[0] = "(" + pending.get(pending.size() - 1).get(0).toString();
          }
          List<String> toClaim = new ArrayList<>();
          List<Future<?>> dead = new ArrayList<>();
          if (pending != null) {
            for (Response p : pending) {
              String id = p.get(0).toString();
              long deliveries = p.get(3).toLong();
              if (deliveries >= options.maxDeliveries()) {
                dead.add(deadLetter(id));
              } else {
                toClaim.add(id);
              }
            }
          }
          if (toClaim.isEmpty()) {
            return Future.all(dead).mapEmpty();
          }
          List<String> args = new ArrayList<>(List.of(stream, group, name, Long.toString(minIdle)));
          args.addAll(toClaim);
          return api.xclaim(args).compose(claimed -> handleAll(entries(claimed)));
        })
        .onComplete(ar -> {
          claiming = false;
          if (ar.succeeded() && next[0] != null) {
            claim(minIdle, next[0]);
          }
          if (ar.failed() && !stopped) {
            if (isGroupGone(ar.cause())) {
              recreateGroup();
            } else {
              RETRIES.warn(stream + "/" + group + "/claim", "Claiming pending entries of {}/{} failed: {}", stream,
                  group, ar.cause().getMessage());
            }
          }
        });
  }

  private Future<Void> deadLetter(String entryId) {
    return api.xrange(List.of(stream, entryId, entryId)).compose(r -> {
      List<Request> batch = new ArrayList<>();
      for (Entry e : entries(r)) {
        Request add = Request.cmd(Command.XADD).arg(stream + ":dead:" + group).arg("MAXLEN").arg("~").arg(10_000)
            .arg("*").arg("entry").arg(entryId);
        e.fields.forEach(kv -> add.arg(kv.getKey()).arg(String.valueOf(kv.getValue())));
        batch.add(add);
      }
      batch.add(Request.cmd(Command.XACK).arg(stream).arg(group).arg(entryId));
      LOG.error("Event {} of {} failed {} times in group {}; moved to the dead-letter stream", entryId, stream,
          options.maxDeliveries(), group);
      return redis.batch(batch).mapEmpty();
    });
  }

  private Future<Void> handleAll(List<Entry> entries) {
    Future<Void> chain = Future.succeededFuture();
    for (Entry entry : entries) {
      chain = chain.compose(v -> handleOne(entry));
    }
    return chain;
  }

  private Future<Void> handleOne(Entry entry) {
    if (stopped) {
      return Future.succeededFuture();
    }
    DomainEvent event;
    try {
      event = new DomainEvent(Long.parseLong(entry.fields.getString("id")), domain, entry.fields.getString("type"),
          Long.parseLong(entry.fields.getString("time")), new JsonObject(entry.fields.getString("payload")));
    } catch (RuntimeException e) {
      LOG.error("Malformed entry {} in {}; acknowledging it to skip it", entry.id, stream, e);
      return ack(entry.id);
    }
    Future<?> handled;
    try {
      handled = handler.apply(event);
    } catch (RuntimeException e) {
      handled = Future.failedFuture(e);
    }
    return handled.transform(ar -> {
      if (ar.succeeded()) {
        return ack(entry.id);
      }
      LOG.warn("Handler of group {} failed on {} {} (will be retried): {}", group, event.type(), event.id(),
          String.valueOf(ar.cause()));
      return Future.succeededFuture();
    });
  }

  private Future<Void> ack(String entryId) {
    return api.xack(List.of(stream, group, entryId)).mapEmpty();
  }

  /** Whether {@link #stop} was called. */
  boolean stopped() {
    return stopped;
  }

  /** Stops reading and claiming; entries being handled finish, unacknowledged ones are claimed by others later. */
  public Future<Void> stop() {
    if (stopped) {
      return loopDone;
    }
    stopped = true;
    if (claimTimer >= 0) {
      vertx.cancelTimer(claimTimer);
    }
    // Closing a pooled connection only returns it to the pool, still blocked in XREADGROUP: that read would still
    // take entries for this stopped consumer, and the pool would queue other commands behind it. Unblock it first.
    return unblockReader().compose(v -> {
      if (reader != null) {
        reader.close();
      }
      return loopDone.otherwise((Void) null);
    });
  }

  // CLIENT UNBLOCK travels on another connection and may overtake a read just sent, so it is repeated until the
  // read has ended (at worst when its block time runs out).
  private Future<Void> unblockReader() {
    String id = readerId;
    if (id == null || !reading) {
      return Future.succeededFuture();
    }
    return readerNode.send(Request.cmd(Command.CLIENT).arg("UNBLOCK").arg(id)).transform(ar -> {
      if ((ar.succeeded() && ar.result() != null && ar.result().toInteger() == 1) || !reading) {
        return Future.succeededFuture();
      }
      Promise<Void> retried = Promise.promise();
      vertx.setTimer(10, t -> unblockReader().onComplete(retried));
      return retried.future();
    });
  }

  private List<Entry> entriesOfRead(Response r) {
    // RESP2: [[stream, [[id, [field, value, ...]], ...]]] or null when the block timed out
    if (r == null || r.size() == 0) {
      return List.of();
    }
    return entries(r.get(0).get(1));
  }

  private static List<Entry> entries(Response list) {
    List<Entry> out = new ArrayList<>();
    if (list == null) {
      return out;
    }
    for (Response item : list) {
      if (item == null || item.get(1) == null) {
        continue; // an entry trimmed from the stream while pending
      }
      JsonObject fields = new JsonObject();
      Response kv = item.get(1);
      for (int i = 0; i + 1 < kv.size(); i += 2) {
        fields.put(kv.get(i).toString(), kv.get(i + 1).toString());
      }
      out.add(new Entry(item.get(0).toString(), fields));
    }
    return out;
  }

  private record Entry(String id, JsonObject fields) {
  }
}
