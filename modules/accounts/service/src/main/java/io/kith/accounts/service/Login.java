package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.metrics.KithMetrics;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Locale;
import java.util.Map;

import static io.kith.accounts.service.Inputs.address;
import static io.kith.accounts.service.Inputs.optionalText;
import static io.kith.accounts.service.Inputs.stringField;

/**
 * Logging in by username, email or phone with the failed-attempt throttles per address and per account (or, for a
 * device that presents its device token, per account and device), and changing the password (which ends every
 * session and forgets every device).
 */
final class Login {

  private static final Logger LOG = LoggerFactory.getLogger(Login.class);

  private final Platform platform;
  private final AccountsSettings settings;
  private final AccountStore store;
  private final Passwords passwords;
  private final RateLimiter limiter;
  private final Quotas quotas;
  private final LastActive lastActive;
  private final KnownDevices devices;
  private final Messenger messenger;
  private final Deletion deletion;
  private final Suspension suspension;

  Login(Platform platform, AccountsSettings settings, AccountStore store, Passwords passwords, RateLimiter limiter,
        Quotas quotas, LastActive lastActive, KnownDevices devices, Messenger messenger, Deletion deletion,
        Suspension suspension) {
    this.messenger = messenger;
    this.platform = platform;
    this.settings = settings;
    this.store = store;
    this.passwords = passwords;
    this.limiter = limiter;
    this.quotas = quotas;
    this.lastActive = lastActive;
    this.devices = devices;
    this.deletion = deletion;
    this.suspension = suspension;
  }

  /**
   * One login attempt: the account found (null when none), what was sent, its two failure counters (the second is
   * the account's, or the known device's) and the known device's token as presented (null when none).
   */
  private record Attempt(JsonObject account, String password, String device, String addressKey, String accountKey,
                         String knownToken) {
  }

  Future<JsonObject> login(JsonObject request, String clientAddress) {
    return counted(Failures.guard(() -> {
      JsonObject req = request == null ? new JsonObject() : request;
      String login = stringField(req, "login").trim();
      String password = stringField(req, "password");
      String device = optionalText(req, "device", 100);
      // a value that is not a string or not of the issued form is ignored, like an unknown token
      String deviceToken = req.getValue("device_token") instanceof String t ? t : null;
      String deviceHash = KnownDevices.hashOf(deviceToken);
      if (login.isEmpty() || login.length() > 254 || password.length() > Passwords.MAX_LENGTH) {
        return Failures.fail(AccountsErrors.INVALID_CREDENTIALS, "wrong login or password");
      }
      String[] key = loginKey(login);
      String addressKey = "rl:accounts:login-fail:addr:" + address(clientAddress);
      return Identifiers.find(store, login, !settings.loginRequiresVerified()).compose(account -> {
        Long id = account == null ? null : account.getLong("_id");
        // an unknown identifier is throttled as typed, a known one by its account: a login by email after the
        // account's username was throttled is refused only if the email is that account's
        String accountKey = "rl:accounts:login-fail:acct:" + (id != null ? id : key[0] + ":" + key[1]);
        return knownDevice(id, deviceHash).map(known -> known
                ? new Attempt(account, password, device, addressKey, KnownDevices.throttleKey(id, deviceHash),
                    deviceToken)
                : new Attempt(account, password, device, addressKey, accountKey, null))
            .compose(this::attempt);
      });
    }));
  }

  /** Counts a login and a refused one (a wrong password or a throttle; not a busy or failing node) on the meters. */
  private Future<JsonObject> counted(Future<JsonObject> outcome) {
    return outcome.onComplete(ar -> {
      String code = ar.failed() ? Failures.codeOf(ar.cause()) : null;
      if (ar.succeeded()) {
        platform.metrics().counter(KithMetrics.LOGINS, "Successful logins").increment();
      } else if (AccountsErrors.INVALID_CREDENTIALS.code().equals(code)
          || AccountsErrors.LOGIN_THROTTLED.code().equals(code)) {
        platform.metrics().counter(KithMetrics.LOGINS_FAILED, "Refused logins").increment();
      }
    });
  }

