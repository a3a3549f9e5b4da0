package io.kith.accounts.service;

import io.kith.platform.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Presence: live connections, presence modes, ghost cleanup and pushes (connections lapse after 2 s here). */
class PresenceTest extends AccountsTestBase {

  private static final int EXPIRY_SECONDS = 2;

  @Override
  protected JsonObject overrides() {
    return new JsonObject().put("accounts", new JsonObject().put("presence-expiry-seconds", EXPIRY_SECONDS));
  }

  private JsonObject presenceOf(long viewer, long user) throws Exception {
    JsonObject all = await(accounts.presence(viewer, List.of(user)));
    JsonObject state = all.getJsonObject(Long.toString(user));
    assertNotNull(state, "no presence for " + user + " in " + all);
    return state;
  }

  private boolean online(long viewer, long user) throws Exception {
    return presenceOf(viewer, user).getBoolean("online");
  }

  private Future<Boolean> onlineLater(long viewer, long user) {
    return accounts.presence(viewer, List.of(user))
        .map(all -> all.getJsonObject(Long.toString(user)).getBoolean("online"));
  }

  private static String newConnection() {
    return "conn-" + UUID.randomUUID();
  }

  @Test
  @DisplayName("opening a connection makes a user in mode online appear online, with last_active, to other users")
  void connectionMakesOnline() throws Exception {
    List<JsonObject> users = registerMany(2);
    long user = idOf(users.get(0));
    long viewer = idOf(users.get(1));
    JsonObject before = presenceOf(viewer, user);
    assertFalse(before.getBoolean("online"));
    assertNotNull(before.getLong("last_active"), "last_active is visible in mode online");

    long connectedAt = System.currentTimeMillis();
    await(accountsInternal.connectionChanged(user, newConnection(), true));

    JsonObject after = presenceOf(viewer, user);
    assertTrue(after.getBoolean("online"));
    // the profile was cached by the read above: coming online must still show the new last_active
    assertTrue(after.getLong("last_active") >= connectedAt && after.getLong("last_active") > before.getLong("last_active"),
        "last_active " + after.getLong("last_active") + " before connecting at " + connectedAt);
    assertTrue(online(user, user), "the user sees themself online");
  }

  @Test
  @DisplayName("an invisible user always looks offline without last_active to others, while seeing themself online")
  void invisibleLooksOffline() throws Exception {
    List<JsonObject> users = registerMany(2);
    long user = idOf(users.get(0));
    long viewer = idOf(users.get(1));
    await(accountsInternal.connectionChanged(user, newConnection(), true));
    assertTrue(online(viewer, user));

    JsonObject own = await(accounts.setPresenceMode(user, "invisible"));
    assertEquals("invisible", own.getString("mode"));
    assertEquals(true, own.getBoolean("online"));

    JsonObject seen = presenceOf(viewer, user);
    assertFalse(seen.getBoolean("online"));
    assertNull(seen.getValue("last_active"));
    assertFalse(await(accounts.profile(viewer, user)).containsKey("last_active"), "profile leaks last_active");
    JsonObject self = presenceOf(user, user);
    assertTrue(self.getBoolean("online"));
    assertNotNull(self.getLong("last_active"));

    // a second connection does not make them visible either
    await(accountsInternal.connectionChanged(user, newConnection(), true));
    assertFalse(online(viewer, user));
    // back to online mode: visible again
    await(accounts.setPresenceMode(user, "online"));
    assertTrue(online(viewer, user));
  }

  @Test
  @DisplayName("a friends-only user looks offline to every other user who is not their friend")
  void friendsOnlyLooksOfflineToNonFriends() throws Exception {
    List<JsonObject> users = registerMany(3);
    long user = idOf(users.get(0));
    await(accountsInternal.connectionChanged(user, newConnection(), true));
    assertEquals("friends", await(accounts.setPresenceMode(user, "friends")).getString("mode"));

    for (JsonObject other : users.subList(1, 3)) {
      JsonObject seen = presenceOf(idOf(other), user);
      assertFalse(seen.getBoolean("online"));
      assertNull(seen.getValue("last_active"));
    }
    assertTrue(online(user, user));
  }

