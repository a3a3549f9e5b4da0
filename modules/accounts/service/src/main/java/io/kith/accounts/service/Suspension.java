package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.token.Sessions;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Suspensions that moderation decides (through {@code AccountsInternal}): the account member {@value #FIELD}
 * {@code {until, reason, at, appeal_hash?, appeal_expires?}} ({@code until} 0 = permanent). While it is in force the
 * account is hidden exactly like one pending deletion ({@link ProfileCache#getAll} and the {@link AccountStore}
 * reads leave it out, so profiles, summaries, lookups, search and everything built on them answer as for a missing
 * user) and its login opens no session. The end is
 * compared at every read, so a suspension whose time passed is over without a sweeper; the member stays until the next
 * suspension or an unsuspend replaces it.
 */
final class Suspension {

  /** The account member that holds the latest suspension. */
  static final String FIELD = "suspension";
  /** How long the appeal token of a suspended account's login lives. */
  static final int APPEAL_TOKEN_SECONDS = 3_600;

  private final Platform platform;
  private final MongoClient mongo;
  private final ProfileCache cache;
  private final KnownDevices devices;
  private final CodeStore codes;
  private final Messenger messenger;

  Suspension(Platform platform, ProfileCache cache, KnownDevices devices, CodeStore codes, Messenger messenger) {
    this.platform = platform;
    this.mongo = platform.mongo();
    this.cache = cache;
    this.devices = devices;
    this.codes = codes;
    this.messenger = messenger;
  }

  /** Whether an account document is suspended now. */
  static boolean active(JsonObject account) {
    JsonObject s = account == null ? null : account.getJsonObject(FIELD);
    if (s == null) {
      return false;
    }
    long until = s.getLong("until", 0L);
    return until == 0 || until > System.currentTimeMillis();
  }

  /**
   * The accounts of a store read that are not suspended now: a suspension's end is a time, so it is compared here
   * rather than in the query that keeps out pending deletions.
   */
  static List<JsonObject> withoutSuspended(List<JsonObject> accounts) {
    return accounts.stream().filter(a -> !active(a)).toList();
  }

  /** Suspends the account until {@code untilMillis} (0 = permanent): hidden, signed out everywhere, told by mail. */
  Future<Void> suspend(long userId, long untilMillis, String reason) {
    JsonObject mark = new JsonObject().put("until", Math.max(0, untilMillis)).put("reason", reason)
        .put("at", System.currentTimeMillis());
    return changed(new JsonObject().put("_id", userId).mergeIn(Deletion.HIDDEN),
            new JsonObject().put("$set", new JsonObject().put(FIELD, mark)))
        .compose(account -> account == null
            ? Failures.<Void>fail(AccountsErrors.USER_NOT_FOUND, "no such user")
            // the device tokens go first, as in a logout everywhere: no token outlives the sessions
            : devices.forget(userId).compose(v -> platform.sessions().revokeAll(userId)).onSuccess(v ->
                messenger.tellAccount(account, "account_suspended", Map.of("reason", reason,
                    "until", untilMillis <= 0 ? "permanently" : "until " + Instant.ofEpochMilli(untilMillis)))));
  }

  /** Ends the suspension in force, if any. */
  Future<Void> unsuspend(long userId) {
    return changed(new JsonObject().put("_id", userId).put(FIELD, new JsonObject().put("$exists", true)),
        new JsonObject().put("$unset", new JsonObject().put(FIELD, ""))).mapEmpty();
  }

  // one versioned write whose result replaces the cached copy at once, so that readers see the change (limits too)
  Future<JsonObject> changed(JsonObject query, JsonObject update) {
    return mongo.findOneAndUpdateWithOptions(AccountStore.COLLECTION, query,
            update.copy().put("$inc", new JsonObject().put(AccountStore.VERSION, 1)),
            new FindOptions().setFields(new JsonObject().put("password", 0)),
            new UpdateOptions().setReturningNewDocument(true))
        .compose(account -> account == null ? Future.succeededFuture((JsonObject) null)
            : cache.put(account).map(account));
  }

  /**
   * The answer of a login whose password was right for a suspended account: no session, but 403
   * {@code account_suspended} with {@code suspended_until} (null when permanent), {@code reason}, and an
   * {@code appeal_token} (with {@code expires_in}) with which the user may file their one appeal.
   */
  Future<JsonObject> refusedLogin(JsonObject account) {
    JsonObject mark = account.getJsonObject(FIELD);
    String token = codes.newToken();
    long expires = System.currentTimeMillis() + APPEAL_TOKEN_SECONDS * 1000L;
    long until = mark.getLong("until", 0L);
    JsonObject extra = new JsonObject().put("suspended_until", until == 0 ? null : until)
        .put("reason", mark.getString("reason")).put("appeal_token", token)
        .put("expires_in", (long) APPEAL_TOKEN_SECONDS);
    // not versioned: the hash is no part of what readers see
    return mongo.updateCollection(AccountStore.COLLECTION, new JsonObject().put("_id", account.getLong("_id")),
            new JsonObject().put("$set", new JsonObject().put(FIELD + ".appeal_hash", Sessions.sha256(token))
                .put(FIELD + ".appeal_expires", expires)))
        .compose(r -> Future.failedFuture(Failures.withExtra(AccountsErrors.ACCOUNT_SUSPENDED,
            "this account is suspended" + (until == 0 ? "" : " until " + Instant.ofEpochMilli(until)), extra)));
  }

  /** The suspended user an appeal token belongs to while it is valid and the suspension in force; 0 otherwise. */
  Future<Long> suspendedBy(String token) {
    if (token == null || token.isBlank() || token.length() > 100) {
      return Future.succeededFuture(0L);
    }
    JsonObject query = new JsonObject().put(FIELD + ".appeal_hash", Sessions.sha256(token))
        .put(FIELD + ".appeal_expires", new JsonObject().put("$gt", System.currentTimeMillis()));
    return mongo.findOne(AccountStore.COLLECTION, query, new JsonObject().put(FIELD, 1))
        .map(account -> active(account) ? account.getLong("_id") : 0L);
  }
}
