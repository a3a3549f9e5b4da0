package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.accounts.api.events.ProfileUpdated;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.events.EventPublisher;
import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Proving an email or phone: a code (and, by mail, a link token) sent to the identifier waiting on the account
 * ({@code email_pending} / {@code phone_pending}); the first account to return it owns the identifier, and every
 * other account's unverified claim of it is released (and its owner told by mail when it has a verified email). When
 * the identifier already belongs to another verified account, the message sent says so instead of carrying a code, so
 * that nothing in an answer tells whether an identifier is taken.
 */
final class Verification {

  private static final Logger LOG = LoggerFactory.getLogger(Verification.class);

  private final AccountsSettings.Codes settings;
  private final AccountStore store;
  private final CodeStore codes;
  private final ProfileCache cache;
  private final RateLimiter limiter;
  private final Messenger messenger;
  private final EventPublisher events;

  Verification(AccountsSettings.Codes settings, AccountStore store, CodeStore codes, ProfileCache cache,
               RateLimiter limiter, Messenger messenger, EventPublisher events) {
    this.settings = settings;
    this.store = store;
    this.codes = codes;
    this.cache = cache;
    this.limiter = limiter;
    this.messenger = messenger;
    this.events = events;
  }

  /** {@code channel} checked: {@code email} or {@code phone}. */
  static String channel(String channel) {
    if (!"email".equals(channel) && !"phone".equals(channel)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "channel", "channel must be email or phone");
    }
    return channel;
  }

  static String pendingField(String channel) {
    return channel.equals("email") ? Profiles.EMAIL_PENDING : Profiles.PHONE_PENDING;
  }

  /** Sends (or sends again) a code for the actor's waiting identifier on {@code channel}. */
  Future<JsonObject> start(long actor, String channel, String acceptLanguage) {
    return Failures.guard(() -> {
      String ch = channel(channel);
      return store.byId(actor).compose(account -> {
        if (account == null) {
          return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
        }
        String target = account.getString(pendingField(ch));
        if (target == null) {
          return Failures.failField(AccountsErrors.NOTHING_TO_VERIFY, "channel",
              "the account has no " + ch + " waiting to be verified; set one with PATCH /api/v1/me first");
        }
        return send(actor, ch, target, Messages.locale(account.getString("locale"), acceptLanguage))
            .map(v -> new JsonObject().put("channel", ch).put("expires_in", settings.ttlSeconds()));
      });
    });
  }

  /**
   * Sends the code for {@code target}, counted per user and per identifier (429 {@code rate_limited} past either), or
   * the "already in use" notice when another account has verified it.
   */
  Future<Void> send(long actor, String channel, String target, String locale) {
    long window = settings.sendWindowSeconds() * 1000L;
    String detail = "too many verification codes sent; retry later";
    return limiter.enforce("rl:accounts:verify:user:" + actor, window, settings.sendsPerUser(), detail)
        .compose(v -> limiter.enforce("rl:accounts:verify:to:" + target, window, settings.sendsPerIdentifier(), detail))
        .compose(v -> store.forLogin(channel.equals("email") ? "email_lc" : "phone", target))
        .compose(holder -> {
          if (holder != null && holder.getLong("_id") != actor) {
            messenger.send(channel, target, "identifier_in_use", locale, Map.of("identifier", target));
            return Future.succeededFuture();
          }
          String code = codes.newCode();
          String token = channel.equals("email") ? codes.newToken() : null;
          long expires = System.currentTimeMillis() + settings.ttlSeconds() * 1000L;
          return codes.put(actor, channel, target, code, token, expires).onSuccess(v -> messenger.send(channel, target,
              "verification_code", locale, Map.of("code", code, "minutes", minutes(settings.ttlSeconds()),
                  "link", settings.link() + (token == null ? "" : token))));
        });
  }

  /** As {@link #send}, for a change that already answered: a refusal (rate limit) is only logged. */
  void sendQuietly(long actor, String channel, String target, String locale) {
    send(actor, channel, target, locale).onFailure(e -> LOG.info("No verification code sent to user {} ({}): {}",
        actor, channel, e.getMessage()));
  }

  static String minutes(int seconds) {
    return Integer.toString(Math.max(1, seconds / 60));
  }

  /** Checks a code the actor received on {@code channel}; on success the identifier is the actor's, verified. */
  Future<JsonObject> confirm(long actor, String channel, String code) {
    return Failures.guard(() -> {
      String ch = channel(channel);
      return check(codes, settings.maxAttempts(), actor, ch, code)
          .compose(doc -> claimed(actor, ch, doc.getString("target")))
          .map(Profiles::ownView);
    });
  }

  /**
   * The live code document of {@code user}'s {@code purpose} once {@code code} matched it (and it is deleted, single
   * use); {@code code_invalid} when there is none or it does not match (counted: the last allowed wrong try deletes
   * it), {@code code_expired} past its lifetime.
   */
  static Future<JsonObject> check(CodeStore codes, int maxAttempts, long user, String purpose, String code) {
    return codes.get(user, purpose).compose(doc -> {
      if (doc == null || code == null) {
        return Failures.fail(AccountsErrors.CODE_INVALID, "the code is wrong or was already used; ask for a new one");
      }
      if (doc.getLong("expires") < System.currentTimeMillis()) {
        return codes.delete(user, purpose)
            .compose(v -> Failures.fail(AccountsErrors.CODE_EXPIRED, "the code expired; ask for a new one"));
      }
      return codes.take(user, purpose, code).compose(taken -> taken != null ? Future.succeededFuture(taken)
          : codes.wrong(user, purpose).compose(attempts -> (attempts >= maxAttempts
                  ? codes.delete(user, purpose) : Future.<Void>succeededFuture())
              .compose(v -> Failures.fail(AccountsErrors.CODE_INVALID,
                  "the code is wrong or was already used; ask for a new one"))));
    });
  }

  /** Verifies through the link token of a mail (no sign-in needed: the token is the proof). */
  Future<JsonObject> confirmLink(String token) {
    if (token == null || token.isEmpty() || token.length() > 100) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "token",
          "token must be the token of a verification link");
    }
    return codes.takeByToken(token).compose(doc -> {
      if (doc == null) {
        return Failures.fail(AccountsErrors.CODE_INVALID, "the link is wrong or was already used; ask for a new one");
      }
      if (doc.getLong("expires") < System.currentTimeMillis()) {
        return Failures.fail(AccountsErrors.CODE_EXPIRED, "the link expired; ask for a new one");
      }
      long user = doc.getLong("user");
      String channel = doc.getString("purpose");
      return claimed(user, channel, doc.getString("target"))
          .map(account -> new JsonObject().put("user_id", user).put("channel", channel).put("verified", true));
    });
  }

  /** Makes {@code target} the user's verified identifier and releases every other account's claim of it. */
  private Future<JsonObject> claimed(long user, String channel, String target) {
    String verifiedField = channel.equals("email") ? "email_lc" : "phone";
    return store.byId(user).map(before -> before == null ? null : before.getString(verifiedField))
        .compose(previous -> store.verify(user, channel, target).compose(updated -> {
          if (updated == null) {
            // the account changed its identifier after the code was sent: the code was for the old one
            return Failures.<JsonObject>fail(AccountsErrors.CODE_INVALID,
                "the code was for an identifier no longer set");
          }
          events.publish(new ProfileUpdated(user, List.of(channel)));
          tellReplaced(updated, channel, previous, target);
          return cache.put(updated)
              .compose(v -> releaseOthers(user, channel, target))
              .map(v -> updated);
        }));
  }

  /**
   * Tells the verified identifier that a newly verified one replaced, on its own channel, so that an owner whose
   * session was used to move the account to another address learns of it where they still read.
   */
  private void tellReplaced(JsonObject account, String channel, String previous, String target) {
    if (previous != null && !previous.equals(target)) {
      messenger.send(channel, previous, "identifier_replaced", Messages.locale(account.getString("locale"), null),
          Map.of("identifier", previous, "username", account.getString("username")));
    }
  }

  private Future<Void> releaseOthers(long owner, String channel, String target) {
    String field = pendingField(channel);
    return codes.deleteOthers(target, channel, owner)
        .compose(v -> store.pendingHolders(field, target, owner))
        .compose(holders -> {
          List<Future<?>> released = new ArrayList<>();
          for (JsonObject holder : holders) {
            released.add(store.release(holder.getLong("_id"), field, target).compose(after -> {
              if (after == null) {
                return Future.succeededFuture();
              }
              tellReleased(after, target);
              events.publish(new ProfileUpdated(after.getLong("_id"), List.of(channel)));
              return cache.put(after);
            }));
          }
          return Future.all(released).mapEmpty();
        });
  }

  /** Tells the owner of a released claim, when the account has a verified email to tell. */
  private void tellReleased(JsonObject account, String target) {
    String email = account.getString("email_lc");
    if (email != null) {
      messenger.send("email", email, "claim_released", Messages.locale(account.getString("locale"), null),
          Map.of("identifier", target, "username", account.getString("username")));
    }
  }
}
