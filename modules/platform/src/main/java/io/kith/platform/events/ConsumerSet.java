package io.kith.platform.events;

import io.vertx.core.Future;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * The event consumers that one part of a module starts, stopped together when the module stops. Each is started with
 * the processed-id guard ({@link EventLog#once}), so an event is handled at most once per group. This is the one home
 * of the start, keep and stop steps that every consuming class used to write for itself.
 *
 * <p>Not thread-safe: start and stop from the context of the verticle that owns it, as the consumers themselves are.
 */
public final class ConsumerSet {

  private final EventLog log;
  private final List<EventConsumer> started = new ArrayList<>();

  /** An empty set whose consumers read from {@code log}. */
  public ConsumerSet(EventLog log) {
    this.log = log;
  }

  /**
   * Starts a consumer of {@code domain}'s stream in consumer group {@code group} that handles each event once per
   * group ({@link EventLog#consume(String, String, Function)} with {@link EventLog#once}).
   */
  public Future<Void> once(String domain, String group, Function<DomainEvent, Future<?>> handler) {
    return once(domain, group, 1, handler);
  }

  /**
   * As {@link #once(String, String, Function)}, handling up to {@code concurrency} events at a time
   * ({@link EventLog#consume(String, String, int, Function)}).
   */
  public Future<Void> once(String domain, String group, int concurrency, Function<DomainEvent, Future<?>> handler) {
    return log.consume(domain, group, concurrency, log.once(group, handler)).map(consumer -> {
      started.add(consumer);
      return null;
    });
  }

  /** Stops every consumer started so far; completes when all have stopped, failed if one of them failed to. */
  public Future<Void> stop() {
    return Future.join(started.stream().map(EventConsumer::stop).toList()).mapEmpty();
  }
}
