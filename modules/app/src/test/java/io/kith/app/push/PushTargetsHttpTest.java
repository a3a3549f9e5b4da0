package io.kith.app.push;

import io.kith.app.support.Conformance;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.security.KeyPairGenerator;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Push targets over HTTP: register, list, remove, bounds, and the end of their session")
class PushTargetsHttpTest {

  private static final int MAX_TARGETS = 3;
  private static final String TARGETS = "/me/push-targets";

  private PushKith kith;
  private Conformance contract;

  @BeforeAll
  void start() {
    kith = PushKith.start(new JsonObject().put("max-targets-per-user", MAX_TARGETS));
    contract = Conformance.load();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  static String apnsToken() {
    byte[] token = new byte[32];
    ThreadLocalRandom.current().nextBytes(token);
    return HexFormat.of().formatHex(token);
  }

  static JsonObject apns(String token) {
    return new JsonObject().put("kind", "apns").put("token", token).put("topic", "io.kith.demo").put("sandbox", true);
  }

  static JsonObject webPush(String endpoint) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    ECPublicKey key = (ECPublicKey) generator.generateKeyPair().getPublic();
    byte[] point = new byte[65];
    point[0] = 4;
    copy32(key.getW().getAffineX().toByteArray(), point, 1);
    copy32(key.getW().getAffineY().toByteArray(), point, 33);
    byte[] auth = new byte[16];
    ThreadLocalRandom.current().nextBytes(auth);
    Base64.Encoder enc = Base64.getUrlEncoder().withoutPadding();
    return new JsonObject().put("kind", "webpush").put("endpoint", endpoint)
        .put("keys", new JsonObject().put("p256dh", enc.encodeToString(point)).put("auth", enc.encodeToString(auth)));
  }

  private static void copy32(byte[] unsigned, byte[] into, int at) {
    int skip = Math.max(0, unsigned.length - 32);
    int len = unsigned.length - skip;
    System.arraycopy(unsigned, skip, into, at + 32 - len, len);
  }

  private List<Long> targetIds(User user) {
    JsonObject list = kith.get(TARGETS, user).expect(200);
    assertTrue(contract.problems("listPushTargets", 200, list).isEmpty(), list.encode());
    return list.getJsonArray("items").stream().map(i -> ((JsonObject) i).getLong("id")).toList();
  }

  @Test
  @DisplayName("a user registers an APNs, an FCM and a Web Push target, lists them newest first and removes one")
  void registerListRemove() throws Exception {
    User user = kith.register();
    JsonObject ios = kith.post(TARGETS, user, apns(apnsToken())).expect(201);
    assertTrue(contract.problems("registerPushTarget", 201, ios).isEmpty(), ios.encode());
    assertEquals("apns", ios.getString("kind"));
    assertEquals("io.kith.demo", ios.getString("topic"));
    assertEquals(true, ios.getBoolean("sandbox"));
    JsonObject android = kith.post(TARGETS, user, new JsonObject().put("kind", "fcm")
        .put("token", "fcm:" + io.kith.app.support.TestKith.unique("t"))).expect(201);
    JsonObject browser = kith.post(TARGETS, user, webPush("https://push.example.com/send/" + apnsToken()))
        .expect(201);
    assertNull(browser.getValue("keys"), "the Web Push keys are not echoed: " + browser.encode());

    assertEquals(List.of(browser.getLong("id"), android.getLong("id"), ios.getLong("id")), targetIds(user));

    kith.delete(TARGETS + "/" + android.getLong("id"), user).expectNoContent();
    assertEquals(List.of(browser.getLong("id"), ios.getLong("id")), targetIds(user));
    kith.delete(TARGETS + "/" + android.getLong("id"), user).problem(404, "push_target_not_found");
  }

  @Test
  @DisplayName("the same token again is the same target, and a device that changes accounts leaves the first one")
  void sameTokenSameTarget() {
    User alice = kith.register();
    User bob = kith.register();
    String token = apnsToken();
    long first = kith.post(TARGETS, alice, apns(token)).expect(201).getLong("id");
    assertEquals(first, kith.post(TARGETS, alice, apns(token.toUpperCase())).expect(201).getLong("id"),
        "hex case does not make another target");
    assertEquals(List.of(first), targetIds(alice));

    long bobs = kith.post(TARGETS, bob, apns(token)).expect(201).getLong("id");
    assertNotEquals(first, bobs, "another user's target is a new one");
    assertEquals(List.of(bobs), targetIds(bob));
    assertEquals(List.of(), targetIds(alice), "one device pushes to the account that registered it last");
  }

