package io.kith.platform.id;

import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.redis.client.RedisAPI;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;

/**
 * Cluster-unique, time-ordered ids that are positive and below 2^53 (safe in JSON and JavaScript).
 *
 * <p>Layout, most significant first: 40 bits of milliseconds since {@link #EPOCH} (about 34 years), 8 bits of node
 * number, 5 bits of sequence (32 ids per millisecond per node; past that the generator borrows the next millisecond,
 * so ids stay unique and increasing and the clock catches up).
 *
 * <p>The node number is leased from Redis ({@code ids:{n<k>}:lease}, SET NX with an expiry) and renewed every third
 * of the lease. A generator stops handing out ids (it throws) once its lease could have expired without a
 * successful renewal, so two live generators never share a number. A high-water mark kept next to the lease
 * ({@code ids:{n<k>}:hw}) makes the next holder of a number start after the last time its previous holder could have
 * used, which protects uniqueness from clock differences between machines. The holder writes the mark ahead of use
 * (at lease and at each renewal, a lease period past the later of the clock and its last id) and never issues an id
 * past it, so a holder that vanishes without releasing, even in a burst that ran ahead of the clock, cannot collide
 * with the next one.
 */
public final class IdGenerator {

  /** 2026-01-01T00:00:00Z in epoch milliseconds. */
  public static final long EPOCH = 1767225600000L;
  /** Number of node numbers available. */
  public static final int NODES = 256;
  static final int NODE_BITS = 8;
  static final int SEQ_BITS = 5;
  static final long MAX_SEQ = (1L << SEQ_BITS) - 1;
  static final long MAX_TIME = (1L << 40) - 1;

  private static final Logger LOG = LoggerFactory.getLogger(IdGenerator.class);

  private static final LuaScripts.Script ACQUIRE = LuaScripts.load(IdGenerator.class, "lease-acquire.lua");
  private static final LuaScripts.Script RENEW = LuaScripts.load(IdGenerator.class, "lease-renew.lua");
  private static final LuaScripts.Script RELEASE = LuaScripts.load(IdGenerator.class, "lease-release.lua");

  private final Vertx vertx;
  private final RedisAPI redis;
  private final long leaseMillis;
  private final String owner = UUID.randomUUID().toString();
  private final LongSupplier clock;

  private int node = -1;
  private long validUntil;
  // the high-water mark this holder wrote for its number: no id of this holder has a later time
  private long coveredUntil;
  private long lastMillis;
  private long sequence;
  private long timer = -1;
  private boolean closed;
  // the renewal in flight, if any (see renew)
  private Future<Void> renewal;

  private IdGenerator(Vertx vertx, RedisAPI redis, long leaseMillis, LongSupplier clock) {
    this.vertx = vertx;
    this.redis = redis;
    this.leaseMillis = leaseMillis;
    this.clock = clock;
  }

  /** Leases a node number from Redis and returns a generator that keeps renewing it until {@link #close()}. */
  public static Future<IdGenerator> lease(Vertx vertx, RedisAPI redis, int leaseSeconds) {
    return lease(vertx, redis, leaseSeconds, ThreadLocalRandom.current().nextInt(NODES));
  }

  /** Like {@link #lease(Vertx, RedisAPI, int)}, trying node number {@code firstCandidate} first (for tests). */
  static Future<IdGenerator> lease(Vertx vertx, RedisAPI redis, int leaseSeconds, int firstCandidate) {
    if (leaseSeconds < 3) {
      return Future.failedFuture(new IllegalArgumentException("ids.lease-seconds must be at least 3"));
    }
    IdGenerator generator = new IdGenerator(vertx, redis, leaseSeconds * 1000L, System::currentTimeMillis);
    return generator.acquire(Math.floorMod(firstCandidate, NODES), 0).map(v -> {
      generator.timer = vertx.setPeriodic(generator.leaseMillis / 3, id -> generator.renew());
      return generator;
    });
  }

  private static String leaseKey(int node) {
    return "ids:{n" + node + "}:lease";
  }

  private static String highWaterKey(int node) {
    return "ids:{n" + node + "}:hw";
  }

  private Future<Void> acquire(int candidate, int tried) {
    if (tried >= NODES) {
      return Future.failedFuture(new IllegalStateException(
          "all " + NODES + " id node numbers are leased in Redis; is another cluster sharing this Redis?"));
    }
    long sentAt = clock.getAsLong();
    long base;
    synchronized (this) {
      base = Math.max(sentAt, lastMillis);
    }
    return ACQUIRE.run(redis, List.of("2", leaseKey(candidate), highWaterKey(candidate), owner,
            Long.toString(leaseMillis), Long.toString(base)))
        .compose(r -> {
          long highWater = r.toLong();
          if (highWater < 0) {
            return acquire((candidate + 1) % NODES, tried + 1);
          }
          synchronized (this) {
            node = candidate;
            validUntil = sentAt + leaseMillis * 2 / 3;
            coveredUntil = Math.max(highWater, base) + leaseMillis;
            lastMillis = Math.max(lastMillis, highWater);
            sequence = MAX_SEQ;
          }
          LOG.info("Leased id node number {}", candidate);
          return Future.succeededFuture();
        });
  }

