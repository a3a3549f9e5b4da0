package io.kith.accounts.service;

import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.relations.api.UserDirectory;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The {@link UserDirectory} port that relations declares, answered by this module's service: the same answers as
 * {@link AccountsInternal#followSettings} and {@link AccountsService#summaries}, so relations needs no accounts api.
 */
final class RelationsDirectory implements UserDirectory {

  private final AccountsService accounts;
  private final AccountsInternal internal;

  RelationsDirectory(AccountsService accounts, AccountsInternal internal) {
    this.accounts = accounts;
    this.internal = internal;
  }

  @Override
  public Future<JsonObject> followSettings(List<Long> userIds) {
    return internal.followSettings(userIds);
  }

  @Override
  public Future<JsonObject> summaries(long viewer, List<Long> userIds) {
    return accounts.summaries(viewer, userIds);
  }
}
