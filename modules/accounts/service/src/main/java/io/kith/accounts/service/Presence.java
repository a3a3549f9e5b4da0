package io.kith.accounts.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.CompositeFuture;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import static io.kith.accounts.service.AccountsServiceImpl.MAX_IDS;

/**
 * Presence: the user's mode (online, friends, invisible), what a viewer may see of others' presence, and the
 * bridge's connection reports (open, close, heartbeat) that move users online and offline.
 */
final class Presence {

  private static final Logger LOG = LoggerFactory.getLogger(Presence.class);
  /** Users whose offline-to-online work of a heartbeat is done together (see {@link #connectionsAlive}). */
  static final int TRANSITION_BATCH = 250;

  private final Platform platform;
  private final AccountsSettings settings;
  private final ProfileCache cache;
  private final PresenceStore presence;
  private final Relationships relationships;
  private final Throttles throttles;
  private final LastActive lastActive;
  private final PresencePush push;
  private final ProfileAccess profiles;

  Presence(Platform platform, AccountsSettings settings, ProfileCache cache, PresenceStore presence,
           Relationships relationships, Throttles throttles, LastActive lastActive, PresencePush push,
           ProfileAccess profiles) {
    this.platform = platform;
    this.settings = settings;
    this.cache = cache;
    this.presence = presence;
    this.relationships = relationships;
    this.throttles = throttles;
    this.lastActive = lastActive;
    this.push = push;
    this.profiles = profiles;
  }

  Future<JsonObject> setPresenceMode(long actor, String mode) {
    if (mode == null || !Profiles.PRESENCE_MODES.contains(mode)) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "mode", "mode must be one of friends, invisible, online");
    }
    return profiles.updateProfile(actor, new JsonObject().put("settings", new JsonObject().put("presence", mode)))
        .compose(own -> presence.online(List.of(actor)).map(online -> new JsonObject()
            .put("mode", mode).put("online", online.get(actor))));
  }

  Future<JsonObject> presence(long viewer, List<Long> userIds) {
    if (userIds == null || userIds.size() > MAX_IDS) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "ids", "at most " + MAX_IDS + " ids");
    }
    List<Long> ids = List.copyOf(new LinkedHashSet<>(userIds));
    return throttles.perMinute("presence", viewer, settings.presenceQueriesPerMinute(), "too many presence queries")
        .compose(v -> Future.all(cache.getAll(ids), presence.online(ids), relationships.friendsAmong(viewer, ids),
            relationships.blockedEitherWay(viewer, ids)))
        .map(all -> visiblePresence(viewer, ids, all));
  }

  /** What the viewer sees of each known user, from {accounts, online, friends, blocked}. */
  private static JsonObject visiblePresence(long viewer, List<Long> ids, CompositeFuture all) {
    Map<Long, JsonObject> accounts = all.resultAt(0);
    Map<Long, Boolean> online = all.resultAt(1);
    Set<Long> friends = all.resultAt(2);
    Set<Long> blocked = all.resultAt(3);
    JsonObject out = new JsonObject();
    for (Long id : ids) {
      JsonObject account = accounts.get(id);
      if (account == null) {
        continue;
      }
      String mode = Profiles.settingsOf(account).getString("presence");
      boolean visible = id == viewer
          || (!blocked.contains(id) && Profiles.allows(Profiles.presenceAudience(mode), friends.contains(id)));
      JsonObject state = new JsonObject().put("online", visible && Boolean.TRUE.equals(online.get(id)));
      state.put("last_active", visible ? account.getLong("last_active") : null);
      out.put(Long.toString(id), state);
    }
    return out;
  }

  Future<JsonObject> onlineAmong(List<Long> userIds) {
    if (userIds == null || userIds.size() > MAX_IDS) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "ids", "at most " + MAX_IDS + " ids");
    }
    List<Long> ids = userIds.stream().filter(Objects::nonNull).distinct().toList();
    return presence.online(ids).map(online -> {
      JsonObject out = new JsonObject();
      ids.forEach(id -> out.put(Long.toString(id), Boolean.TRUE.equals(online.get(id))));
      return out;
    });
  }

  Future<Void> connectionChanged(long userId, String connectionId, boolean open) {
    if (connectionId == null || connectionId.isEmpty() || connectionId.length() > 100) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "connection_id", "connection id must be 1 to 100 characters");
    }
    Future<Boolean> changed = open ? presence.connect(userId, connectionId) : presence.disconnect(userId, connectionId);
    return changed.compose(transition -> transition ? transitioned(userId) : Future.succeededFuture());
  }

  /** After a user came online or went offline: last_active, the cache, the push and the event. */
  private Future<Void> transitioned(long userId) {
    return lastActive.touched(userId).compose(account -> account == null ? Future.succeededFuture()
        : push.presenceChanged(userId, Profiles.settingsOf(account).getString("presence")));
  }

  Future<Void> connectionsAlive(JsonObject connections) {
    if (connections == null) {
      return Future.succeededFuture();
    }
    // users whose connections Redis had lost come back online: they get the same push and event as on connect
    return presence.alive(connections).compose(cameOnline -> cameOnline(cameOnline, 0, null));
  }

  /**
   * The offline-to-online work of a heartbeat ({@link #transitioned} for each user) for {@code users} from
   * {@code from} on, {@value #TRANSITION_BATCH} users at a time and one batch after the other: after Redis lost its
   * presence keys every user of a heartbeat comes back online at once. Every batch is tried; the first failure is
   * reported at the end.
   */
  private Future<Void> cameOnline(List<Long> users, int from, Throwable failed) {
    if (from >= users.size()) {
      return failed == null ? Future.succeededFuture() : Future.failedFuture(failed);
    }
    List<Long> batch = users.subList(from, Math.min(users.size(), from + TRANSITION_BATCH));
    return transitioned(batch).transform(ar -> cameOnline(users, from + TRANSITION_BATCH,
        failed != null ? failed : ar.cause()));
  }

  /**
   * {@link #transitioned(long)} for many users in a few round trips: their last_active moves to now, the written
   * accounts go to the cache, and each gets the push and {@code PresenceChanged} of a connect.
   */
  private Future<Void> transitioned(List<Long> users) {
    return lastActive.touched(users).compose(accounts -> {
      List<Long> known = accounts.stream().map(account -> account.getLong("_id")).toList();
      return presence.online(known).compose(online -> pushed(accounts, online));
    });
  }

  /** The push to each user's connections and the {@code PresenceChanged} events of a batch that came online. */
  private Future<Void> pushed(List<JsonObject> accounts, Map<Long, Boolean> online) {
    List<JsonObject> changes = new ArrayList<>(accounts.size());
    List<PresencePush.Change> toFriends = new ArrayList<>(accounts.size());
    for (JsonObject account : accounts) {
      long userId = account.getLong("_id");
      String mode = Profiles.settingsOf(account).getString("presence");
      boolean isOnline = Boolean.TRUE.equals(online.get(userId));
      push.pushOwn(userId, isOnline, mode);
      changes.add(new JsonObject().put("user_id", userId).put("online", isOnline).put("mode", mode));
      toFriends.add(new PresencePush.Change(userId, isOnline, mode, false));
    }
    push.toFriends(toFriends);
    return platform.events().appendAll(AccountsEvents.DOMAIN, AccountsEvents.PRESENCE_CHANGED, changes)
        .onFailure(e -> LOG.error("Could not append {} {} events to the event log: {}", changes.size(),
            AccountsEvents.PRESENCE_CHANGED, e.toString()))
        .<Void>mapEmpty().otherwiseEmpty();
  }
}
