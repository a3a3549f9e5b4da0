package io.kith.notifications.service;

import io.kith.notifications.api.NotificationsEvents;
import io.kith.notifications.api.events.NotificationStored;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.events.EventPublisher;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Stores a notification made by a producer and pushes it: the record first, then the Redis side, then the push of
 * the notification and the new counts when this delivery is the one that holds it. As named steps: record → held
 * (by this delivery, or finished) → settle (slots only) → Redis → what to push → finished → push.
 *
 * <p>A record is held by the delivery that inserted it ({@link NotificationRecords#PENDING}) until its event is
 * appended. A delivery that failed part way (a MongoDB pool wait after the insert) lets it go, and the next delivery
 * of the same key (an event redelivered, an announcement's batch retried) takes it over and finishes it: the Redis
 * side, the bridge push and one {@code NotificationStored}. A record found finished changes nothing, so a retry never
 * appends a second event.
 */
final class Delivery {

  /**
   * One notification on its way, held by this delivery.
   *
   * @param id     its id (an earlier delivery's record, taken over, has its own)
   * @param holder this delivery's own id, which holds the record ({@link NotificationRecords#HOLDER})
   * @param to     the recipient
   * @param slot   its slot, null for none
   * @param stored the record as stored (and settled)
   */
  private record Attempt(long id, long holder, long to, String slot, JsonObject stored) {
  }

  /**
   * How long a delivery holds the record it inserted or took over before another delivery of its key may finish it
   * (when this one died rather than failed: a failed one lets it go at once).
   */
  static final long HOLD_MS = 30_000;

  private final Platform platform;
  private final NotificationRecords records;
  private final HotStore hot;
  private final Views views;
  private final Pushes pushes;
  private final SystemChanges system;
  private final EventPublisher events;

  Delivery(Platform platform, NotificationRecords records, HotStore hot, Views views, Pushes pushes,
           SystemChanges system) {
    this.platform = platform;
    this.records = records;
    this.hot = hot;
    this.views = views;
    this.pushes = pushes;
    this.system = system;
    this.events = platform.events().publisher(NotificationsEvents.DOMAIN);
  }

  /**
   * Stores a notification made by a producer (already checked against preferences, blocks and visibility): the
   * record first, then the Redis side; pushes it and the new counts when it is new. A duplicate (same recipient and
   * dedupe key) changes nothing once its first delivery finished, and finishes it when that one failed part way (the
   * record's event is appended once). While another delivery holds it, fails with {@code unavailable} (the caller
   * retries). With a {@code slot} (null for none), the notification replaces the older one of the
   * recipient holding that slot, counting it ({@link NotificationRecords#settle}); the push names the replaced id.
   */
  Future<Void> store(long to, String type, String key, String slot, JsonObject fields) {
    long id;
    try {
      id = platform.ids().next();
    } catch (IllegalStateException e) {
      return Future.failedFuture(e);
    }
    long now = System.currentTimeMillis();
    JsonObject record = fields.copy().put("_id", id).put("to", to).put("type", type)
        .put("created", now).put("unread", true).put("key", key).put(NotificationRecords.PENDING, now + HOLD_MS)
        .put(NotificationRecords.HOLDER, id);
    if (slot != null) {
      record.put("slot", slot).put("count", 1L);
    }
    return records.insert(record)
        .compose(stored -> held(id, stored))
        .compose(stored -> stored == null ? Future.succeededFuture() : finish(to, slot, stored, id));
  }

  /**
   * The record this delivery ({@code id}) finishes: the one it inserted, or an earlier delivery's that did not finish
   * (taken over, held by {@code id}); null when that one finished. Fails while another delivery holds it.
   */
  private Future<JsonObject> held(long id, JsonObject stored) {
    if (stored.getLong("_id") == id) {
      return Future.succeededFuture(stored);
    }
    if (!stored.containsKey(NotificationRecords.PENDING)) {
      return Future.succeededFuture(null);
    }
    long now = System.currentTimeMillis();
    long existing = stored.getLong("_id");
    return records.takeOver(existing, now, now + HOLD_MS, id).compose(taken -> taken != null
        ? Future.succeededFuture(taken)
        : Failures.fail(KithErrors.UNAVAILABLE, "notification " + existing + " is being delivered; retry later"));
  }

  /**
   * Settles, stores in Redis and pushes a record {@code holder} holds; on a failure, lets the record go for the next
   * delivery.
   */
  private Future<Void> finish(long to, String slot, JsonObject held, long holder) {
    long id = held.getLong("_id");
    return (slot == null ? Future.succeededFuture(held) : settle(held))
        .compose(stored -> stored == null ? Future.<Void>succeededFuture()
            : toRedis(new Attempt(id, holder, to, slot, stored)))
        .recover(e -> records.release(id, holder).transform(ignored -> Future.failedFuture(e)));
  }

  /**
   * Settles a record's slot: the record (with its count) when it is the slot's newest, else null after removing it
   * (a newer one of the slot was stored first).
   */
  private Future<JsonObject> settle(JsonObject stored) {
    return records.settle(stored).compose(shown -> shown != null ? Future.succeededFuture(shown)
        : system.removeForUser(stored.getLong("to"), List.of(stored.getLong("_id"))).map(v -> (JsonObject) null));
  }

  private Future<Void> toRedis(Attempt a) {
    return hot.insert(a.stored()).compose(result -> afterInsert(a, result));
  }

  /** Decides from Redis's answer whether this delivery pushes, and with which counts. */
  private Future<Void> afterInsert(Attempt a, HotStore.Inserted result) {
    if (result.stored() == HotStore.Stored.SUPERSEDED) {
      // a newer one took the slot in Redis after this one settled: its settling deleted this record already
      return records.delete(a.to(), List.of(a.stored().getLong("_id")));
    }
    return countsToPush(a, result).compose(counts -> push(a, result, counts));
  }

  /** The counts to push with the notification, after the clean-up Redis's answer calls for. */
  private Future<JsonObject> countsToPush(Attempt a, HotStore.Inserted result) {
    long to = a.to();
    // Redis holding the record this delivery holds: a rebuild ran meanwhile and loaded it from MongoDB, or the
    // delivery it took over failed after its Redis step; nobody pushed it yet
    boolean loadedByRebuild = result.stored() == HotStore.Stored.DUPLICATE;
    if (result.stored() == HotStore.Stored.SIDE_MISSING) {
      // Redis lost this user's side: the record has the notification; rebuilding now gives the counts to push
      return hot.counts(to);
    }
    if (loadedByRebuild) {
      // with a slot, that rebuild may have loaded it before it was settled (the count it had before taking the
      // slot): drop the side so that it is rebuilt from the settled record, then push as above
      return (a.slot() == null ? Future.<Void>succeededFuture() : hot.invalidate(to)).compose(v -> hot.counts(to));
    }
    List<Long> gone = new ArrayList<>(result.evicted());
    gone.addAll(result.replaced());
    return (gone.isEmpty() ? Future.<Void>succeededFuture() : records.delete(to, gone)).map(v -> result.counts());
  }

  private Future<Void> push(Attempt a, HotStore.Inserted result, JsonObject counts) {
    return views.of(a.to(), List.of(Views.stringRecord(a.stored())))
        // finished before the event (which never fails): a retry after this point appends no second one; a delivery
        // whose hold ran out while it worked (another took the record over) leaves the announcing to that one
        .compose(found -> records.finished(a.id(), a.holder()).map(mine -> mine ? found : null))
        .compose(found -> {
          if (found == null) {
            return Future.succeededFuture();
          }
          pushes.notification(a.to(), found.get(0), result.replaced(), counts);
          // for what reaches closed apps (push): the same view, durable, after the record and its Redis side
          return events.publish(new NotificationStored(a.to(), found.get(0), result.replaced(),
              counts == null ? 0L : counts.getLong("total", 0L)));
        });
  }
}
