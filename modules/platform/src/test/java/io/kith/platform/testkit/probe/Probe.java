package io.kith.platform.testkit.probe;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.Promise;

import java.util.concurrent.atomic.AtomicInteger;

/** One instance of {@link ProbeService}, named, counting the calls it served. */
public final class Probe implements ProbeService {

  private final String name;
  private final AtomicInteger served = new AtomicInteger();

  /** An instance answering {@code name}. */
  public Probe(String name) {
    this.name = name;
  }

  @Override
  public Future<String> where() {
    served.incrementAndGet();
    return Future.succeededFuture(name);
  }

  @Override
  public Future<String> refuse(String what) {
    served.incrementAndGet();
    return Failures.fail(KithErrors.NOT_FOUND, what + " not found");
  }

  @Override
  public Future<String> stall() {
    served.incrementAndGet();
    return Promise.<String>promise().future();
  }

  /** How many calls this instance served. */
  public int served() {
    return served.get();
  }
}