  /**
   * Renews the lease, or leases a number again when it was lost (the same number first: after a stall it has most
   * likely just expired). Single flight: a stalled node's periodic timer fires once per missed period as soon as it
   * runs again, and each of those renewals used to find the lease gone and lease a number of its own.
   */
  private synchronized Future<Void> renew() {
    if (renewal != null) {
      return renewal;
    }
    if (closed) {
      return Future.failedFuture(new IllegalStateException("id generator is closed"));
    }
    Future<Void> started = renewOnce();
    renewal = started;
    return started.andThen(ar -> {
      synchronized (this) {
        renewal = null;
      }
    });
  }

  private Future<Void> renewOnce() {
    int leased;
    long sentAt = clock.getAsLong();
    long highWater;
    synchronized (this) {
      leased = node;
      // never below the mark written before, even if the wall clock stepped back
      highWater = Math.max(coveredUntil, Math.max(lastMillis, sentAt) + leaseMillis);
    }
    return RENEW.run(redis, List.of("2", leaseKey(leased), highWaterKey(leased), owner, Long.toString(leaseMillis),
            Long.toString(highWater)))
        .compose(r -> {
          if (r.toInteger() == 1) {
            synchronized (this) {
              if (node == leased) {
                validUntil = sentAt + leaseMillis * 2 / 3;
                coveredUntil = Math.max(coveredUntil, highWater);
              }
            }
            return Future.succeededFuture();
          }
          LOG.warn("The lease on id node number {} expired or was taken (a stall, or Redis lost its data); "
              + "leasing a number again", leased);
          synchronized (this) {
            validUntil = 0;
          }
          return acquire(leased, 0)
              .onFailure(e -> LOG.error("Cannot lease an id node number: {}", e.getMessage()));
        })
        .onFailure(e -> LOG.warn("Renewing id node lease failed (will retry): {}", e.getMessage()));
  }

  /**
   * Completes when this generator holds a valid lease: at once normally; after a renewal when the lease ran out
   * without one (a node that stalled longer than its lease, whose timer has not run yet). Callers that must not fail
   * for that reason (the event log's appends) draw their ids after it; it fails when the renewal does (Redis away).
   */
  public Future<Void> leased() {
    synchronized (this) {
      if (closed) {
        return Future.failedFuture(new IllegalStateException("id generator is closed"));
      }
      if (clock.getAsLong() <= validUntil) {
        return Future.succeededFuture();
      }
    }
    return renew();
  }

  /**
   * The next id: unique across every generator sharing this Redis, and greater than every id this generator gave
   * before.
   *
   * @throws IllegalStateException when the node lease could not be renewed in time (Redis unreachable), or when ids
   *                               are drawn so fast that they would run more than a lease period ahead of the clock
   */
  public synchronized long next() {
    long now = clock.getAsLong();
    if (closed || now > validUntil) {
      throw new IllegalStateException(closed ? "id generator is closed" : "id node lease expired; Redis unreachable?");
    }
    long millis;
    long seq;
    if (now > lastMillis) {
      millis = now;
      seq = 0;
    } else if (sequence < MAX_SEQ) {
      millis = lastMillis;
      seq = sequence + 1;
    } else {
      millis = lastMillis + 1;
      seq = 0;
    }
    if (millis > coveredUntil) {
      throw new IllegalStateException("ids are drawn faster than id node " + node + " can cover; retry shortly");
    }
    lastMillis = millis;
    sequence = seq;
    long time = lastMillis - EPOCH;
    if (time < 0 || time > MAX_TIME) {
      throw new IllegalStateException("clock outside the id range: " + now);
    }
    return (time << (NODE_BITS + SEQ_BITS)) | ((long) node << SEQ_BITS) | sequence;
  }

  /** The leased node number. */
  public synchronized int node() {
    return node;
  }

  /** Epoch milliseconds at which {@code id} was made. */
  public static long timeOf(long id) {
    return (id >>> (NODE_BITS + SEQ_BITS)) + EPOCH;
  }

  /** The smallest id that could have been made at {@code epochMillis}, for time-based cursors. */
  public static long minIdAt(long epochMillis) {
    return Math.max(0, epochMillis - EPOCH) << (NODE_BITS + SEQ_BITS);
  }

  /** The node number encoded in {@code id}. */
  public static int nodeOf(long id) {
    return (int) ((id >>> SEQ_BITS) & ((1 << NODE_BITS) - 1));
  }

  /** Stops renewing and releases the node number. */
  public Future<Void> close() {
    int leased;
    long highWater;
    synchronized (this) {
      if (closed) {
        return Future.succeededFuture();
      }
      closed = true;
      leased = node;
      highWater = lastMillis + 1;
    }
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
    if (leased < 0) {
      return Future.succeededFuture();
    }
    return RELEASE.run(redis, List.of("2", leaseKey(leased), highWaterKey(leased), owner, Long.toString(highWater)))
        .<Void>mapEmpty()
        .recover(e -> Future.succeededFuture());
  }
}
