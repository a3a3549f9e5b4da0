package io.kith.accounts.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Finds the account a login or reset identifier names: a username, or an email or phone that the account has
 * verified, or else (when allowed) one that exactly one account has claimed without verifying it yet, when that
 * account has no verified identifier on the same channel. Two unverified claims of one identifier name nobody: only a
 * code proves which of them is its owner.
 */
final class Identifiers {

  private Identifiers() {
  }

  /** The account (with its password hash) named by {@code identifier}, or null. */
  static Future<JsonObject> find(AccountStore store, String identifier, boolean allowUnverified) {
    String[] key = Login.loginKey(identifier);
    return store.forLogin(key[0], key[1]).compose(account -> {
      if (account != null || !allowUnverified || key[0].equals("username_lc")) {
        return Future.succeededFuture(account);
      }
      String pending = key[0].equals("email_lc") ? Profiles.EMAIL_PENDING : Profiles.PHONE_PENDING;
      String verified = key[0];
      // an account changing its verified identifier logs in by the old one until the new one is proved: the claim
      // waiting for a code logs in only an account that has none verified on that channel (a new registration)
      return store.forLoginAll(pending, key[1]).map(found -> found.size() == 1
          && found.get(0).getString(verified) == null ? found.get(0) : null);
    });
  }

  /** The channel ({@code email} or {@code phone}) of an identifier, or null for a username. */
  static String channel(String identifier) {
    return switch (Login.loginKey(identifier)[0]) {
      case "email_lc" -> "email";
      case "phone" -> "phone";
      default -> null;
    };
  }
}
