package io.kith.app.accounts;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.app.accounts.AccountsKith.User;
import io.kith.platform.Platform;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.testkit.EventRecorder;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;

import static io.kith.app.accounts.AccountsKith.newAddress;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Erasing accounts whose deletion is due, with two nodes sweeping the same stores")
class ErasureHttpTest {

  /** Both nodes erase at once (grace 0) and sweep every second. */
  private static final JsonObject DUE_AT_ONCE = new JsonObject().put("accounts", new JsonObject()
      .put("deletion-grace-days", 0).put("deletion-sweep-seconds", 1));

  private AccountsKith one;
  private AccountsKith two;
  private Recorder events;

  @BeforeAll
  void start() {
    one = AccountsKith.start(DUE_AT_ONCE.copy());
    two = AccountsKith.start(DUE_AT_ONCE.copy());
    events = new Recorder(one.kith().platform());
    try {
      events.start();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  @AfterAll
  void stop() throws Exception {
    if (events != null) {
      events.close();
    }
    for (AccountsKith node : new AccountsKith[] {one, two}) {
      if (node != null) {
        node.close();
      }
    }
  }

  private Future<JsonObject> account(long id) {
    return one.kith().platform().mongo().findOne("accounts", new JsonObject().put("_id", id), null);
  }

  /** The tombstone once the erasure finished. */
  private JsonObject awaitErased(long id) {
    one.eventually("account " + id + " erased", () -> account(id).map(doc -> doc != null
        && "erased".equals(doc.getJsonObject("deletion", new JsonObject()).getString("state"))));
    return Await.result(account(id));
  }

  /** The AccountDeleted events about {@code userId} recorded so far (at least one: waits for the first). */
  private List<DomainEvent> deletedEvents(long userId) {
    java.util.function.Supplier<List<DomainEvent>> mine = () -> events.matching(e ->
        AccountsEvents.ACCOUNT_DELETED.equals(e.type()) && AccountDeleted.fromJson(e.payload()).userId() == userId);
    one.eventually("AccountDeleted of " + userId, () -> Future.succeededFuture(!mine.get().isEmpty()));
    return mine.get();
  }

  /** The accounts stream, read from the class's start in a group of its own. */
  private static final class Recorder extends EventRecorder {
    Recorder(Platform platform) {
      super(platform, AccountsEvents.DOMAIN);
    }
  }

  @Test
  @DisplayName("a due account is erased once: login 401 account_deleted, old token 401, username absent, "
      + "one AccountDeleted, and the tombstone reserves the username and reports the counts")
  void erased() {
    User user = one.register();
    User other = two.register();
    // an export asked before the deletion goes with the account (its document and any archive)
    long export = one.post("/me/export", user.access(), null).expect(202).getLong("export_id");
    one.call(HttpMethod.DELETE, AccountsKith.API + "/me", user.access(), newAddress(),
        new JsonObject().put("password", user.password())).expect(200);

    JsonObject tombstone = awaitErased(user.id());
    assertNull(Await.result(one.kith().platform().mongo().findOne("account_exports",
        new JsonObject().put("_id", export), null)), "the export's document is erased");
    one.login(user.username(), user.password(), newAddress()).problem(401, "account_deleted");
    two.login(user.email(), user.password(), newAddress()).problem(401, "invalid_credentials");
    one.get("/me", user.access()).problem(401, "session_revoked");
    two.get("/users/by-username/" + user.username(), other.access()).problem(404, "user_not_found");
    two.get("/users/" + user.id(), other.access()).problem(404, "user_not_found");
    one.registerRaw(new JsonObject().put("username", user.username()).put("password", "Another-pass-991"),
        newAddress()).problem(409, "username_taken");

    List<DomainEvent> deleted = deletedEvents(user.id());
    assertEquals(1, deleted.size(), deleted.toString());
    assertTrue(AccountDeleted.fromJson(deleted.get(0).payload()).deletedAt() > 0, deleted.toString());
    for (String gone : List.of("password", "email", "email_lc", "phone", "nickname_lc", "username")) {
      assertFalse(tombstone.containsKey(gone), gone + " kept: " + tombstone.encode());
    }
    assertEquals(user.username().toLowerCase(java.util.Locale.ROOT), tombstone.getString("username_lc"));
    JsonObject erasure = tombstone.getJsonObject("erasure");
    assertNotNull(erasure.getLong("finished_at"), erasure.encode());
    JsonObject counts = erasure.getJsonObject("counts");
    assertTrue(counts.getLong("profile_fields") >= 5, counts.encode());
    // the codes of the registration's email and phone waited unused; sessions and device tokens end at the request,
    // but with no grace a sweep may claim the account between its pending mark and their end, and count them itself
    assertEquals(2L, counts.getLong("codes"), counts.encode());
    assertTrue(counts.getLong("sessions") <= 1, counts.encode());
    assertTrue(counts.getLong("device_tokens") <= 1, counts.encode());
    assertEquals(List.of(), Await.result(one.kith().platform().sessions().list(user.id())), "sessions left");
    assertEquals(1L, counts.getLong("exports"), counts.encode());
    for (String step : List.of("sessions", "device_tokens", "codes", "presence", "nearby", "rate_limits",
        "exports", "profile_fields", "event")) {
      assertTrue(erasure.getJsonArray("steps").contains(step), step + " missing: " + erasure.encode());
    }
  }

  @Test
  @DisplayName("an erasure takes the user's nearby position and per-user limit windows out of Redis, and counts "
      + "the position")
  void redisStateErased() {
    User user = one.register();
    User other = two.register();
    one.updateProfile(user, new JsonObject().put("settings", new JsonObject().put("nearby_visible", true)));
    one.put("/me/position", user.access(), new JsonObject().put("lat", 48.137).put("lon", 11.575))
        .expectNoContent();
    one.get("/users/" + other.id(), user.access()).expect(200);
    String member = Long.toString(user.id());
    // what the erasure must take: the position (both sorted sets) and the profile-read window of the minute
    assertNotNull(redis(Request.cmd(Command.ZSCORE).arg("geo:{nearby}").arg(member)), "position stored");
    assertNotNull(redis(Request.cmd(Command.ZSCORE).arg("geo:{nearby}:exp").arg(member)), "expiry stored");
    assertEquals(1L, redis(Request.cmd(Command.EXISTS).arg("rl:accounts:profile:" + user.id())).toLong());

    one.call(HttpMethod.DELETE, AccountsKith.API + "/me", user.access(), newAddress(),
        new JsonObject().put("password", user.password())).expect(200);
    JsonObject tombstone = awaitErased(user.id());

    assertEquals(1L, tombstone.getJsonObject("erasure").getJsonObject("counts").getLong("nearby"),
        tombstone.encode());
    assertNull(redis(Request.cmd(Command.ZSCORE).arg("geo:{nearby}").arg(member)), "position left");
    assertNull(redis(Request.cmd(Command.ZSCORE).arg("geo:{nearby}:exp").arg(member)), "expiry left");
    assertEquals(0L, redis(Request.cmd(Command.EXISTS).arg("rl:accounts:profile:" + user.id())).toLong(),
        "profile-read window left");
  }

  private Response redis(Request request) {
    return Await.result(one.kith().platform().redis().send(request));
  }

  @Test
  @DisplayName("later sweeps of both nodes leave an erased account as it is and append nothing more")
  void idempotent() {
    User user = two.register();
    two.call(HttpMethod.DELETE, AccountsKith.API + "/me", user.access(), newAddress(),
        new JsonObject().put("password", user.password())).expect(200);
    JsonObject tombstone = awaitErased(user.id());
    // a marker account deleted after the erasure: once it is erased too, later sweeps have run over the tombstone
    User marker = one.register();
    one.call(HttpMethod.DELETE, AccountsKith.API + "/me", marker.access(), newAddress(),
        new JsonObject().put("password", marker.password())).expect(200);
    awaitErased(marker.id());
    deletedEvents(marker.id());
    assertEquals(tombstone, Await.result(account(user.id())));
    assertEquals(1, deletedEvents(user.id()).size());
  }

  @Test
  @DisplayName("an erasure that stopped midway (its claim lapsed) is resumed by a node and skips the steps done")
  void resumed() {
    User user = one.register();
    // the state a node leaves when it crashes after two steps: claimed long ago, sessions and device tokens done
    JsonObject crashed = new JsonObject()
        .put("deletion", new JsonObject().put("state", "erasing").put("requested_at", 1L).put("due_at", 1L)
            .put("claimed_at", 1L))
        .put("erasure", new JsonObject().put("steps", new JsonArray().add("sessions").add("device_tokens"))
            .put("counts", new JsonObject().put("sessions", 1L).put("device_tokens", 1L)));
    Await.result(one.kith().platform().mongo().updateCollection("accounts", new JsonObject().put("_id", user.id()),
        new JsonObject().put("$set", crashed)));

    JsonObject tombstone = awaitErased(user.id());
    JsonObject counts = tombstone.getJsonObject("erasure").getJsonObject("counts");
    assertEquals(1L, counts.getLong("sessions"), counts.encode());
    assertTrue(counts.getLong("profile_fields") >= 5, counts.encode());
    assertEquals(1, deletedEvents(user.id()).size());
    one.login(user.username(), user.password(), newAddress()).problem(401, "account_deleted");
  }
}
