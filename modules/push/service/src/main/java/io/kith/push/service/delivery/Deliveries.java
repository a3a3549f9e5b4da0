package io.kith.push.service.delivery;

import io.kith.accounts.api.AccountsInternal;
import io.kith.notifications.api.events.NotificationStored;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.token.Sessions;
import io.kith.push.service.targets.TargetRecords;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Pushes each stored notification to its recipient's targets, as named steps: who (offline only, unless
 * {@code push.deliver-when: always}; accounts answers presence and the locale of the texts in one call) → whether
 * (the kind is on, not quiet hours, within the per-user rate) → where (the targets whose session is still alive; the
 * others are dropped) → send (each target through its provider, with bounded retries; a target the provider calls
 * gone is dropped). Never fails an event: a push that could not go after its tries is logged, and the notification
 * stays stored for the app to read when it opens.
 */
final class Deliveries {

  private static final Logger LOG = LoggerFactory.getLogger(Deliveries.class);
  private static final long MINUTE_MS = 60_000;

  private final Vertx vertx;
  private final DeliverySettings settings;
  private final TargetRecords targets;
  private final Preferences preferences;
  private final AccountsInternal accounts;
  private final Sessions sessions;
  private final RateLimiter limiter;
  private final Map<String, Provider> providers;
  private final int maxTargets;

  Deliveries(Vertx vertx, DeliverySettings settings, Steps steps, Map<String, Provider> providers) {
    this.vertx = vertx;
    this.settings = settings;
    this.targets = steps.targets();
    this.preferences = steps.preferences();
    this.accounts = steps.accounts();
    this.sessions = steps.sessions();
    this.limiter = steps.limiter();
    this.providers = providers;
    this.maxTargets = steps.maxTargets();
  }

  /** What delivery consults, gathered so that the constructor stays readable. */
  record Steps(TargetRecords targets, Preferences preferences, AccountsInternal accounts, Sessions sessions,
               RateLimiter limiter, int maxTargets) {
  }

  /** Handles one event of the notifications stream. */
  Future<Void> handle(DomainEvent event) {
    if (!NotificationStored.class.getSimpleName().equals(event.type())) {
      return Future.succeededFuture();
    }
    NotificationStored stored = NotificationStored.fromJson(event.payload());
    long user = stored.userId();
    if (user < 1) {
      return Future.succeededFuture();
    }
    String type = stored.notification().getString("type", "");
    return recipient(user)
        .compose(recipient -> !reachable(recipient) ? Future.<Void>succeededFuture() : deliver(user, type, prefs ->
            Render.of(stored.notification(), stored.unreadTotal(), prefs.getBoolean("previews", true),
                recipient.getString("locale"))))
        .recover(e -> {
          if (storeAway(e)) {
            // nothing was sent (the reads before any send failed): left unacknowledged, the event log delivers the
            // event again once the store is back, instead of the push being lost
            LOG.warn("push of notification {} to user {} waits for a store (will be retried): {}",
                stored.notification().getLong("id"), user, e.toString());
            return Future.failedFuture(e);
          }
          LOG.warn("push of notification {} to user {} failed: {}", stored.notification().getLong("id"), user,
              e.toString());
          return Future.succeededFuture();
        });
  }

  /**
   * Accounts' {@code {online, locale}} of {@code user}. When every user is pushed to, presence is not needed and the
   * locale only chooses the language: a node that cannot ask accounts (no accounts module in the cluster) pushes in
   * English rather than not at all; a 503 still waits for the store like the other reads.
   */
  private Future<JsonObject> recipient(long user) {
    Future<JsonObject> asked = accounts.recipientsAmong(List.of(user))
        .map(r -> r.getJsonObject(Long.toString(user), new JsonObject()));
    return settings.offlineOnly() ? asked
        : asked.recover(e -> storeAway(e) ? Future.failedFuture(e) : Future.succeededFuture(new JsonObject()));
  }

  /** Whether {@code e} is a store or service that is away for now (503), rather than a refusal. */
  static boolean storeAway(Throwable e) {
    return e instanceof io.vertx.core.eventbus.ReplyException re && re.failureCode() == 503;
  }

  /**
   * The steps after "who", shared by every source: the user's preferences let {@code kind} push now (not off, not
   * quiet hours), the user is within the rate, then every target gets what {@code render} makes of the preferences.
   */
  Future<Void> deliver(long user, String kind, Function<JsonObject, PushMessage> render) {
    return preferences.of(user).compose(prefs -> !wanted(kind, prefs) ? Future.<Void>succeededFuture()
        : withinRate(user).compose(ok -> ok ? sendAll(user, render.apply(prefs)) : Future.succeededFuture()));
  }

  /** Offline users only, unless every user is pushed to ({@code recipient} is accounts' {@code {online, locale}}). */
  private boolean reachable(JsonObject recipient) {
    return !settings.offlineOnly() || !recipient.getBoolean("online", false);
  }

  private static boolean wanted(String kind, JsonObject prefs) {
    return !prefs.getJsonArray("kinds_off").contains(kind) && !Preferences.quiet(prefs, Instant.now());
  }

  private Future<Boolean> withinRate(long user) {
    return limiter.take(DeliveryPart.rateKey(user), MINUTE_MS, settings.perMinute(), 1).map(t -> t.taken());
  }

  private Future<Void> sendAll(long user, PushMessage message) {
    return targets.of(user, maxTargets).compose(list -> {
      List<Future<Void>> sends = new ArrayList<>();
      for (JsonObject target : list) {
        sends.add(toTarget(user, target, message));
      }
      return Future.join(sends).<Void>mapEmpty().recover(e -> Future.succeededFuture());
    });
  }

  /**
   * A target whose session ended is dropped unsent, whatever its kind: a missed revocation notice never reaches a
   * logged-out device. A kind whose provider is off is skipped.
   */
  private Future<Void> toTarget(long user, JsonObject target, PushMessage message) {
    long id = target.getLong("_id");
    Provider provider = providers.get(target.getString("kind"));
    return sessions.isActive(user, target.getString("session")).compose(alive -> {
      if (!alive) {
        return targets.remove(user, id).mapEmpty();
      }
      if (provider == null) {
        return Future.succeededFuture();
      }
      return attempt(provider, target, message, 1).compose(outcome -> {
        if (outcome == Provider.Outcome.GONE) {
          LOG.info("push target {} of user {} is gone at {}: removed", id, user, provider.kind());
          return targets.remove(user, id).mapEmpty();
        }
        if (outcome != Provider.Outcome.SENT) {
          LOG.warn("push to target {} of user {} not sent ({}: {})", id, user, provider.kind(), outcome);
        }
        return Future.succeededFuture();
      });
    });
  }

  /** Tries up to {@code push.attempts} times, waiting {@code retry-base-ms} doubled between tries. */
  private Future<Provider.Outcome> attempt(Provider provider, JsonObject target, PushMessage message, int n) {
    Future<Provider.Outcome> sent;
    try {
      sent = provider.send(target, message);
    } catch (RuntimeException e) {
      sent = Future.failedFuture(e);
    }
    return sent.timeout(settings.timeoutMs(), TimeUnit.MILLISECONDS)
        .recover(e -> Future.succeededFuture(Provider.Outcome.RETRY)).compose(outcome -> {
      if (outcome != Provider.Outcome.RETRY || n >= settings.attempts()) {
        return Future.succeededFuture(outcome);
      }
      long wait = settings.retryBaseMs() << Math.min(n - 1, 16);
      return vertx.timer(wait).compose(v -> attempt(provider, target, message, n + 1));
    });
  }
}
