package io.kith.accounts.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/** Moves users' last_active to now on login and on coming online, and puts the written accounts in the cache. */
final class LastActive {

  private final AccountStore store;
  private final ProfileCache cache;

  LastActive(AccountStore store, ProfileCache cache) {
    this.store = store;
    this.cache = cache;
  }

  /** Moves the user's last_active to now and puts the written account in the cache; returns it (null if none). */
  Future<JsonObject> touched(long userId) {
    return store.touchLastActive(userId, System.currentTimeMillis())
        .compose(doc -> doc == null ? Future.succeededFuture() : cache.put(doc).map(doc));
  }

  /** {@link #touched(long)} for many users: the accounts written (unknown ids are absent). */
  Future<List<JsonObject>> touched(List<Long> users) {
    return store.touchLastActive(users, System.currentTimeMillis())
        .compose(accounts -> cache.putAll(accounts).map(accounts));
  }
}
