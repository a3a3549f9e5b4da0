package io.kith.platform.testkit;

import io.vertx.core.Future;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.List;

/**
 * A Redis client that refuses every request while {@link #failing(boolean) failing}, as a pooled client does when its
 * wait queue is full, and passes them to the wrapped client otherwise. Closing it leaves the wrapped client open (the
 * platform owns it).
 */
public final class FailingRedis implements Redis {

  private final Redis delegate;
  private volatile boolean failing;

  /** Wraps a client. */
  public FailingRedis(Redis delegate) {
    this.delegate = delegate;
  }

  /** Starts or stops refusing. */
  public void failing(boolean failing) {
    this.failing = failing;
  }

  private <T> Future<T> refused() {
    return Future.failedFuture("Connection pool reached max wait queue size of 4096");
  }

  @Override
  public Future<RedisConnection> connect() {
    return failing ? refused() : delegate.connect();
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }

  @Override
  public Future<Response> send(Request command) {
    return failing ? refused() : delegate.send(command);
  }

  @Override
  public Future<List<Response>> batch(List<Request> commands) {
    return failing ? refused() : delegate.batch(commands);
  }
}
