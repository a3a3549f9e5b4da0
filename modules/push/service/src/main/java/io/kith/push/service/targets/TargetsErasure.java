package io.kith.push.service.targets;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.platform.Platform;
import io.kith.platform.events.ConsumerSet;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.Erasures;
import io.kith.push.service.delivery.DeliveryPart;
import io.kith.push.service.delivery.Preferences;
import io.vertx.core.Future;

import java.util.List;
import java.util.function.Supplier;

/**
 * Erases a deleted account's push targets, push preferences and push-rate window (the accounts README's erasure
 * contract): consumes {@code AccountDeleted} in group {@value #GROUP}, once per event, in the idempotent steps
 * {@code targets}, {@code preferences} and {@code rate_limits}, reported in {@code account_erasures} as domain
 * {@value #DOMAIN}. The targets are normally gone
 * already (the deletion ended every session); the step makes sure.
 */
final class TargetsErasure {

  static final String GROUP = "push-targets-erasure";
  static final String DOMAIN = "push-targets";

  private final Platform platform;
  private final TargetRecords records;
  private final Preferences preferences;
  private final Erasures erasures;
  private final ConsumerSet consumers;

  TargetsErasure(Platform platform, TargetRecords records, Preferences preferences) {
    this.platform = platform;
    this.records = records;
    this.preferences = preferences;
    this.erasures = new Erasures(platform.mongo());
    this.consumers = new ConsumerSet(platform.events());
  }

  Future<Void> start() {
    return consumers.once(AccountsEvents.DOMAIN, GROUP, this::handle);
  }

  private Future<?> handle(DomainEvent event) {
    if (!AccountsEvents.ACCOUNT_DELETED.equals(event.type())) {
      return Future.succeededFuture();
    }
    long user = AccountDeleted.fromJson(event.payload()).userId();
    if (user < 1) {
      return Future.succeededFuture();
    }
    return step(user, "targets", () -> records.removeUser(user))
        .compose(v -> step(user, "preferences", () -> preferences.remove(user)))
        .compose(v -> step(user, "rate_limits", () -> platform.redisApi()
            .del(List.of(DeliveryPart.rateKey(user))).map(r -> r == null ? 0L : r.toLong())))
        .compose(v -> erasures.finish(DOMAIN, user));
  }

  private Future<Void> step(long user, String step, Supplier<Future<Long>> erase) {
    return erasures.done(DOMAIN, user, step).compose(done -> done ? Future.succeededFuture()
        : erase.get().compose(n -> erasures.step(DOMAIN, user, step, step, n)));
  }

  Future<Void> stop() {
    return consumers.stop();
  }
}
