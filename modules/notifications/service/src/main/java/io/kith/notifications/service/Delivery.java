package io.kith.notifications.service;

import io.kith.notifications.api.NotificationsEvents;
import io.kith.notifications.api.events.NotificationStored;
import io.kith.platform.Platform;
import io.kith.platform.events.EventPublisher;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Stores a notification made by a producer and pushes it: the record first, then the Redis side, then the push of
 * the notification and the new counts when this delivery is the one that made it. As named steps: record → settle
 * (slots only) → Redis → what to push → push.
 */
final class Delivery {

  /**
   * One notification on its way.
   *
   * @param id     the id this delivery gave it (an earlier delivery's record, found by its key, has its own)
   * @param to     the recipient
   * @param slot   its slot, null for none
   * @param stored the record as stored (and settled)
   */
  private record Attempt(long id, long to, String slot, JsonObject stored) {

    /** Whether this delivery made the record (an earlier delivery's record is found by its key, with its own id). */
    boolean ours() {
      return stored.getLong("_id") == id;
    }
  }

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
   * dedupe key) changes nothing. With a {@code slot} (null for none), the notification replaces the older one of the
   * recipient holding that slot, counting it ({@link NotificationRecords#settle}); the push names the replaced id.
   */
  Future<Void> store(long to, String type, String key, String slot, JsonObject fields) {
    long id;
    try {
      id = platform.ids().next();
    } catch (IllegalStateException e) {
      return Future.failedFuture(e);
    }
    JsonObject record = fields.copy().put("_id", id).put("to", to).put("type", type)
        .put("created", System.currentTimeMillis()).put("unread", true).put("key", key);
    if (slot != null) {
      record.put("slot", slot).put("count", 1L);
    }
    return records.insert(record)
        .compose(stored -> slot == null ? Future.succeededFuture(stored) : settle(stored))
        .compose(stored -> stored == null ? Future.succeededFuture() : toRedis(new Attempt(id, to, slot, stored)));
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
    boolean ours = a.ours();
    // an earlier delivery made it: it was pushed then, unless it never reached Redis (stored now, pushed now)
    if (!ours && (result.stored() == HotStore.Stored.DUPLICATE
        || result.stored() == HotStore.Stored.SIDE_MISSING)) {
      return Future.succeededFuture();
    }
    if (result.stored() == HotStore.Stored.SUPERSEDED) {
      // a newer one took the slot in Redis after this one settled: its settling deleted this record already
      return records.delete(a.to(), List.of(a.stored().getLong("_id")));
    }
    return countsToPush(a, result).compose(counts -> push(a, result, counts));
  }

  /** The counts to push with the notification, after the clean-up Redis's answer calls for. */
  private Future<JsonObject> countsToPush(Attempt a, HotStore.Inserted result) {
    long to = a.to();
    // Redis holding the record this delivery just made: a rebuild ran meanwhile and loaded it from MongoDB, and
    // nobody pushed it yet
    boolean loadedByRebuild = a.ours() && result.stored() == HotStore.Stored.DUPLICATE;
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
    return views.of(a.to(), List.of(Views.stringRecord(a.stored()))).compose(found -> {
      pushes.notification(a.to(), found.get(0), result.replaced(), counts);
      // for what reaches closed apps (push): the same view, durable, after the record and its Redis side
      return events.publish(new NotificationStored(a.to(), found.get(0), result.replaced(),
          counts == null ? 0L : counts.getLong("total", 0L)));
    });
  }
}
