package io.kith.activities.service;

import io.kith.activities.api.ActivitiesEvents;
import io.kith.activities.api.events.ActivitiesEvent;
import io.kith.platform.Platform;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What follows a MongoDB write: the Redis copies (derived: a failure is logged and the next load repairs it) and the
 * domain event (appended after the write; a failure is logged).
 */
final class Effects {

  private static final Logger LOG = LoggerFactory.getLogger(Effects.class);

  private final Platform platform;
  private final HotActivities hot;

  Effects(Platform platform, HotActivities hot) {
    this.platform = platform;
    this.hot = hot;
  }

  /** Copies an activity record to Redis; never fails. */
  Future<Void> activity(JsonObject doc) {
    if (doc == null) {
      return Future.succeededFuture();
    }
    return hot.putActivity(doc, false, System.currentTimeMillis()).recover(e -> {
      LOG.warn("Cannot copy activity {} to Redis: {}", doc.getLong("_id"), e.toString());
      return Future.succeededFuture();
    });
  }

  /** Copies a participation to Redis; never fails. */
  Future<Void> participant(JsonObject part, JsonObject activityDoc) {
    if (part == null) {
      return Future.succeededFuture();
    }
    return hot.putParticipant(part, activityDoc, System.currentTimeMillis()).recover(e -> {
      LOG.warn("Cannot copy participation {} to Redis: {}", part.getString("_id"), e.toString());
      return Future.succeededFuture();
    });
  }

  /** Appends an event of the activities stream; never fails (a lost event is logged). */
  Future<Void> emit(ActivitiesEvent event) {
    return platform.events().publisher(ActivitiesEvents.DOMAIN).publish(event);
  }
}
