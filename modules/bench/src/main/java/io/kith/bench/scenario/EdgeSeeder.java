package io.kith.bench.scenario;

import io.kith.relations.service.RelationsSeeder;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.BulkOperation;
import io.vertx.ext.mongo.BulkWriteOptions;
import io.vertx.ext.mongo.MongoClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * Bulk-inserts documents straight into a MongoDB collection of the in-process Kith, bypassing its services: used to
 * seed a million follower edges in minutes. Documents are built in batches by a {@link Source} and written with
 * unordered bulk inserts, a few batches in flight.
 *
 * <p>Edge documents are the relations domain's ({@link RelationsSeeder#edge}, from its test-jar), with
 * {@code _id} from a Kith id generator. That generator makes at most 32 ids per millisecond and refuses to run far
 * ahead of the clock; when it refuses, the seeder writes what it has and waits a few milliseconds.
 */
public final class EdgeSeeder {

  private static final Logger LOG = LoggerFactory.getLogger(EdgeSeeder.class);

  /** Documents per bulk insert. */
  public static final int BATCH = 1_000;
  /** Bulk inserts in flight. */
  public static final int IN_FLIGHT = 4;
  /** How long to wait when the id generator is ahead of the clock. */
  public static final long ID_BACKOFF_MILLIS = 5;
  /** Progress is logged every this many documents. */
  public static final long LOG_EVERY = 50_000;

  /**
   * Produces the documents to insert, a batch at a time.
   */
  public interface Source {

    /** Documents not produced yet. */
    long remaining();

    /**
     * Up to {@code max} more documents. Fewer (even none) when ids ran out for the moment: the seeder writes those
     * and asks again a little later.
     */
    List<JsonObject> next(int max);
  }

  /**
   * How a seeding went.
   *
   * @param documents documents inserted
   * @param millis    wall time
   */
  public record Result(long documents, long millis) {

    /** Documents per second. */
    public double perSecond() {
      return millis == 0 ? documents * 1000.0 : documents * 1000.0 / millis;
    }

    /** "1,000,000 documents in 183.2 s (5,458/s)". */
    public String describe() {
      return String.format(Locale.ROOT, "%,d documents in %.1f s (%,.0f/s)", documents, millis / 1000.0, perSecond());
    }
  }

  /**
   * Follow edges {@code followers.get(i) -> celebrity} for {@code i} in {@code [0, count)}, in that order, each with
   * the next id of {@code ids}: the list's newest end is the last follower. When {@code ids} throws
   * {@link IllegalStateException} (the generator is ahead of the clock) a batch ends early.
   */
  public static Source follows(long celebrity, long count, FollowerIds followers, LongSupplier ids,
                              LongSupplier clock) {
    return counted(count, clock, (i, at) -> {
      long id;
      try {
        id = ids.getAsLong();
      } catch (IllegalStateException aheadOfClock) {
        return null;
      }
      return RelationsSeeder.edge(id, RelationsSeeder.FOLLOW, followers.at(i), celebrity, at);
    });
  }

  /** The documents of {@code docs}, in order. */
  public static Source of(List<JsonObject> docs) {
    return each(docs.size(), i -> docs.get((int) i));
  }

  /** The documents {@code doc.apply(i)} for {@code i} in {@code [0, count)}, made as they are written. */
  public static Source each(long count, LongFunction<JsonObject> doc) {
    return counted(count, () -> 0L, (i, at) -> Objects.requireNonNull(doc.apply(i), "no document " + i));
  }

  /** Makes document {@code index} of a {@link #counted} source, or null when it cannot yet (ids ran out). */
  private interface Maker {
    JsonObject make(long index, long batchTime);
  }

  /**
   * Documents {@code 0 .. count-1} in order, each made by {@code maker} with the time {@code clock} gave when its
   * batch began; a batch ends early at the first document {@code maker} cannot make yet.
   */
  private static Source counted(long count, LongSupplier clock, Maker maker) {
    return new Source() {
      private long produced;

      @Override
      public long remaining() {
        return count - produced;
      }

      @Override
      public List<JsonObject> next(int max) {
        int n = (int) Math.min(max, count - produced);
        List<JsonObject> batch = new ArrayList<>(n);
        long at = clock.getAsLong();
        for (int i = 0; i < n; i++) {
          JsonObject doc = maker.make(produced, at);
          if (doc == null) {
            break;
          }
          batch.add(doc);
          produced++;
        }
        return batch;
      }
    };
  }

  /** The user id of the {@code i}-th follower. */
  public interface FollowerIds {
    long at(long i);
  }

  private EdgeSeeder() {
  }

  /** Inserts everything {@code source} produces into {@code collection}, then completes with what was done. */
  public static Future<Result> seed(Vertx vertx, MongoClient mongo, String collection, Source source, String what) {
    long started = System.nanoTime();
    long total = source.remaining();
    Promise<Result> done = Promise.promise();
    new Run(vertx, mongo, collection, source, what, total, started, done).start();
    return done.future();
  }

  /** One seeding: keeps {@link #IN_FLIGHT} bulk inserts going until the source is empty. */
  private static final class Run {
    private final Vertx vertx;
    private final MongoClient mongo;
    private final String collection;
    private final Source source;
    private final String what;
    private final long total;
    private final long started;
    private final Promise<Result> done;
    private int inFlight;
    private long inserted;
    private long nextLog = LOG_EVERY;
    private boolean waiting;
    private boolean failed;

    Run(Vertx vertx, MongoClient mongo, String collection, Source source, String what, long total, long started,
        Promise<Result> done) {
      this.vertx = vertx;
      this.mongo = mongo;
      this.collection = collection;
      this.source = source;
      this.what = what;
      this.total = total;
      this.started = started;
      this.done = done;
    }

    void start() {
      if (total == 0) {
        done.complete(new Result(0, 0));
        return;
      }
      fill();
    }

    private void fill() {
      while (!failed && !waiting && inFlight < IN_FLIGHT && source.remaining() > 0) {
        List<JsonObject> batch = source.next(BATCH);
        if (batch.isEmpty()) {
          // ids are ahead of the clock: let it catch up
          waiting = true;
          vertx.setTimer(ID_BACKOFF_MILLIS, t -> {
            waiting = false;
            fill();
          });
          return;
        }
        write(batch);
      }
    }

    private void write(List<JsonObject> batch) {
      List<BulkOperation> ops = new ArrayList<>(batch.size());
      batch.forEach(doc -> ops.add(BulkOperation.createInsert(doc)));
      inFlight++;
      mongo.bulkWriteWithOptions(collection, ops, new BulkWriteOptions(false)).onComplete(ar -> {
        inFlight--;
        if (failed) {
          return;
        }
        if (ar.failed()) {
          failed = true;
          done.fail(new IllegalStateException("seeding " + what + " failed after " + inserted + " documents: "
              + ar.cause().getMessage(), ar.cause()));
          return;
        }
        inserted += ar.result().getInsertedCount();
        if (inserted >= nextLog) {
          nextLog += LOG_EVERY;
          LOG.info("seeded {} of {} {} ({}/s)", inserted, total, what,
              String.format(Locale.ROOT, "%.0f", inserted * 1e9 / (System.nanoTime() - started)));
        }
        if (source.remaining() == 0 && inFlight == 0) {
          if (inserted != total) {
            done.fail(new IllegalStateException("seeding " + what + " inserted " + inserted + " of " + total
                + " documents"));
          } else {
            done.complete(new Result(inserted, (System.nanoTime() - started) / 1_000_000));
          }
          return;
        }
        fill();
      });
    }
  }
}
