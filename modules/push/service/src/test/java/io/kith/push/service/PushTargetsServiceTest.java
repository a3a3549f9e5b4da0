package io.kith.push.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.notifications.api.NotificationsEvents;
import io.kith.notifications.api.events.NotificationStored;
import io.kith.platform.bus.Addresses;
import io.kith.platform.events.Erasures;
import io.kith.platform.events.Exports;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.ModuleTestBase;
import io.kith.platform.testkit.Poll;
import io.kith.platform.token.TokenPair;
import io.kith.push.api.PushTargetsService;
import io.kith.push.service.delivery.DeliveryPart;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@DisplayName("Push targets through the service proxy: ownership, sessions ending, and the check at delivery time")
class PushTargetsServiceTest extends ModuleTestBase {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private PushTargetsService service;

  @BeforeAll
  void start() throws Exception {
    // always: no accounts module here to ask who is online
    startPlatform(new JsonObject().put("kith", new JsonObject().put("modules", new JsonArray().add("push")))
        .put("push", new JsonObject().put("deliver-when", "always")));
    await(new PushModule().deploy(platform));
    service = PushTargetsService.proxy(vertx);
  }

  private static JsonObject apns() {
    byte[] token = new byte[32];
    ThreadLocalRandom.current().nextBytes(token);
    return new JsonObject().put("kind", "apns").put("token", HexFormat.of().formatHex(token));
  }

  private List<Long> ids(long user) throws Exception {
    return await(service.list(user)).getJsonArray("items").stream()
        .map(i -> ((JsonObject) i).getLong("id")).toList();
  }

  private void awaitIds(long user, List<Long> expected) throws Exception {
    await(Poll.until(vertx, WAIT, "targets " + expected, () -> service.list(user)
        .map(l -> l.getJsonArray("items").stream().map(i -> ((JsonObject) i).getLong("id")).toList()
            .equals(expected))));
  }

  @Test
  @DisplayName("a user's targets are theirs alone: another user lists none and removing one is push_target_not_found")
  void ownership() throws Exception {
    long alice = KithTestKit.newUserId();
    long mallory = KithTestKit.newUserId();
    TokenPair session = await(platform.sessions().open(alice, "phone"));
    long id = await(service.register(alice, session.sessionId(), apns())).getLong("id");

    assertEquals(List.of(), ids(mallory));
    failsWith("push_target_not_found", service.remove(mallory, id));
    failsWith("validation_failed", "token", service.register(alice, session.sessionId(), apns().put("token", "zz")));
    assertEquals(List.of(id), ids(alice));
  }

  @Test
  @DisplayName("a revocation notice removes the targets of the sessions it names and keeps the others")
  void revocationNotice() throws Exception {
    long user = KithTestKit.newUserId();
    TokenPair phone = await(platform.sessions().open(user, "phone"));
    TokenPair tablet = await(platform.sessions().open(user, "tablet"));
    await(service.register(user, phone.sessionId(), apns()));
    long kept = await(service.register(user, tablet.sessionId(), apns())).getLong("id");

    vertx.eventBus().publish(Addresses.SESSIONS_REVOKED, new JsonObject().put("user", user)
        .put("sessions", new JsonArray().add(phone.sessionId())));
    awaitIds(user, List.of(kept));
  }

  @Test
  @DisplayName("a target whose session ended without a notice reaching push is dropped when a notification comes")
  void deadSessionAtDelivery() throws Exception {
    long user = KithTestKit.newUserId();
    TokenPair live = await(platform.sessions().open(user, "phone"));
    TokenPair ended = await(platform.sessions().open(user, "old phone"));
    long kept = await(service.register(user, live.sessionId(), apns())).getLong("id");
    await(service.register(user, ended.sessionId(), apns()));
    // the session ends as if the notice had been lost: the store forgets it, nobody tells push
    await(platform.redisApi().del(List.of("sess:{u:" + user + "}:s:" + ended.sessionId())));

    await(platform.events().append(NotificationsEvents.DOMAIN, NotificationsEvents.NOTIFICATION_STORED,
        new NotificationStored(user, new JsonObject().put("id", 1L).put("type", "follower"), List.of(), 1)
            .toJson()));
    awaitIds(user, List.of(kept));
  }

  @Test
  @DisplayName("a deleted account's targets, push preferences and push-rate window are erased, and the erasure is "
      + "reported")
  void erasure() throws Exception {
    long user = KithTestKit.newUserId();
    TokenPair session = await(platform.sessions().open(user, "phone"));
    await(service.register(user, session.sessionId(), apns()));
    await(service.setPreferences(user, new JsonObject().put("previews", false)));
    // the window a push to the user opened in the last minute
    String rate = DeliveryPart.rateKey(user);
    await(platform.redisApi().set(List.of(rate, "1", "PX", "600000")));

    await(platform.events().append(AccountsEvents.DOMAIN, AccountsEvents.ACCOUNT_DELETED,
        new AccountDeleted(user, System.currentTimeMillis()).toJson()));
    Erasures erasures = new Erasures(platform.mongo());
    await(Poll.until(vertx, WAIT, "the erasure report", () -> erasures.report("push-targets", user)
        .map(r -> r != null && r.getValue("finished_at") != null)));
    JsonObject report = await(erasures.report("push-targets", user));
    assertEquals(new JsonObject().put("targets", 1L).put("preferences", 1L).put("rate_limits", 1L),
        report.getJsonObject("counts"));
    assertEquals(0L, await(platform.redisApi().exists(List.of(rate))).toLong());
    assertEquals(List.of(), ids(user));
    assertEquals(true, await(service.preferences(user)).getBoolean("previews"));
  }

  @Test
  @DisplayName("an export's push part holds the user's own targets as they list them and their preferences, and "
      + "nothing of another user's")
  void export() throws Exception {
    long user = KithTestKit.newUserId();
    long other = KithTestKit.newUserId();
    TokenPair session = await(platform.sessions().open(user, "phone"));
    JsonObject target = await(service.register(user, session.sessionId(), apns()));
    await(service.setPreferences(user, new JsonObject().put("previews", false)));
    TokenPair theirs = await(platform.sessions().open(other, "phone"));
    await(service.register(other, theirs.sessionId(), apns()));

    Exports.Page page = await(Exports.fetch(vertx, "push", user, null, 10_000));
    assertNull(page.cursor(), "one page");
    List<JsonObject> targets = page.records().stream().filter(r -> r.file().equals("targets.json"))
        .map(Exports.Record::item).toList();
    assertEquals(List.of(target), targets);
    List<JsonObject> prefs = page.records().stream().filter(r -> r.file().equals("preferences.json"))
        .map(Exports.Record::item).toList();
    assertEquals(List.of(await(service.preferences(user))), prefs);
    assertEquals(false, prefs.get(0).getBoolean("previews"));
    assertEquals(2, page.records().size(), page.toJson().encode());
  }
}
