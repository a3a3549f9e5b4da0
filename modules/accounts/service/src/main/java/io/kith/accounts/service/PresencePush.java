package io.kith.accounts.service;

import io.kith.accounts.api.events.PresenceChanged;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.events.EventPublisher;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Tells a user's own connections, the friends allowed to see their presence, and the event log that their presence
 * changed. Pushes are {@code {kind: "presence", user_id, online}} (the user's own also carry {@code mode}).
 *
 * <p>Friends are read from relations a page of {@value #FRIENDS_PAGE} at a time and each page is published before the
 * next is asked, so a user with many friends costs one page in flight; the fan-out runs beside the request or
 * heartbeat that caused it and never delays it (the event bus is at-most-once anyway: a client that reconnects asks
 * {@code presence} for the state).
 */
final class PresencePush {

  private static final Logger LOG = LoggerFactory.getLogger(PresencePush.class);
  /** Friends' ids asked of relations at once (its page limit), and pushed to before the next page is asked. */
  static final int FRIENDS_PAGE = 1_000;

  /** One user's change as the friends' fan-out needs it. */
  record Change(long userId, boolean online, String mode, boolean modeChanged) {
  }

  private final Platform platform;
  private final PresenceStore presence;
  private final EventPublisher events;
  private final Relationships relationships;

  PresencePush(Platform platform, PresenceStore presence, EventPublisher events, Relationships relationships) {
    this.platform = platform;
    this.presence = presence;
    this.events = events;
    this.relationships = relationships;
  }

  /** A connection change (came online, went offline) in this mode: own connections, friends, event log. */
  Future<Void> presenceChanged(long userId, String mode) {
    return presenceChanged(userId, mode, false);
  }

  /**
   * Tells the user's own connections, the friends allowed to see it and the event log that presence changed;
   * {@code modeChanged}: the change is a new mode, which friends hear even when it hides the user (as offline).
   */
  Future<Void> presenceChanged(long userId, String mode, boolean modeChanged) {
    return presence.online(List.of(userId)).map(online -> {
      boolean isOnline = online.get(userId);
      pushOwn(userId, isOnline, mode);
      events.publish(new PresenceChanged(userId, isOnline, mode));
      toFriends(List.of(new Change(userId, isOnline, mode, modeChanged)));
      return null;
    });
  }

  /** The push to the user's own connections (their other devices learn the mode too). */
  void pushOwn(long userId, boolean online, String mode) {
    platform.vertx().eventBus().publish(Addresses.user(userId), push(userId, online).put("mode", mode));
  }

  /** Starts the friends' fan-out of these changes, one user after the other; failures are logged, not returned. */
  void toFriends(List<Change> changes) {
    Future<Void> chain = Future.succeededFuture();
    for (Change change : changes) {
      chain = chain.compose(v -> toFriends(change).otherwise(e -> {
        LOG.warn("Could not push the presence of user {} to their friends: {}", change.userId(), e.toString());
        return null;
      }));
    }
  }

  private Future<Void> toFriends(Change change) {
    // friends see presence unless the mode hides it from them (invisible); a hidden user's connections tell them
    // nothing, and the change to a hiding mode tells them what they now see: offline
    boolean shown = Profiles.allows(Profiles.presenceAudience(change.mode()), true);
    if (!shown && !change.modeChanged()) {
      return Future.succeededFuture();
    }
    return friendPages(change.userId(), null, push(change.userId(), shown && change.online()));
  }

  /** Publishes {@code body} to each friend of {@code userId}, a page at a time from {@code cursor} on. */
  private Future<Void> friendPages(long userId, String cursor, JsonObject body) {
    return relationships.friendIds(userId, cursor, FRIENDS_PAGE).compose(page -> {
      for (Object id : page.getJsonArray("items", new JsonArray())) {
        platform.vertx().eventBus().publish(Addresses.user(((Number) id).longValue()), body);
      }
      String next = page.getString("next");
      return next == null ? Future.succeededFuture() : friendPages(userId, next, body);
    });
  }

  private static JsonObject push(long userId, boolean online) {
    return new JsonObject().put("kind", "presence").put("user_id", userId).put("online", online);
  }
}
