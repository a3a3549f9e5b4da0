package io.kith.accounts.service;

import io.vertx.core.json.JsonObject;

/**
 * The accounts domain's storage as a seeder sees it: the collection and the document of an account, for the bench
 * to write many accounts straight into a running Kith's MongoDB, bypassing the service (registering a million users
 * over HTTP would spend hours hashing passwords).
 *
 * <p>It lives in this module's test-jar, built on the store's constant and the document registration writes, so no
 * other module copies the accounts domain's collection name or document shape. Seeding this way skips the service's
 * rules and events, and a seeded account has no password: it is shown in lists (summaries, profiles) but cannot log in.
 */
public final class AccountsSeeder {

  /** The accounts collection, one document per user with {@code _id} the user id. */
  public static final String ACCOUNTS = AccountStore.COLLECTION;

  private AccountsSeeder() {
  }

  /** The document of an account {@code id} named {@code username}, as registration stores it but without password. */
  public static JsonObject account(long id, String username) {
    return Registration.newAccount(username, null, null).put("_id", id);
  }
}
