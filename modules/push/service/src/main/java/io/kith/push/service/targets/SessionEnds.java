package io.kith.push.service.targets;

import io.kith.platform.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * Removes the targets of sessions that ended (logout, "log out everywhere", a password change, a replayed refresh
 * token), as announced on {@link Addresses#SESSIONS_REVOKED}. That notice is at most once: delivery checks again that
 * a target's session is alive before sending, so a missed notice never reaches a logged-out device.
 */
final class SessionEnds {

  private static final Logger LOG = LoggerFactory.getLogger(SessionEnds.class);

  private final TargetRecords records;
  private MessageConsumer<JsonObject> consumer;

  SessionEnds(TargetRecords records) {
    this.records = records;
  }

  Future<Void> start(Vertx vertx) {
    consumer = vertx.eventBus().consumer(Addresses.SESSIONS_REVOKED, msg -> ended(msg.body()));
    return consumer.completion();
  }

  private void ended(JsonObject notice) {
    long user = notice.getLong("user", 0L);
    List<String> sessions = new ArrayList<>();
    notice.getJsonArray("sessions", new JsonArray()).forEach(s -> sessions.add(String.valueOf(s)));
    if (user < 1 || sessions.isEmpty()) {
      return;
    }
    records.removeSessions(user, sessions).onFailure(e ->
        LOG.warn("push targets of ended sessions of user {} not removed now (delivery skips them): {}", user,
            e.toString()));
  }

  Future<Void> stop() {
    return consumer == null ? Future.succeededFuture() : consumer.unregister();
  }
}
