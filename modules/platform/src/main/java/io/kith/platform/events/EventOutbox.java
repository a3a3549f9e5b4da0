package io.kith.platform.events;

import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.function.Function;

/**
 * Where events wait when Redis refused their append: the MongoDB collection {@value #COLLECTION}, one document per
 * event {@code {_id: event id, domain, type, time, payload, claim}}. A producer has committed its write to MongoDB
 * before it appends, so an event that Redis refuses would otherwise be lost (no notification, no fan-out); parked
 * here, it is appended later with its original id and time by any node's {@link #drain}. Consumers see it late,
 * after events appended since, and possibly twice (a node that claimed it died after the append and before the
 * delete): the event log's rule holds, handlers are idempotent by event id ({@link EventLog#once}).
 *
 * <p>Nodes drain concurrently without appending an event twice in the normal case: each takes one event at a time by
 * a conditional claim ({@code claim} = a deadline, {@value #CLAIM_MILLIS} ms ahead), appends it, then deletes it.
 */
public final class EventOutbox {

  /** The collection. */
  public static final String COLLECTION = "kith_event_outbox";
  /** How long a claim holds before another node may take the event. */
  static final long CLAIM_MILLIS = 30_000;
  private static final Logger LOG = LoggerFactory.getLogger(EventOutbox.class);

  private final MongoClient mongo;

  /** An outbox over a MongoDB client. */
  public EventOutbox(MongoClient mongo) {
    this.mongo = mongo;
  }

  /** Stores an event Redis refused. */
  Future<Void> park(DomainEvent event) {
    JsonObject doc = new JsonObject().put("_id", event.id()).put("domain", event.domain()).put("type", event.type())
        .put("time", event.time()).put("payload", event.payload()).put("claim", 0L);
    return mongo.insert(COLLECTION, doc).<Void>mapEmpty()
        // parked already (the same event refused twice): once is enough
        .recover(e -> MongoErrors.isDuplicateKey(e) ? Future.succeededFuture()
            : Future.failedFuture(e));
  }

  /**
   * Appends up to {@code max} parked events through {@code append}, oldest first, each removed once appended.
   * Stops at the first refusal (Redis is still away). Answers how many went.
   */
  Future<Integer> drain(int max, Function<DomainEvent, Future<?>> append) {
    return next(0, max, append);
  }

  private Future<Integer> next(int done, int max, Function<DomainEvent, Future<?>> append) {
    if (done >= max) {
      return Future.succeededFuture(done);
    }
    long now = System.currentTimeMillis();
    return mongo.findOneAndUpdateWithOptions(COLLECTION,
            new JsonObject().put("claim", new JsonObject().put("$lt", now)),
            new JsonObject().put("$set", new JsonObject().put("claim", now + CLAIM_MILLIS)),
            new FindOptions().setSort(new JsonObject().put("_id", 1)),
            new UpdateOptions().setReturningNewDocument(true))
        .compose(doc -> {
          if (doc == null) {
            return Future.succeededFuture(done);
          }
          DomainEvent event = new DomainEvent(doc.getLong("_id"), doc.getString("domain"), doc.getString("type"),
              doc.getLong("time"), doc.getJsonObject("payload", new JsonObject()));
          return append.apply(event)
              .compose(r -> mongo.removeDocument(COLLECTION, new JsonObject().put("_id", event.id())))
              .compose(r -> next(done + 1, max, append), e -> {
                LOG.warn("Parked event {} ({} {}) still cannot be appended: {}", event.id(), event.domain(),
                    event.type(), e.getMessage());
                // let it be taken again at the next drain rather than after the claim
                return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", event.id()),
                        new JsonObject().put("$set", new JsonObject().put("claim", 0L)))
                    .transform(ignored -> Future.succeededFuture(done));
              });
        });
  }

  /** The client the outbox keeps its events with (the log keeps its consumer groups there too). */
  MongoClient mongo() {
    return mongo;
  }

  /** Events waiting. */
  public Future<Long> size() {
    return mongo.count(COLLECTION, new JsonObject());
  }
}
