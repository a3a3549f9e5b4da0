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

  AccountsInternalImpl(ProfileAccess profiles, Presence presence) {
    this.profiles = profiles;
    this.presence = presence;
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
  public Future<Void> connectionChanged(long userId, String connectionId, boolean open) {
    return presence.connectionChanged(userId, connectionId, open);
  }

  @Override
  public Future<Void> connectionsAlive(JsonObject connections) {
    return presence.connectionsAlive(connections);
  }
}