  /**
   * Whether the presented device token is one the account issued. Looked up (as user 0) even when the identifier
   * names no account, so that the answer takes the same path either way.
   */
  private Future<Boolean> knownDevice(Long accountId, String deviceHash) {
    return deviceHash == null ? Future.succeededFuture(false)
        : devices.belongs(accountId == null ? 0 : accountId, deviceHash);
  }

  private Future<JsonObject> attempt(Attempt a) {
    long windowMillis = settings.loginWindowSeconds() * 1000L;
    // the attempt is counted before the password is checked, so parallel guesses cannot all pass the check;
    // the address first, so that a throttled address cannot drive accounts' counters up
    String throttled = "too many failed logins; retry later";
    return countAttempt(a.addressKey(), settings.loginMaxFailuresPerAddress(), windowMillis, throttled)
        .compose(v -> countAttempt(a.accountKey(), settings.loginMaxFailuresPerAccount(), windowMillis, throttled))
        .compose(v -> checked(a))
        .compose(ok -> ok ? signedIn(a)
            // a tombstone keeps no password: its username answers that the account is gone
            : Deletion.erased(a.account()) ? Failures.<JsonObject>fail(AccountsErrors.ACCOUNT_DELETED,
                "this account was deleted")
            : Failures.<JsonObject>fail(AccountsErrors.INVALID_CREDENTIALS, "wrong login or password"));
  }

  private Future<Boolean> checked(Attempt a) {
    return passwords.verify(a.password(), a.account() == null ? null : a.account().getString("password"))
        // not checked (busy, a failure): the attempt does not count
        .recover(e -> quotas.giveBack(a.addressKey()).compose(x -> quotas.giveBack(a.accountKey()))
            .transform(x -> Future.failedFuture(e)));
  }

  private Future<JsonObject> signedIn(Attempt a) {
    long userId = a.account().getLong("_id");
    if (Deletion.marked(a.account())) {
      // no session for an account pending deletion: only a token that can cancel it
      return limiter.reset(a.accountKey()).compose(v -> deletion.pendingLogin(a.account()));
    }
    if (Suspension.active(a.account())) {
      return limiter.reset(a.accountKey()).compose(v -> suspension.refusedLogin(a.account()));
    }
    upgradeHash(userId, a.password(), a.account().getString("password"));
    // a success clears its own counter (a known device's success leaves the account's failures, so that an attacker
    // gains no guesses from the owner's logins) and does not count against the address
    return limiter.reset(a.accountKey())
        .compose(v -> quotas.giveBack(a.addressKey()))
        .compose(v -> lastActive.touched(userId))
        .compose(v -> a.knownToken() != null
            ? devices.used(userId, KnownDevices.hashOf(a.knownToken())).map(a.knownToken())
            : devices.issue(userId))
        .compose(issued -> platform.sessions().open(userId, a.device())
            .map(tokens -> tokens.toJson().put("device_token", issued)));
  }

  /**
   * After a successful login, replaces a hash made at another Argon2id cost with one at the current cost, in the
   * background (the login does not wait), unless the password changed meanwhile. Hashes thus follow the configured
   * cost, and verifying an existing account costs what checking the dummy hash of an unknown one costs.
   */
  private void upgradeHash(long userId, String password, String stored) {
    if (!passwords.outdated(stored)) {
      return;
    }
    passwords.hash(password).compose(fresh -> store.rehash(userId, stored, fresh))
        .onFailure(e -> LOG.warn("Could not rehash the password of {} at the current cost: {}", userId, e.toString()));
  }

