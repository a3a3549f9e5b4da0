package io.kith.platform.testkit;

import io.kith.platform.Platform;
import io.kith.platform.events.Erasures;
import io.vertx.core.json.JsonObject;

import java.time.Duration;

/** Waits for a domain's erasure report of a deleted account, as the tests of every domain's erasure do. */
public final class ErasureReports {

  private ErasureReports() {
  }

  /** The report of {@code domain} for {@code user} once it is finished (polled until {@code deadline}). */
  public static JsonObject finished(Platform platform, String domain, long user, Duration deadline) {
    Erasures erasures = new Erasures(platform.mongo());
    Await.result(Poll.until(platform.vertx(), deadline, "the " + domain + " erasure of " + user,
        () -> erasures.report(domain, user).map(r -> r != null && r.getLong("finished_at") != null)));
    return Await.result(erasures.report(domain, user));
  }
}