  @Test
  @DisplayName("closing the last connection makes the user offline; closing one of two does not")
  void closingLastConnection() throws Exception {
    List<JsonObject> users = registerMany(2);
    long user = idOf(users.get(0));
    long viewer = idOf(users.get(1));
    String phone = newConnection();
    String laptop = newConnection();
    await(accountsInternal.connectionChanged(user, phone, true));
    await(accountsInternal.connectionChanged(user, laptop, true));

    await(accountsInternal.connectionChanged(user, phone, false));
    assertTrue(online(viewer, user));
    await(accountsInternal.connectionChanged(user, "never-opened", false));
    assertTrue(online(viewer, user));
    await(accountsInternal.connectionChanged(user, laptop, false));
    assertFalse(online(viewer, user));
    failsWithField("validation_failed", "connection_id", accountsInternal.connectionChanged(user, "", true));
  }

  @Test
  @DisplayName("a connection that is not refreshed within presence-expiry lapses, so a crashed node leaves no ghost")
  void ghostConnectionLapses() throws Exception {
    List<JsonObject> users = registerMany(2);
    long user = idOf(users.get(0));
    long viewer = idOf(users.get(1));
    long opened = System.currentTimeMillis();
    await(accountsInternal.connectionChanged(user, newConnection(), true));
    assertTrue(online(viewer, user));

    poll("the unrefreshed connection to lapse", Duration.ofSeconds(EXPIRY_SECONDS + 10),
        () -> onlineLater(viewer, user).map(on -> !on));
    assertTrue(System.currentTimeMillis() - opened >= EXPIRY_SECONDS * 1000L - 100, "lapsed before its expiry");
    // a new connection after the lapse counts again
    await(accountsInternal.connectionChanged(user, newConnection(), true));
    assertTrue(online(viewer, user));
  }

  @Test
  @DisplayName("connectionsAlive keeps a refreshed connection online past the expiry while an unrefreshed one lapses")
  void heartbeatKeepsOnline() throws Exception {
    List<JsonObject> users = registerMany(3);
    long kept = idOf(users.get(0));
    long dropped = idOf(users.get(1));
    long viewer = idOf(users.get(2));
    String keptConnection = newConnection();
    await(accountsInternal.connectionChanged(kept, keptConnection, true));
    // opened after the kept one: once it has lapsed, the kept connection's first expiry has passed too
    await(accountsInternal.connectionChanged(dropped, newConnection(), true));

    JsonObject heartbeat = new JsonObject().put(Long.toString(kept), new JsonArray().add(keptConnection));
    long timer = vertx.setPeriodic(200, id -> accountsInternal.connectionsAlive(heartbeat));
    try {
      poll("the connection without heartbeat to lapse", Duration.ofSeconds(EXPIRY_SECONDS + 10),
          () -> onlineLater(viewer, dropped).map(on -> !on));
      assertTrue(online(viewer, kept), "the refreshed connection lapsed");
    } finally {
      vertx.cancelTimer(timer);
    }
    // a closed connection is not in its gateway's next heartbeat, so the close wins
    await(accountsInternal.connectionChanged(kept, keptConnection, false));
    await(accountsInternal.connectionsAlive(new JsonObject().put(Long.toString(dropped), new JsonArray())));
    assertFalse(online(viewer, kept));
  }