  /**
   * Counts one password attempt in {@code key}'s window, refusing it with 429 {@code login_throttled} when the count
   * passes {@code max}. Attempts are counted before verification and stay counted when the password is wrong.
   */
  private Future<Void> countAttempt(String key, int max, long windowMillis, String detail) {
    return limiter.hit(key, windowMillis).compose(window -> window.count() > max
        ? Future.failedFuture(Failures.withExtra(AccountsErrors.LOGIN_THROTTLED, detail,
            new JsonObject().put("retry_after", window.retryAfterSeconds())))
        : Future.succeededFuture());
  }

  /** Which stored key a login identifier is looked up by: email, phone or username. */
  static String[] loginKey(String login) {
    if (login.contains("@")) {
      return new String[] {"email_lc", login.toLowerCase(Locale.ROOT)};
    }
    char first = login.charAt(0);
    String phone = Profiles.normalisePhone(login);
    if (phone != null && (first == '+' || Character.isDigit(first))) {
      return new String[] {"phone", phone};
    }
    return new String[] {"username_lc", login.toLowerCase(Locale.ROOT)};
  }

  Future<Void> changePassword(long actor, String currentPassword, String newPassword) {
    return store.byId(actor).compose(account -> {
      if (account == null) {
        return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
      }
      String violation = passwords.policyViolation(newPassword, account.getString("username"));
      if (violation != null) {
        return Failures.failField(AccountsErrors.WEAK_PASSWORD, "new_password", violation);
      }
      return passwordConfirmed(actor, currentPassword, "current_password")
          .compose(v -> replacePassword(actor, account, newPassword));
    });
  }

  /**
   * Checks the actor's password for a sensitive request (deletion) under the same per-account throttle as a password
   * change: {@code validation_failed} when absent, {@code invalid_credentials} on {@code password} when wrong.
   */
  Future<Void> checkPassword(long actor, String password) {
    if (password == null || password.isEmpty()) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "password", "password is required");
    }
    return passwordConfirmed(actor, password, "password");
  }

  /**
   * Checks the actor's own password before a sensitive change; a wrong one fails with {@code invalid_credentials}
   * naming {@code field}, and counts in the account's failed-login window (429 {@code login_throttled} past it), so a
   * stolen access token gives no more guesses than the login form. A right one clears the account's failures.
   */
  Future<Void> passwordConfirmed(long actor, String password, String field) {
    String accountKey = "rl:accounts:login-fail:acct:" + actor;
    if (password == null || password.length() > Passwords.MAX_LENGTH) {
      return Failures.failField(AccountsErrors.INVALID_CREDENTIALS, field, "the password is wrong");
    }
    return countAttempt(accountKey, settings.loginMaxFailuresPerAccount(), settings.loginWindowSeconds() * 1000L,
            "too many wrong passwords; retry later")
        .compose(v -> store.passwordOf(actor).compose(hash -> passwords.verify(password, hash))
            .recover(e -> quotas.giveBack(accountKey).transform(x -> Future.failedFuture(e))))
        .compose(ok -> ok ? limiter.reset(accountKey)
            : Failures.<Void>failField(AccountsErrors.INVALID_CREDENTIALS, field, "the password is wrong"));
  }

  /**
   * After the current password checked: stores the new hash, ends every session and device token, and tells the
   * account (its verified email, else its verified phone) that the password changed, so that an owner whose session
   * was used by someone else learns of it.
   */
  private Future<Void> replacePassword(long actor, JsonObject account, String newPassword) {
    return passwords.hash(newPassword)
        .compose(hash -> store.setPassword(actor, hash))
        .compose(v -> logoutEverywhere(actor))
        .onSuccess(v -> messenger.tellAccount(account, "password_changed", Map.of()));
  }

  /**
   * Ends every session of the actor and forgets every device token, so that a stolen token no longer gets its own
   * throttle. The tokens go first: a failure in between leaves sessions, never a token outliving a logout.
   */
  Future<Void> logoutEverywhere(long actor) {
    return devices.forget(actor).compose(v -> platform.sessions().revokeAll(actor));
  }
}
