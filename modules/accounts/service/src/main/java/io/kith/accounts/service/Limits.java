package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Limits that moderation decides (through {@code AccountsInternal}): the account member {@value #FIELD}
 * {@code {until, reason, at}} ({@code until} 0 = permanent). A limited account stays visible and signed in; the
 * limit only narrows its reach: people search and nearby leave it out here, and other domains ask
 * {@link #limitedAmong} (feeds for its public timeline, messaging before a direct message). The state has one home,
 * the account document and its cached copy, so no domain keeps a copy to rebuild; like a suspension, the end is
 * compared at every read and needs no sweeper.
 */
final class Limits {

  /** The account member that holds the limit in force. */
  static final String FIELD = "limit";

  private final Suspension writes;
  private final ProfileCache cache;

  Limits(Suspension writes, ProfileCache cache) {
    this.writes = writes;
    this.cache = cache;
  }

  /** Whether an account document is limited now. */
  static boolean active(JsonObject account) {
    JsonObject limit = account == null ? null : account.getJsonObject(FIELD);
    if (limit == null) {
      return false;
    }
    long until = limit.getLong("until", 0L);
    return until == 0 || until > System.currentTimeMillis();
  }

  /** Limits the account until {@code untilMillis} (0 = permanent). */
  Future<Void> limit(long userId, long untilMillis, String reason) {
    JsonObject mark = new JsonObject().put("until", Math.max(0, untilMillis)).put("reason", reason)
        .put("at", System.currentTimeMillis());
    return writes.changed(new JsonObject().put("_id", userId).mergeIn(Deletion.HIDDEN),
            new JsonObject().put("$set", new JsonObject().put(FIELD, mark)))
        .compose(account -> account == null
            ? Failures.<Void>fail(AccountsErrors.USER_NOT_FOUND, "no such user")
            : Future.<Void>succeededFuture());
  }

  /** Ends the limit in force, if any. */
  Future<Void> unlimit(long userId) {
    return writes.changed(new JsonObject().put("_id", userId).put(FIELD, new JsonObject().put("$exists", true)),
        new JsonObject().put("$unset", new JsonObject().put(FIELD, ""))).mapEmpty();
  }

  /** {@code {"<id>": true}} for each of these users limited now. */
  Future<JsonObject> limitedAmong(List<Long> userIds) {
    if (userIds == null || userIds.size() > AccountsServiceImpl.MAX_IDS) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "ids", "at most " + AccountsServiceImpl.MAX_IDS + " ids");
    }
    return cache.getAll(userIds).map(found -> {
      JsonObject out = new JsonObject();
      found.forEach((id, account) -> {
        if (active(account)) {
          out.put(Long.toString(id), true);
        }
      });
      return out;
    });
  }
}