  @Test
  @DisplayName("a heartbeat brings back connections Redis lost (emptied, failed over), and the user is online again "
      + "with a push and a PresenceChanged")
  void heartbeatRestoresLostConnections() throws Exception {
    List<JsonObject> users = registerMany(2);
    long user = idOf(users.get(0));
    long viewer = idOf(users.get(1));
    String phone = newConnection();
    String laptop = newConnection();
    await(accountsInternal.connectionChanged(user, phone, true));
    assertTrue(online(viewer, user));
    List<JsonObject> received = new CopyOnWriteArrayList<>();
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(Addresses.user(user), m -> received.add(m.body()));
    await(consumer.completion());
    try {
      // Redis lost the connection (and the open report of the laptop never arrived)
      await(platform.redisApi().del(List.of(PresenceStore.key(user))));
      assertFalse(online(viewer, user));
      long before = presenceOf(user, user).getLong("last_active");

      await(accountsInternal.connectionsAlive(
          new JsonObject().put(Long.toString(user), new JsonArray().add(phone).add(laptop))));

      assertTrue(online(viewer, user), "the heartbeat restored the user's connections");
      poll("an online presence push", Duration.ofSeconds(10), () -> Future.succeededFuture(
          received.stream().anyMatch(m -> "presence".equals(m.getString("kind")) && m.getBoolean("online"))));
      assertTrue(presenceOf(viewer, user).getLong("last_active") >= before);
      // both count: closing one leaves the user online, closing both makes them offline
      await(accountsInternal.connectionChanged(user, phone, false));
      assertTrue(online(viewer, user));
      await(accountsInternal.connectionChanged(user, laptop, false));
      assertFalse(online(viewer, user));
    } finally {
      await(consumer.unregister());
    }
  }

  @Test
  @DisplayName("a heartbeat for a user already online pushes nothing")
  void heartbeatOfOnlineUserIsQuiet() throws Exception {
    long user = newUser();
    String connection = newConnection();
    await(accountsInternal.connectionChanged(user, connection, true));
    List<JsonObject> received = new CopyOnWriteArrayList<>();
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(Addresses.user(user), m -> received.add(m.body()));
    await(consumer.completion());
    try {
      await(accountsInternal.connectionsAlive(
          new JsonObject().put(Long.toString(user), new JsonArray().add(connection))));
      // a marker published after the heartbeat's work arrives after anything the heartbeat published
      vertx.eventBus().publish(Addresses.user(user), new JsonObject().put("type", "marker"));
      poll("the marker", Duration.ofSeconds(10), () -> Future.succeededFuture(
          received.stream().anyMatch(m -> "marker".equals(m.getString("type")))));
      assertEquals(List.of("marker"), received.stream().map(m -> m.getString("type")).toList());
    } finally {
      await(consumer.unregister());
    }
  }

  @Test
  @DisplayName("status changes are pushed to kith.user.<id> as presence messages")
  void statusChangesArePublished() throws Exception {
    long user = newUser();
    List<JsonObject> received = new CopyOnWriteArrayList<>();
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(Addresses.user(user), m -> received.add(m.body()));
    await(consumer.completion());
    try {
      String connection = newConnection();
      await(accountsInternal.connectionChanged(user, connection, true));
      poll("an online presence push", Duration.ofSeconds(10), () -> Future.succeededFuture(
          received.stream().anyMatch(m -> "presence".equals(m.getString("kind")) && m.getLong("user_id") == user
              && m.getBoolean("online") && "online".equals(m.getString("mode")))));

      await(accounts.setPresenceMode(user, "invisible"));
      poll("a mode change push", Duration.ofSeconds(10), () -> Future.succeededFuture(
          received.stream().anyMatch(m -> "presence".equals(m.getString("kind")) && m.getBoolean("online")
              && "invisible".equals(m.getString("mode")))));

      await(accountsInternal.connectionChanged(user, connection, false));
      poll("an offline presence push", Duration.ofSeconds(10), () -> Future.succeededFuture(
          received.stream().anyMatch(m -> "presence".equals(m.getString("kind")) && !m.getBoolean("online"))));
    } finally {
      await(consumer.unregister());
    }
  }

