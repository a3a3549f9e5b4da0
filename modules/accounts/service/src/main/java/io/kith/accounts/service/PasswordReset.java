package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.Locale;
import java.util.Map;

import static io.kith.accounts.service.Inputs.address;

/**
 * Resetting a forgotten password with a code sent to the account's email or phone. A request answers the same for an
 * identifier that names no account, after the same work (a code made and hashed, one read of the code store), so
 * neither the answer nor its timing tells whether an account exists; requests are limited per identifier and per
 * client address whether or not it does. A confirmed reset stores the new password, ends every session, clears the
 * failed-login count and tells the account where the code went.
 */
final class PasswordReset {

  static final String PURPOSE = "reset";
  /** The one answer of a reset request. */
  static final JsonObject ACCEPTED = new JsonObject()
      .put("status", "accepted")
      .put("detail", "If an account matches, a code is on its way to its email or phone.");

  private final Platform platform;
  private final AccountsSettings settings;
  private final AccountStore store;
  private final CodeStore codes;
  private final Passwords passwords;
  private final RateLimiter limiter;
  private final Messenger messenger;
  private final KnownDevices devices;

  PasswordReset(Platform platform, AccountsSettings settings, AccountStore store, CodeStore codes,
                Passwords passwords, RateLimiter limiter, Messenger messenger, KnownDevices devices) {
    this.platform = platform;
    this.settings = settings;
    this.store = store;
    this.codes = codes;
    this.passwords = passwords;
    this.limiter = limiter;
    this.messenger = messenger;
    this.devices = devices;
  }

  /** Where a reset code goes: the channel and address. */
  private record Destination(String channel, String to) {
  }

  private static String identifier(String raw) {
    String id = raw == null ? "" : raw.trim();
    if (id.isEmpty() || id.length() > 254) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "identifier",
          "identifier must be the account's username, email or phone");
    }
    return id;
  }

  Future<JsonObject> request(String rawIdentifier, String clientAddress, String acceptLanguage) {
    return Failures.guard(() -> {
      String identifier = identifier(rawIdentifier);
      AccountsSettings.Codes c = settings.verification();
      long window = c.resetWindowSeconds() * 1000L;
      String normal = String.join(":", Login.loginKey(identifier));
      String detail = "too many password reset requests; retry later";
      return limiter.enforce("rl:accounts:reset:addr:" + address(clientAddress), window, c.resetsPerAddress(), detail)
          .compose(v -> limiter.enforce("rl:accounts:reset:id:" + normal.toLowerCase(Locale.ROOT), window,
              c.resetsPerIdentifier(), detail))
          .compose(v -> Identifiers.find(store, identifier, !settings.loginRequiresVerified()))
          .compose(account -> {
            String code = codes.newCode();
            Destination to = account == null ? null : destination(account, identifier);
            if (to == null) {
              // the same work as for an account: a hash made and a read of the code store
              CodeStore.hash(CodeStore.id(0, PURPOSE), code);
              return codes.get(0, PURPOSE).<Void>mapEmpty();
            }
            long user = account.getLong("_id");
            return codes.put(user, PURPOSE, to.to(), code, null,
                    System.currentTimeMillis() + c.resetTtlSeconds() * 1000L)
                .onSuccess(v -> messenger.send(to.channel(), to.to(), "reset_code",
                    Messages.locale(account.getString("locale"), acceptLanguage),
                    Map.of("code", code, "minutes", Verification.minutes(c.resetTtlSeconds()))));
          })
          .map(v -> ACCEPTED.copy());
    });
  }

  /**
   * The identifier itself when it is an email or phone of the account; for a username the verified email, else the
   * verified phone, else an unverified email or phone (an account that never verified one can still be recovered).
   */
  private static Destination destination(JsonObject account, String identifier) {
    String channel = Identifiers.channel(identifier);
    if (channel != null) {
      return new Destination(channel, Login.loginKey(identifier)[1]);
    }
    String[][] order = {{"email", "email_lc"}, {"phone", "phone"}, {"email", Profiles.EMAIL_PENDING},
        {"phone", Profiles.PHONE_PENDING}};
    for (String[] o : order) {
      if (account.getString(o[1]) != null) {
        return new Destination(o[0], account.getString(o[1]));
      }
    }
    return null;
  }

  Future<Void> confirm(String rawIdentifier, String code, String newPassword) {
    return Failures.guard(() -> {
      String identifier = identifier(rawIdentifier);
      return Identifiers.find(store, identifier, !settings.loginRequiresVerified()).compose(account -> {
        if (account == null) {
          return Failures.fail(AccountsErrors.CODE_INVALID, "the code is wrong or was already used; ask for a new one");
        }
        long user = account.getLong("_id");
        String violation = passwords.policyViolation(newPassword, account.getString("username"));
        if (violation != null) {
          return Failures.failField(AccountsErrors.WEAK_PASSWORD, "new_password", violation);
        }
        return Verification.check(codes, settings.verification().maxAttempts(), user, PURPOSE, code)
            .compose(doc -> passwords.hash(newPassword)
                .compose(hash -> store.setPassword(user, hash))
                // a reset says the password was lost: every session ends and no device keeps its own login throttle
                .compose(v -> devices.forget(user))
                .compose(v -> platform.sessions().revokeAll(user))
                .compose(v -> limiter.reset("rl:accounts:login-fail:acct:" + user))
                .onSuccess(v -> tellReset(account, doc.getString("target"))));
      });
    });
  }

  private void tellReset(JsonObject account, String target) {
    String channel = target.contains("@") ? "email" : "phone";
    messenger.send(channel, target, "password_reset", Messages.locale(account.getString("locale"), null),
        Map.of("username", account.getString("username")));
  }
}