  @Test
  @DisplayName("nobody lists or removes another user's target: removing it is 404 as for an unknown id")
  void othersTargets() {
    User alice = kith.register();
    User mallory = kith.register();
    long target = kith.post(TARGETS, alice, apns(apnsToken())).expect(201).getLong("id");

    assertEquals(List.of(), targetIds(mallory));
    JsonObject foreign = kith.delete(TARGETS + "/" + target, mallory).problem(404, "push_target_not_found");
    JsonObject unknown = kith.delete(TARGETS + "/" + (target + 1_000_000), mallory)
        .problem(404, "push_target_not_found");
    assertEquals(unknown.getString("detail"), foreign.getString("detail"));
    assertEquals(List.of(target), targetIds(alice), "the refused removal changed nothing");
  }

  @Test
  @DisplayName("malformed tokens, a non-https endpoint and Web Push keys off the curve or of the wrong size are "
      + "refused naming the field, and nothing is stored")
  void badInput() throws Exception {
    User user = kith.register();
    kith.post(TARGETS, user, apns("abc123")).problem(400, "validation_failed", "token");
    kith.post(TARGETS, user, apns(apnsToken().replace('a', 'z').replace('0', 'z') + "zz"))
        .problem(400, "validation_failed", "token");
    kith.post(TARGETS, user, apns(apnsToken()).put("topic", "no spaces allowed"))
        .problem(400, "validation_failed", "topic");
    kith.post(TARGETS, user, new JsonObject().put("kind", "fcm").put("token", "has blank"))
        .problem(400, "validation_failed", "token");
    kith.post(TARGETS, user, new JsonObject().put("kind", "fcm").put("token", "t").put("endpoint", "https://x.io"))
        .problem(400, "validation_failed", "endpoint");
    kith.post(TARGETS, user, webPush("http://push.example.com/x")).problem(400, "validation_failed", "endpoint");

    JsonObject offCurve = webPush("https://push.example.com/x");
    byte[] point = Base64.getUrlDecoder().decode(offCurve.getJsonObject("keys").getString("p256dh"));
    point[64] ^= 1;
    offCurve.getJsonObject("keys").put("p256dh", Base64.getUrlEncoder().withoutPadding().encodeToString(point));
    kith.post(TARGETS, user, offCurve).problem(400, "validation_failed", "keys.p256dh");
    JsonObject shortAuth = webPush("https://push.example.com/x");
    shortAuth.getJsonObject("keys").put("auth", "AAAA");
    kith.post(TARGETS, user, shortAuth).problem(400, "validation_failed", "keys.auth");
    kith.post(TARGETS, user, new JsonObject().put("kind", "sms").put("token", "x")).problem(400, "validation_failed");

    assertEquals(List.of(), targetIds(user));
  }

  @Test
  @DisplayName("past the bound a new target is refused with 409 push_targets_limit; an existing one still refreshes")
  void bounded() {
    User user = kith.register();
    String first = apnsToken();
    kith.post(TARGETS, user, apns(first)).expect(201);
    for (int i = 1; i < MAX_TARGETS; i++) {
      kith.post(TARGETS, user, apns(apnsToken())).expect(201);
    }
    kith.post(TARGETS, user, apns(apnsToken())).problem(409, "push_targets_limit");
    kith.post(TARGETS, user, apns(first)).expect(201);
    assertEquals(MAX_TARGETS, targetIds(user).size());
  }

  @Test
  @DisplayName("without a token every push-target operation is 401 unauthenticated")
  void unauthenticated() {
    kith.post(TARGETS, null, apns(apnsToken())).problem(401, "unauthenticated");
    kith.get(TARGETS, null).problem(401, "unauthenticated");
    kith.delete(TARGETS + "/1", null).problem(401, "unauthenticated");
  }

  @Test
  @DisplayName("logging out removes that session's targets and keeps the other session's; registering again moves "
      + "a target to the current session")
  void logoutRemovesTargets() {
    User phone = kith.registerWithPassword();
    User tablet = kith.secondSession(phone);
    String shared = apnsToken();
    kith.post(TARGETS, phone, apns(shared)).expect(201);
    long phoneOnly = kith.post(TARGETS, phone, apns(apnsToken())).expect(201).getLong("id");
    long tablets = kith.post(TARGETS, tablet, apns(apnsToken())).expect(201).getLong("id");
    long moved = kith.post(TARGETS, tablet, apns(shared)).expect(201).getLong("id");

    kith.post("/auth/logout", phone, null).expectNoContent();

    JsonObject left = kith.awaitPage(TARGETS, tablet, "the phone session's targets removed",
        page -> page.getJsonArray("items").size() == 2);
    List<Long> ids = left.getJsonArray("items").stream().map(i -> ((JsonObject) i).getLong("id")).toList();
    assertFalse(ids.contains(phoneOnly), left.encode());
    assertEquals(List.of(tablets, moved), ids, "newest first: the moved target keeps its id");
  }
}
