package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.accounts.api.events.UserRegistered;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.events.EventPublisher;
import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.Locale;

import static io.kith.accounts.service.Inputs.address;
import static io.kith.accounts.service.Inputs.optionalText;
import static io.kith.accounts.service.Inputs.stringField;

/** Registration: a new account from a username and password (email, phone optional), signed in at once. */
final class Registration {

  private final Platform platform;
  private final AccountsSettings settings;
  private final AccountStore store;
  private final Passwords passwords;
  private final RateLimiter limiter;
  private final EventPublisher events;
  private final Verification verification;

  Registration(Platform platform, AccountsSettings settings, AccountStore store, Passwords passwords,
               RateLimiter limiter, EventPublisher events, Verification verification) {
    this.verification = verification;
    this.platform = platform;
    this.settings = settings;
    this.store = store;
    this.passwords = passwords;
    this.limiter = limiter;
    this.events = events;
  }

  Future<JsonObject> register(JsonObject request, String clientAddress) {
    return Failures.guard(() -> {
      JsonObject req = request == null ? new JsonObject() : request;
      String username = Profiles.username(stringField(req, "username"));
      String password = stringField(req, "password");
      String violation = passwords.policyViolation(password, username);
      if (violation != null) {
        return Failures.failField(AccountsErrors.WEAK_PASSWORD, "password", violation);
      }
      String email = req.getValue("email") == null ? null : Profiles.email(stringField(req, "email"), "email");
      String phone = req.getValue("phone") == null ? null : Profiles.phone(stringField(req, "phone"), "phone");
      String device = optionalText(req, "device", 100);
      JsonObject account = newAccount(username, email, phone)
          .put("locale", Messages.locale(null, req.getValue("locale") instanceof String l ? l : null));
      return admitted(clientAddress)
          .compose(v -> store.findConflict(account, null))
          .compose(conflict -> conflict != null ? Future.failedFuture(conflict) : passwords.hash(password))
          .compose(hash -> stored(account, hash))
          .compose(id -> signedIn(id, account, device));
    });
  }

  /**
   * The account document of a new user, without id and password (also what the test-jar's seeder writes); its email
   * and phone wait unverified.
   */
  static JsonObject newAccount(String username, String email, String phone) {
    long now = System.currentTimeMillis();
    JsonObject account = new JsonObject()
        .put("username", username)
        .put("username_lc", username.toLowerCase(Locale.ROOT))
        .put("nickname", username)
        .put("nickname_lc", username.toLowerCase(Locale.ROOT))
        .put("created", now)
        .put("last_active", now)
        .put("role", "user")
        .put("settings", Profiles.DEFAULT_SETTINGS.copy());
    // both wait for a code: an unverified claim neither finds nor blocks anyone (Verification)
    if (email != null) {
      account.put(Profiles.EMAIL_PENDING, email);
    }
    if (phone != null) {
      account.put(Profiles.PHONE_PENDING, phone);
    }
    return account;
  }

  /** Counts a registration from the client's address: registration_throttled past the address's window. */
  private Future<Void> admitted(String clientAddress) {
    return limiter.hit("rl:accounts:register:" + address(clientAddress), settings.registerWindowSeconds() * 1000L)
        .compose(window -> window.count() > settings.registerMaxPerAddress()
            ? Future.failedFuture(Failures.withExtra(AccountsErrors.REGISTRATION_THROTTLED,
                "too many registrations from this address; retry later",
                new JsonObject().put("retry_after", window.retryAfterSeconds())))
            : Future.succeededFuture());
  }

  private Future<Long> stored(JsonObject account, String hash) {
    long id = platform.ids().next();
    account.put("_id", id).put("password", hash);
    return store.insert(account).map(v -> id);
  }

  private Future<JsonObject> signedIn(long id, JsonObject account, String device) {
    account.remove("password");
    events.publish(new UserRegistered(id, account.getString("username")));
    for (String channel : java.util.List.of("email", "phone")) {
      String target = account.getString(Verification.pendingField(channel));
      if (target != null) {
        verification.sendQuietly(id, channel, target, account.getString("locale"));
      }
    }
    return platform.sessions().open(id, device)
        .map(tokens -> new JsonObject().put("user", Profiles.ownView(account)).put("tokens", tokens.toJson()));
  }
}
