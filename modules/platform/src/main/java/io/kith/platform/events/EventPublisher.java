package io.kith.platform.events;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Appends one domain's events to its stream; made by {@link EventLog#publisher}. The producer's write is committed
 * before it publishes, so the write's caller is answered whatever becomes of the event: {@link #publish} never fails.
 * The log parks an append Redis refuses in the outbox; an event lost even so (no outbox, or the outbox refused it too)
 * is logged at ERROR with its type and payload, so that an operator can replay it. Callers that must retry (a
 * reminder re-queued when its event did not go) use {@link #append}, which fails instead.
 */
public final class EventPublisher {

  private static final Logger LOG = LoggerFactory.getLogger(EventPublisher.class);

  private final EventLog log;
  private final String domain;

  EventPublisher(EventLog log, String domain) {
    this.log = log;
    this.domain = domain;
  }

  /** The domain (stream) this publisher appends to. */
  public String domain() {
    return domain;
  }

  /** Appends {@code event}; completes, never failing, once it is appended, parked, or logged as lost. */
  public Future<Void> publish(Event event) {
    JsonObject payload = event.toJson();
    return log.append(domain, event.eventType(), payload).<Void>mapEmpty().recover(e -> {
      LOG.error("Could not append {} {} {} to the event log: {}", domain, event.eventType(), payload.encode(),
          e.toString());
      return Future.succeededFuture();
    });
  }

  /** Appends {@code event}; fails when the log could neither append nor park it (the caller retries). */
  public Future<DomainEvent> append(Event event) {
    return log.append(domain, event.eventType(), event.toJson());
  }
}
