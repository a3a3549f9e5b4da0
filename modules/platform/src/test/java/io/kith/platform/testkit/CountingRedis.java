package io.kith.platform.testkit;

import io.vertx.core.Future;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A Redis client that records the round trips made through it (a {@code send} or a {@code batch} each, with the
 * commands' names), for tests that check how many trips a read takes. Connections taken with {@link #connect()} are
 * not recorded.
 */
public final class CountingRedis implements Redis {

  private final Redis delegate;
  private final List<String> trips = new CopyOnWriteArrayList<>();

  /** Wraps a client. */
  public CountingRedis(Redis delegate) {
    this.delegate = delegate;
  }

  /** The round trips since the last {@link #reset()}: the command name of a send, the names of a batch. */
  public List<String> trips() {
    return List.copyOf(trips);
  }

  /** Forgets the recorded trips. */
  public void reset() {
    trips.clear();
  }

  @Override
  public Future<RedisConnection> connect() {
    return delegate.connect();
  }

  @Override
  public Future<Void> close() {
    return delegate.close();
  }

  @Override
  public Future<Response> send(Request command) {
    trips.add(command.command().toString());
    return delegate.send(command);
  }

  @Override
  public Future<List<Response>> batch(List<Request> commands) {
    trips.add(commands.stream().map(c -> c.command().toString()).toList().toString());
    return delegate.batch(commands);
  }
}
