package io.kith.platform.events;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.LongFunction;
import java.util.function.ToLongFunction;

/**
 * A domain's erasure of a deleted account as named steps over {@link Erasures} (the contract: accounts README,
 * "Deletion"): {@link #consume} runs a domain's erasure from the account-deletion event in the domain's own consumer
 * group, {@code once}-guarded; {@link #run} runs the steps the report does not hold yet, in order, records each with
 * its count, and finishes the report. A step must be idempotent (deletes by user id, recounts rather than
 * decrements): it runs again when a crash came between its work and its record.
 */
public final class ErasureSteps {

  private ErasureSteps() {
  }

  /**
   * One step of an erasure.
   *
   * @param name the step's name in the report ({@code steps})
   * @param kind what it counts ({@code counts.<kind>})
   * @param work erases the user's things of this kind; answers how many went
   */
  public record Step(String name, String kind, LongFunction<Future<Long>> work) {
  }

  /**
   * Consumes {@code type} events of {@code domain}'s stream in {@code group} ({@code once}-guarded), calling
   * {@code erase} with the user each one names ({@code user}; events naming no positive id are skipped). The
   * account-deletion event's type and reader live in accounts' api, which the platform does not see.
   */
  public static Future<EventConsumer> consume(EventLog log, String domain, String group, String type,
                                              ToLongFunction<DomainEvent> user, LongFunction<Future<?>> erase) {
    return log.consume(domain, group, log.once(group, event -> {
      long id = type.equals(event.type()) ? user.applyAsLong(event) : 0L;
      return id > 0 ? erase.apply(id) : Future.succeededFuture();
    }));
  }

  /** Runs the steps of {@code domain}'s erasure of {@code user} not recorded yet, in order; answers the report. */
  public static Future<JsonObject> run(Erasures erasures, String domain, long user, List<Step> steps) {
    Future<Void> chain = Future.succeededFuture();
    for (Step step : steps) {
      chain = chain.compose(v -> erasures.done(domain, user, step.name())).compose(done -> done
          ? Future.<Void>succeededFuture()
          : step.work().apply(user).compose(n -> erasures.step(domain, user, step.name(), step.kind(), n)));
    }
    return chain.compose(v -> erasures.finish(domain, user));
  }
}
