package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.platform.Platform;
import io.kith.platform.config.Bounds;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.token.Sessions;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.time.Instant;
import java.util.Map;

/**
 * Scheduling and cancelling the deletion of one's account. Asking (with the password) marks the account
 * {@code deletion.state = pending} with its due time, ends every session and device token at once and mails the
 * verified email; from then on the account is hidden from everyone (see {@link #HIDDEN}) and its login opens no
 * session but answers {@code pending_deletion} with a short-lived cancel token. {@link DeletionSweeper} erases the
 * account once it is due.
 */
final class Deletion {

  /** The account member that marks a pending or erased account. */
  static final String FIELD = "deletion";
  /** A query clause that keeps out pending and erased accounts: they answer like missing ones to everyone. */
  static final JsonObject HIDDEN = new JsonObject().put(FIELD, new JsonObject().put("$exists", false));
  static final String PENDING = "pending";
  static final String ERASING = "erasing";
  static final String ERASED = "erased";
  /** How long the cancel token of a pending account's login lives. */
  static final int CANCEL_TOKEN_SECONDS = 900;

  private static final long DAY_MILLIS = 86_400_000L;

  /**
   * The deletion settings of the {@code accounts} section.
   *
   * @param graceDays    days between the request and the erasure ({@code accounts.deletion-grace-days}); 0 erases at
   *                     the next sweep
   * @param sweepSeconds how often each node looks for due accounts ({@code accounts.deletion-sweep-seconds})
   * @param leaseSeconds how long a node's claim on an account lasts before another node resumes its erasure
   *                     ({@code accounts.deletion-lease-seconds})
   */
  record Settings(int graceDays, int sweepSeconds, int leaseSeconds) {

    static Settings from(JsonObject section) {
      Bounds b = Bounds.of("accounts", section);
      return new Settings(b.within("deletion-grace-days", 0, 365), b.within("deletion-sweep-seconds", 1, 86_400),
          b.within("deletion-lease-seconds", 10, 86_400));
    }
  }

  private final Platform platform;
  private final Settings settings;
  private final MongoClient mongo;
  private final ProfileCache cache;
  private final KnownDevices devices;
  private final CodeStore codes;
  private final Messenger messenger;

  Deletion(Platform platform, Settings settings, ProfileCache cache, KnownDevices devices, CodeStore codes,
           Messenger messenger) {
    this.platform = platform;
    this.settings = settings;
    this.mongo = platform.mongo();
    this.cache = cache;
    this.devices = devices;
    this.codes = codes;
    this.messenger = messenger;
  }

  /** Whether an account document is pending deletion or erased. */
  static boolean marked(JsonObject account) {
    return account != null && account.getJsonObject(FIELD) != null;
  }

  /** Whether an account document is the tombstone of an erased account (or one being erased). */
  static boolean erased(JsonObject account) {
    return marked(account) && !PENDING.equals(account.getJsonObject(FIELD).getString("state"));
  }

  /**
   * Schedules the deletion of the actor's account, whose password the caller checked: marks it, ends every session
   * and device token, and mails the verified email.
   *
   * @return {@code {pending_deletion: true, deletion_at}}
   */
  Future<JsonObject> schedule(long actor, String acceptLanguage) {
    long now = System.currentTimeMillis();
    long due = now + settings.graceDays() * DAY_MILLIS;
    JsonObject mark = new JsonObject().put("state", PENDING).put("requested_at", now).put("due_at", due);
    return mongo.findOneAndUpdateWithOptions(AccountStore.COLLECTION,
            new JsonObject().put("_id", actor).mergeIn(HIDDEN),
            new JsonObject().put("$set", new JsonObject().put(FIELD, mark)).put("$inc",
                new JsonObject().put(AccountStore.VERSION, 1)),
            new FindOptions().setFields(new JsonObject().put("password", 0)),
            new UpdateOptions().setReturningNewDocument(true))
        .compose(account -> account == null
            ? Failures.<JsonObject>fail(AccountsErrors.ACCOUNT_PENDING_DELETION, "the account is already scheduled")
            // the cached copy must carry the mark at once, or other users would still see the profile
            : cache.put(account)
                .compose(v -> devices.forget(actor))
                .compose(v -> platform.sessions().revokeAll(actor))
                .map(v -> {
                  tell(account, due, acceptLanguage);
                  return new JsonObject().put("pending_deletion", true).put("deletion_at", due);
                }));
  }

