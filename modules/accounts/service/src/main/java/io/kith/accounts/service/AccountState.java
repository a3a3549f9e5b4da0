package io.kith.accounts.service;

import io.vertx.core.json.JsonObject;

/**
 * The standing of an account as an operator's record states it: the one state in force, the most severe first
 * ({@code pending_deletion}, {@code suspended}, {@code limited}, else {@code active}), with {@code until} the time it
 * ends (the deletion's due time; null for a permanent sanction and for {@code active}). A sanction whose time passed
 * is over, as every read compares it.
 */
final class AccountState {

  private AccountState() {
  }

  /** {@code {state, until}} of a stored account that is not erased. */
  static JsonObject of(JsonObject account) {
    if (Deletion.marked(account)) {
      return state("pending_deletion", account.getJsonObject(Deletion.FIELD).getLong("due_at", 0L));
    }
    if (Suspension.active(account)) {
      return state("suspended", account.getJsonObject(Suspension.FIELD).getLong("until", 0L));
    }
    if (Limits.active(account)) {
      return state("limited", account.getJsonObject(Limits.FIELD).getLong("until", 0L));
    }
    return state("active", 0L);
  }

  private static JsonObject state(String name, long until) {
    return new JsonObject().put("state", name).put("until", until == 0 ? null : until);
  }
}
