package io.kith.platform.testkit;

import io.kith.platform.Platform;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.EventConsumer;
import io.kith.platform.events.EventLog;
import io.vertx.core.Future;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import static io.kith.platform.testkit.ServiceTestBase.await;

/**
 * Records one domain's event stream in a consumer group of its own, reading what is appended from {@link #start()} on,
 * so that a test sees its own events whatever else runs. Close it at the end of the test: that stops the consumer
 * and destroys the group. A module's test base extends it with the queries of its domain's payloads.
 */
public class EventRecorder implements AutoCloseable {

  private final Platform platform;
  private final String domain;
  private final String group;
  private final List<DomainEvent> seen = new CopyOnWriteArrayList<>();
  private EventConsumer consumer;

  /** A recorder of {@code domain}'s stream on {@code platform}; call {@link #start()} before acting. */
  protected EventRecorder(Platform platform, String domain) {
    this.platform = platform;
    this.domain = domain;
    this.group = domain + "-test-" + UUID.randomUUID();
  }

  /** Starts reading the stream in the recorder's own group (from now on). */
  public void start() throws Exception {
    consumer = await(platform.events().consume(domain, group, e -> {
      seen.add(e);
      return Future.succeededFuture();
    }));
  }

  /** The events seen so far that {@code p} accepts, in the order they arrived. */
  public List<DomainEvent> matching(Predicate<DomainEvent> p) {
    return seen.stream().filter(p).toList();
  }

  @Override
  public void close() throws Exception {
    if (consumer != null) {
      await(consumer.stop());
    }
    await(platform.redisApi().xgroup(List.of("DESTROY", EventLog.stream(domain), group)));
  }
}
