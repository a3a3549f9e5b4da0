package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.Map;

/**
 * Confirming one's deletion by a fresh code instead of the password: the code goes to a verified email or phone of
 * the account (purpose {@value #PURPOSE} in the code store, same lifetime, attempts and send limits as verification
 * codes); {@code DELETE /me {code}} then schedules the deletion as the password does.
 */
final class DeletionCode {

  static final String PURPOSE = "deletion";

  private final AccountsSettings.Codes settings;
  private final AccountStore store;
  private final CodeStore codes;
  private final RateLimiter limiter;
  private final Messenger messenger;

  DeletionCode(AccountsSettings.Codes settings, AccountStore store, CodeStore codes, RateLimiter limiter,
               Messenger messenger) {
    this.settings = settings;
    this.store = store;
    this.codes = codes;
    this.limiter = limiter;
    this.messenger = messenger;
  }

  /** Sends a code to the verified identifier of {@code channel} (null: the email, else the phone). */
  Future<JsonObject> send(long actor, String channel, String acceptLanguage) {
    if (channel != null && !channel.equals("email") && !channel.equals("phone")) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "channel", "channel must be email or phone");
    }
    return store.byId(actor).compose(account -> {
      String ch = channel != null ? channel : account != null && account.getString("email") != null ? "email" : "phone";
      String to = account == null || Deletion.marked(account) ? null : account.getString(ch);
      if (to == null) {
        return Failures.fail(AccountsErrors.NOTHING_TO_VERIFY,
            "the account has no verified " + ch + " to send a deletion code to; confirm with the password");
      }
      long window = settings.sendWindowSeconds() * 1000L;
      String code = codes.newCode();
      return limiter.enforce("rl:accounts:verify:user:" + actor, window, settings.sendsPerUser(),
              "too many codes sent; retry later")
          .compose(v -> codes.put(actor, PURPOSE, to, code, null,
              System.currentTimeMillis() + settings.ttlSeconds() * 1000L))
          .map(v -> {
            messenger.send(ch, to, "deletion_code", Messages.locale(account.getString("locale"), acceptLanguage),
                Map.of("code", code, "minutes", Verification.minutes(settings.ttlSeconds()),
                    "username", account.getString("username", "")));
            return new JsonObject().put("channel", ch).put("expires_in", (long) settings.ttlSeconds());
          });
    });
  }

  /** Checks (and uses up) the actor's deletion code; {@code validation_failed} on {@code code} when absent. */
  Future<Void> check(long actor, String code) {
    if (code == null || code.isBlank()) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "code", "code is required");
    }
    return Verification.check(codes, settings.maxAttempts(), actor, PURPOSE, code).mapEmpty();
  }
}