  /** Mails the verified email (if any) that the deletion was scheduled and how to cancel it. */
  private void tell(JsonObject account, long due, String acceptLanguage) {
    String email = account.getString("email");
    if (email != null) {
      messenger.send("email", email, "deletion_scheduled", Messages.locale(account.getString("locale"), acceptLanguage),
          Map.of("username", account.getString("username", ""), "date", Instant.ofEpochMilli(due).toString()));
    }
  }

  /**
   * The answer of a login whose password was right for an account pending deletion: no session, but 403
   * {@code account_pending_deletion} carrying {@code pending_deletion, deletion_at, deletion_token, expires_in}, the
   * token for {@code POST /me/deletion/cancel}. An erased account is refused with {@code account_deleted}.
   */
  Future<JsonObject> pendingLogin(JsonObject account) {
    long id = account.getLong("_id");
    JsonObject mark = account.getJsonObject(FIELD);
    if (!PENDING.equals(mark.getString("state"))) {
      return Failures.fail(AccountsErrors.ACCOUNT_DELETED, "this account was deleted");
    }
    String token = codes.newToken();
    long expires = System.currentTimeMillis() + CANCEL_TOKEN_SECONDS * 1000L;
    return mongo.updateCollection(AccountStore.COLLECTION,
            new JsonObject().put("_id", id).put(FIELD + ".state", PENDING),
            new JsonObject().put("$set", new JsonObject().put(FIELD + ".cancel_hash", Sessions.sha256(token))
                .put(FIELD + ".cancel_expires", expires)))
        .compose(r -> r.getDocMatched() == 0
            ? Failures.<JsonObject>fail(AccountsErrors.ACCOUNT_DELETED, "this account was deleted")
            // a problem rather than a 200 of another shape: generated clients keep one login answer type
            : Future.failedFuture(Failures.withExtra(AccountsErrors.ACCOUNT_PENDING_DELETION,
                "this account is scheduled for deletion; cancel it with the deletion token",
                new JsonObject().put("pending_deletion", true).put("deletion_at", mark.getLong("due_at"))
                    .put("deletion_token", token).put("expires_in", (long) CANCEL_TOKEN_SECONDS))));
  }

  /**
   * Cancels a pending deletion by the cancel token of a login, and logs the account in: the account is visible again
   * and gets a new session and device token. {@code token_invalid} for a wrong, used or expired token, or when the
   * erasure already began.
   *
   * @return the token pair and {@code device_token}, as a login answers
   */
  Future<JsonObject> cancel(String token, String device) {
    if (token == null || token.isBlank() || token.length() > 100) {
      return Failures.fail(KithErrors.TOKEN_INVALID, "the deletion token is wrong or expired; log in again");
    }
    JsonObject query = new JsonObject().put(FIELD + ".state", PENDING)
        .put(FIELD + ".cancel_hash", Sessions.sha256(token))
        .put(FIELD + ".cancel_expires", new JsonObject().put("$gt", System.currentTimeMillis()));
    return mongo.findOneAndUpdateWithOptions(AccountStore.COLLECTION, query,
            new JsonObject().put("$unset", new JsonObject().put(FIELD, "")).put("$inc",
                new JsonObject().put(AccountStore.VERSION, 1)),
            new FindOptions().setFields(new JsonObject().put("password", 0)),
            new UpdateOptions().setReturningNewDocument(true))
        .compose(account -> account == null
            ? Failures.<JsonObject>fail(KithErrors.TOKEN_INVALID, "the deletion token is wrong or expired; log in again")
            : cache.put(account).compose(v -> devices.issue(account.getLong("_id")))
                .compose(issued -> platform.sessions().open(account.getLong("_id"), device)
                    .map(tokens -> tokens.toJson().put("device_token", issued))));
  }
}
