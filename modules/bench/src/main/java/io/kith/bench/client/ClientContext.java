package io.kith.bench.client;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.function.Supplier;

/**
 * Runs work on the context the bench's clients live on. A Vert.x client belongs to the context it was made on, so
 * code on another thread (the command's main thread, a client JVM's command loop) hands its work over here.
 */
public final class ClientContext {

  private ClientContext() {
  }

  /** Runs {@code work} on {@code context} and hands back its outcome; a {@link RuntimeException} it throws fails it. */
  public static <T> Future<T> run(Context context, Supplier<Future<T>> work) {
    Promise<T> promise = Promise.promise();
    context.runOnContext(v -> {
      try {
        work.get().onComplete(promise);
      } catch (RuntimeException e) {
        promise.fail(e);
      }
    });
    return promise.future();
  }
}
