package io.kith.accounts.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.EventConsumer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The accounts domain appends its events to the event log stream {@code events:accounts}. */
class EventsTest extends AccountsTestBase {

  private final List<DomainEvent> received = new CopyOnWriteArrayList<>();
  private EventConsumer consumer;

  @BeforeEach
  void consume() throws Exception {
    received.clear();
    // a fresh group reads only what is appended after it exists
    consumer = await(platform.events().consume(AccountsEvents.DOMAIN, "accounts-test-" + UUID.randomUUID(), e -> {
      received.add(e);
      return Future.succeededFuture();
    }));
  }

  @AfterEach
  void stop() throws Exception {
    if (consumer != null) {
      await(consumer.stop());
    }
  }

  /** Waits for an event of {@code type} about {@code user} that satisfies {@code also}; returns it. */
  private DomainEvent awaitEvent(String type, long user, java.util.function.Predicate<JsonObject> also) throws Exception {
    poll(type + " of user " + user, Duration.ofSeconds(10), () -> Future.succeededFuture(find(type, user, also).isPresent()));
    return find(type, user, also).orElseThrow();
  }

  private Optional<DomainEvent> find(String type, long user, java.util.function.Predicate<JsonObject> also) {
    return received.stream().filter(e -> e.type().equals(type) && e.payload().getLong("user_id", 0L) == user
        && also.test(e.payload())).findFirst();
  }

  @Test
  @DisplayName("registering appends UserRegistered with the user id and username")
  void userRegistered() throws Exception {
    String name = newUsername();
    long id = idOf(register(new JsonObject().put("username", name)));
    DomainEvent event = awaitEvent(AccountsEvents.USER_REGISTERED, id, p -> true);
    assertEquals(name, event.payload().getString("username"));
    assertEquals(AccountsEvents.DOMAIN, event.domain());
    assertTrue(event.id() > 0);
    assertFalse(event.payload().containsKey("password"), "the event carries the password");
  }

  @Test
  @DisplayName("updating a profile appends ProfileUpdated naming the changed fields; a refused PATCH appends nothing")
  void profileUpdated() throws Exception {
    long id = newUser();
    failsWith("unknown_field", accounts.updateProfile(id, new JsonObject().put("nope", 1)));
    await(accounts.updateProfile(id, new JsonObject().put("nickname", "Evented").put("signature", "hi")));
    DomainEvent event = awaitEvent(AccountsEvents.PROFILE_UPDATED, id, p -> true);
    JsonArray fields = event.payload().getJsonArray("fields");
    assertTrue(fields.contains("nickname") && fields.contains("signature"), "fields " + fields);
    assertEquals(1, received.stream().filter(e -> e.type().equals(AccountsEvents.PROFILE_UPDATED)
        && e.payload().getLong("user_id") == id).count(), "only the accepted PATCH is an event");
  }

  @Test
  @DisplayName("changing the username appends ProfileUpdated naming username; a wrong password appends nothing")
  void usernameChanged() throws Exception {
    long id = newUser();
    failsWith("invalid_credentials", accounts.changeUsername(id, newUsername(), "not the password"));
    await(accounts.changeUsername(id, newUsername(), "correct horse battery"));
    DomainEvent event = awaitEvent(AccountsEvents.PROFILE_UPDATED, id, p -> true);
    assertEquals(new JsonArray().add("username"), event.payload().getJsonArray("fields"));
    assertEquals(1, received.stream().filter(e -> e.type().equals(AccountsEvents.PROFILE_UPDATED)
        && e.payload().getLong("user_id") == id).count(), "only the accepted change is an event");
  }

  @Test
  @DisplayName("coming online, changing presence mode and going offline append PresenceChanged")
  void presenceChanged() throws Exception {
    long id = newUser();
    String connection = "conn-" + UUID.randomUUID();
    await(accountsInternal.connectionChanged(id, connection, true));
    awaitEvent(AccountsEvents.PRESENCE_CHANGED, id, p -> p.getBoolean("online") && "online".equals(p.getString("mode")));
    await(accounts.setPresenceMode(id, "friends"));
    awaitEvent(AccountsEvents.PRESENCE_CHANGED, id, p -> p.getBoolean("online") && "friends".equals(p.getString("mode")));
    await(accountsInternal.connectionChanged(id, connection, false));
    awaitEvent(AccountsEvents.PRESENCE_CHANGED, id, p -> !p.getBoolean("online"));
  }

  @Test
  @DisplayName("a heartbeat that brings users back online appends PresenceChanged for each, with its mode, and none "
      + "for a user who was online already")
  void heartbeatPresenceChanged() throws Exception {
    List<JsonObject> users = registerMany(3);
    long back = idOf(users.get(0));
    long friendsOnly = idOf(users.get(1));
    long stayed = idOf(users.get(2));
    await(accounts.setPresenceMode(friendsOnly, "friends"));
    String stayedConnection = "conn-" + UUID.randomUUID();
    await(accountsInternal.connectionChanged(stayed, stayedConnection, true));
    awaitEvent(AccountsEvents.PRESENCE_CHANGED, stayed, p -> p.getBoolean("online"));

    await(accountsInternal.connectionsAlive(new JsonObject()
        .put(Long.toString(back), new JsonArray().add("conn-" + UUID.randomUUID()))
        .put(Long.toString(friendsOnly), new JsonArray().add("conn-" + UUID.randomUUID()))
        .put(Long.toString(stayed), new JsonArray().add(stayedConnection))));

    awaitEvent(AccountsEvents.PRESENCE_CHANGED, back, p -> p.getBoolean("online") && "online".equals(p.getString("mode")));
    awaitEvent(AccountsEvents.PRESENCE_CHANGED, friendsOnly,
        p -> p.getBoolean("online") && "friends".equals(p.getString("mode")));
    // an event appended after the heartbeat's arrives after anything the heartbeat appended
    await(accounts.setPresenceMode(stayed, "invisible"));
    awaitEvent(AccountsEvents.PRESENCE_CHANGED, stayed, p -> "invisible".equals(p.getString("mode")));
    assertEquals(2, received.stream().filter(e -> e.type().equals(AccountsEvents.PRESENCE_CHANGED)
        && e.payload().getLong("user_id") == stayed).count(), "the heartbeat appended an event for " + stayed);
  }
}
