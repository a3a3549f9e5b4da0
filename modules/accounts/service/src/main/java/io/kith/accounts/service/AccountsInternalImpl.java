package io.kith.accounts.service;

import io.kith.accounts.api.AccountsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The accounts operations other domains and the gateway call on trust; like {@link AccountsServiceImpl}, it only
 * delegates.
 */
final class AccountsInternalImpl implements AccountsInternal {

  private final ProfileAccess profiles;
  private final Presence presence;
  private final Suspension suspension;
  private final Limits limits;

  AccountsInternalImpl(ProfileAccess profiles, Presence presence, Suspension suspension, Limits limits) {
    this.profiles = profiles;
    this.presence = presence;
    this.suspension = suspension;
    this.limits = limits;
  }

  @Override
  public Future<JsonObject> followSettings(List<Long> userIds) {
    return profiles.followSettings(userIds);
  }

  @Override
  public Future<JsonObject> activeUsers(long after, int limit) {
    return profiles.activeUsers(after, limit);
  }

  @Override
  public Future<JsonObject> onlineAmong(List<Long> userIds) {
    return presence.onlineAmong(userIds);
  }

  @Override
  public Future<JsonObject> recipientsAmong(List<Long> userIds) {
    // the ids onlineAmong checked and answered (distinct, no nulls) are those whose locales are read
    return presence.onlineAmong(userIds).compose(online -> profiles.locales(online.fieldNames().stream()
        .map(Long::valueOf).toList()).map(locales -> {
      JsonObject out = new JsonObject();
      online.forEach(e -> out.put(e.getKey(), new JsonObject().put("online", e.getValue())
          .put("locale", locales.getString(e.getKey()))));
      return out;
    }));
  }

  @Override
  public Future<Void> connectionChanged(long userId, String connectionId, boolean open) {
    return presence.connectionChanged(userId, connectionId, open);
  }

  @Override
  public Future<Void> connectionsAlive(JsonObject connections) {
    return presence.connectionsAlive(connections);
  }

  @Override
  public Future<Void> suspend(long userId, long untilMillis, String reason) {
    return suspension.suspend(userId, untilMillis, reason);
  }

  @Override
  public Future<Void> unsuspend(long userId) {
    return suspension.unsuspend(userId);
  }

  @Override
  public Future<Void> limit(long userId, long untilMillis, String reason) {
    return limits.limit(userId, untilMillis, reason);
  }

  @Override
  public Future<Void> unlimit(long userId) {
    return limits.unlimit(userId);
  }

  @Override
  public Future<JsonObject> limitedAmong(List<Long> userIds) {
    return limits.limitedAmong(userIds);
  }

  @Override
  public Future<JsonObject> readerSettings(long userId) {
    return profiles.readerSettings(userId);
  }

  @Override
  public Future<Long> idOfUsername(String username) {
    return profiles.idOfUsername(username);
  }

  @Override
  public Future<JsonObject> accountState(long userId) {
    return profiles.accountState(userId);
  }

  @Override
  public Future<Long> suspendedBy(String appealToken) {
    return suspension.suspendedBy(appealToken);
  }
}
