package io.kith.notifications.service;

import io.kith.platform.Platform;
import io.kith.platform.events.ErasureSteps;
import io.kith.platform.events.ErasureSteps.Step;
import io.kith.platform.events.Erasures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Response;

import java.util.List;
import java.util.Map;

/**
 * Erases a deleted account's notifications when accounts' {@code AccountDeleted} arrives (consumer group
 * {@value #GROUP}, {@code once}-guarded), in idempotent steps run by the platform's {@link ErasureSteps} and recorded
 * in {@link Erasures} (domain {@value #DOMAIN}; a step the report holds is skipped, so a crashed erasure resumes):
 * <ol>
 *   <li>{@code received}: every notification the user received, from MongoDB, then their whole Redis side (counters
 *   and generation included);</li>
 *   <li>{@code caused}: every notification the user caused for others ({@code from_user}), a batch at a time: taken
 *   out of each recipient's Redis side, deleted from MongoDB, then the recipient's counters recounted from MongoDB
 *   (the side is dropped and rebuilt) and pushed to them;</li>
 *   <li>{@code preferences}: the user's preferences; {@code muted_by_others}: the user in others' muted users;</li>
 *   <li>{@code rate_limits}: the user's mark-read window.</li>
 * </ol>
 */
final class Erasure {

  /** Consumer group of this module on the accounts stream. */
  static final String GROUP = "notifications-erasure";
  /** The domain name of the erasure reports. */
  static final String DOMAIN = "notifications";

  private final Platform platform;
  private final NotificationRecords records;
  private final HotStore hot;
  private final Pushes pushes;
  private final Erasures erasures;

  Erasure(Platform platform, NotificationRecords records, HotStore hot, Pushes pushes) {
    this.platform = platform;
    this.records = records;
    this.hot = hot;
    this.pushes = pushes;
    this.erasures = new Erasures(platform.mongo());
  }

  /** Every step the report does not hold yet, in order; then the report is finished. */
  Future<JsonObject> erase(long user) {
    return ErasureSteps.run(erasures, DOMAIN, user, List.of(
        new Step("received", "notifications", this::received),
        new Step("caused", "notifications_caused", this::caused),
        new Step("preferences", "preferences", records::deletePreferences),
        new Step("muted_by_others", "mutes", records::unmuteEverywhere),
        new Step("rate_limits", "rate_limits", this::rateLimits)));
  }

  /** The record first, then the side: a read in between rebuilds nothing, it finds the side still there. */
  private Future<Long> received(long user) {
    return records.deleteReceived(user).compose(n -> hot.erase(user).map(n));
  }

  /** Batches of what the user caused for others, until none is left; answers how many went. */
  private Future<Long> caused(long user) {
    return records.find(new JsonObject().put("from_user", user)).compose(found -> {
      if (found.isEmpty()) {
        return Future.succeededFuture(0L);
      }
      Future<Void> chain = Future.succeededFuture();
      for (Map.Entry<Long, List<Long>> e : SystemChanges.idsByUser(found).entrySet()) {
        chain = chain.compose(v -> withdraw(e.getKey(), e.getValue()));
      }
      return chain.compose(v -> found.size() < NotificationRecords.PURGE_BATCH ? Future.succeededFuture(0L)
          : caused(user)).map(more -> more + found.size());
    });
  }

  /**
   * Takes {@code ids} from {@code recipient}: out of the Redis side first (so a crash before the record's delete
   * leaves both stores agreeing, and the step run again finds the records), then out of the record, then the side is
   * dropped and rebuilt from the record (a recount) and the new counts pushed.
   */
  private Future<Void> withdraw(long recipient, List<Long> ids) {
    return hot.removeIfPresent(recipient, ids)
        .compose(c -> records.delete(recipient, ids))
        .compose(v -> hot.invalidate(recipient))
        .compose(v -> hot.counts(recipient))
        .map(counts -> {
          pushes.counts(recipient, new HotStore.Change(ids, counts));
          return null;
        });
  }

  private Future<Long> rateLimits(long user) {
    return RedisAPI.api(platform.redis()).del(List.of(Changes.markReadKey(user))).map(Response::toLong);
  }
}