  @Test
  @DisplayName("presence answers at most 1000 ids, skips unknown ids, and refuses an unknown mode")
  void presenceLimits() throws Exception {
    long user = newUser();
    List<Long> ids = new ArrayList<>();
    for (long i = 0; i < 1001; i++) {
      ids.add(user + 1_000_000 + i);
    }
    failsWithField("validation_failed", "ids", accounts.presence(user, ids));
    JsonObject some = await(accounts.presence(user, List.of(user, user, user + 987_654_321L)));
    assertEquals(1, some.size(), some.encode());
    assertTrue(some.containsKey(Long.toString(user)));
    assertEquals(new JsonObject(), await(accounts.presence(user, ids.subList(0, 1000))));
    failsWithField("validation_failed", "mode", accounts.setPresenceMode(user, "away"));
    failsWithField("validation_failed", "mode", accounts.setPresenceMode(user, null));
  }

  @Test
  @DisplayName("onlineAmong tells other domains who is connected, whatever their mode, for at most 1000 ids in one call")
  void onlineAmong() throws Exception {
    List<JsonObject> users = registerMany(4);
    long shown = idOf(users.get(0));
    long invisible = idOf(users.get(1));
    long friendsOnly = idOf(users.get(2));
    long away = idOf(users.get(3));
    long unknown = shown + 987_654_321L;
    await(accounts.setPresenceMode(invisible, "invisible"));
    await(accounts.setPresenceMode(friendsOnly, "friends"));
    for (long user : List.of(shown, invisible, friendsOnly)) {
      await(accountsInternal.connectionChanged(user, newConnection(), true));
    }
    // the premise: others see the invisible and friends-only users offline
    assertFalse(online(away, invisible));
    assertFalse(online(away, friendsOnly));

    JsonObject all = await(accountsInternal.onlineAmong(List.of(shown, invisible, friendsOnly, away, unknown, shown)));
    assertEquals(new JsonObject().put(Long.toString(shown), true).put(Long.toString(invisible), true)
        .put(Long.toString(friendsOnly), true).put(Long.toString(away), false).put(Long.toString(unknown), false), all);

    String last = newConnection();
    await(accountsInternal.connectionChanged(away, last, true));
    assertTrue(await(accountsInternal.onlineAmong(List.of(away))).getBoolean(Long.toString(away)));
    await(accountsInternal.connectionChanged(away, last, false));
    assertFalse(await(accountsInternal.onlineAmong(List.of(away))).getBoolean(Long.toString(away)));

    List<Long> ids = new ArrayList<>();
    for (long i = 0; i < 1001; i++) {
      ids.add(shown + 1_000_000 + i);
    }
    failsWithField("validation_failed", "ids", accountsInternal.onlineAmong(ids));
    assertEquals(1000, await(accountsInternal.onlineAmong(ids.subList(0, 1000))).size());
    assertEquals(new JsonObject(), await(accountsInternal.onlineAmong(List.of())));
  }

  @Test
  @DisplayName("recipientsAmong answers push who is connected and each account's locale at once after a change; "
      + "an unknown or suspended account has none")
  void recipientsAmong() throws Exception {
    long li = newUser();
    long ann = newUser();
    long gone = newUser();
    long unknown = li + 987_654_321L;
    patch(li, new JsonObject().put("locale", "zh-CN"));
    await(accountsInternal.connectionChanged(ann, newConnection(), true));
    await(accountsInternal.suspend(gone, 0, "spam"));

    JsonObject all = await(accountsInternal.recipientsAmong(List.of(li, ann, gone, unknown, li)));
    assertEquals(new JsonObject()
        .put(Long.toString(li), new JsonObject().put("online", false).put("locale", "zh-CN"))
        .put(Long.toString(ann), new JsonObject().put("online", true).put("locale", "en"))
        .put(Long.toString(gone), new JsonObject().put("online", false).putNull("locale"))
        .put(Long.toString(unknown), new JsonObject().put("online", false).putNull("locale")), all);

    patch(li, new JsonObject().put("locale", "en"));
    assertEquals("en", await(accountsInternal.recipientsAmong(List.of(li))).getJsonObject(Long.toString(li))
        .getString("locale"), "the change is answered at once");
    List<Long> ids = new ArrayList<>();
    for (long i = 0; i < 1001; i++) {
      ids.add(li + 1_000_000 + i);
    }
    failsWithField("validation_failed", "ids", accountsInternal.recipientsAmong(ids));
  }
}
