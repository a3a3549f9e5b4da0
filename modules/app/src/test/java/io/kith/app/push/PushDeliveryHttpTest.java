package io.kith.app.push;

import io.kith.accounts.api.AccountsService;
import io.kith.app.support.BridgeSocket;
import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.security.KeyPair;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Supplier;

import static io.kith.app.push.PushTargetsHttpTest.apns;
import static io.kith.app.push.PushTargetsHttpTest.apnsToken;
import static io.kith.app.support.TestNode.API;
import static io.kith.app.support.TestNode.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Push delivery: stored notifications reach APNs, FCM and Web Push endpoints of offline users")
class PushDeliveryHttpTest {

  private static final String TARGETS = "/me/push-targets";

  @TempDir
  static Path dir;
  private ProviderEndpoints endpoints;
  private PushKith kith;
  private KeyPair vapid;

  @BeforeAll
  void start() throws Exception {
    endpoints = new ProviderEndpoints(dir);
    vapid = WebPushSubscriber.pair();
    kith = PushKith.start(endpoints.pushSection(vapid).put("pushes-per-minute", 1000));
  }

  @AfterAll
  void stop() {
    ProviderEndpoints.close(kith, endpoints);
  }

  private <T> T await(String what, Supplier<T> found) {
    return kith.awaitFound(what, found);
  }

  private ProviderEndpoints.ApnsPush apnsPush(String token, int nth) {
    return await("APNs push " + nth + " to " + token, () -> {
      List<ProviderEndpoints.ApnsPush> to = endpoints.apns.stream().filter(p -> p.token().equals(token)).toList();
      return to.size() >= nth ? to.get(nth - 1) : null;
    });
  }

  private long apnsCount(String token) {
    return endpoints.apns.stream().filter(p -> p.token().equals(token)).count();
  }

  private void awaitOnline(User user, boolean online) {
    AccountsService accounts = AccountsService.proxy(kith.kith().vertx());
    Await.result(Poll.until(kith.client(), WAIT, user.id() + (online ? " online" : " offline"), () ->
        accounts.presence(user.id(), List.of(user.id())).map(p ->
            p.getJsonObject(Long.toString(user.id())).getBoolean("online") == online)));
  }

  /**
   * A push to another offline user, made after what the test checks did not push: the stream is delivered in order
   * (concurrency 1), so once the marker's push arrives, the earlier event was handled.
   */
  private void marker() {
    User target = kith.register();
    String token = apnsToken();
    kith.post(TARGETS, target, apns(token)).expect(201);
    kith.follow(kith.register(), target);
    apnsPush(token, 1);
  }

  private void awaitTargets(User user, int count) {
    kith.awaitPage(TARGETS, user, count + " targets left", p -> p.getJsonArray("items").size() == count);
  }

  @Test
  @DisplayName("a notification to an offline user reaches APNs with the unread badge, its text and a collapse id; "
      + "nothing is pushed while the user is online")
  void apnsOfflineOnly() {
    User alice = kith.register();
    User bob = kith.register();
    String token = apnsToken();
    kith.post(TARGETS, alice, apns(token)).expect(201);

    kith.follow(bob, alice);
    ProviderEndpoints.ApnsPush push = apnsPush(token, 1);
    JsonObject aps = push.payload().getJsonObject("aps");
    assertEquals(1, aps.getInteger("badge"), push.payload().encode());
    assertEquals(bob.username() + " followed you", aps.getJsonObject("alert").getString("body"));
    assertEquals("follower", push.headers().get("apns-collapse-id"));
    assertEquals("io.kith.demo", push.headers().get("apns-topic"));
    assertEquals("follower", push.payload().getJsonObject("kith").getString("type"));
    assertEquals(bob.id(), push.payload().getJsonObject("kith").getLong("from_user"));

    try (BridgeSocket phone = kith.bridge(alice)) {
      awaitOnline(alice, true);
      kith.follow(kith.register(), alice);
      kith.awaitPage("/notifications", alice, "the second notification", p -> p.getJsonArray("items").size() == 2);
      marker();
    }
    assertEquals(1, apnsCount(token), "no push while online");
    awaitOnline(alice, false);
    kith.follow(kith.register(), alice);
    assertEquals(3, apnsPush(token, 2).payload().getJsonObject("aps").getInteger("badge"),
        "the badge counts every unread notification");
  }

  @Test
  @DisplayName("a token APNs calls Unregistered is dropped; the user's other targets stay")
  void apnsGone() {
    User alice = kith.register();
    String goneToken = apnsToken();
    String liveToken = apnsToken();
    endpoints.gone.add(goneToken);
    kith.post(TARGETS, alice, apns(goneToken)).expect(201);
    long live = kith.post(TARGETS, alice, apns(liveToken)).expect(201).getLong("id");

    kith.follow(kith.register(), alice);
    apnsPush(liveToken, 1);
    awaitTargets(alice, 1);
    assertEquals(live, kith.get(TARGETS, alice).expect(200).getJsonArray("items").getJsonObject(0).getLong("id"));
  }

  @Test
  @DisplayName("Web Push sends a payload the subscription's keys decrypt, signed with VAPID; 410 drops it")
  void webPush() throws Exception {
    User alice = kith.register();
    User bob = kith.register();
    WebPushSubscriber browser = new WebPushSubscriber();
    WebPushSubscriber goneBrowser = new WebPushSubscriber();
    String origin = "https://localhost:" + endpoints.webPushPort;
    String path = "/wp/" + apnsToken();
    String gonePath = "/wp/" + apnsToken();
    endpoints.gone.add(gonePath.substring(4));
    kith.post(TARGETS, alice, browser.target(origin + path)).expect(201);
    kith.post(TARGETS, alice, goneBrowser.target(origin + gonePath)).expect(201);

    kith.follow(bob, alice);
    ProviderEndpoints.Request request = await("the Web Push request", () -> endpoints.webPush.stream()
        .filter(r -> r.path().equals(path)).findFirst().orElse(null));
    assertEquals("aes128gcm", request.headers().get("content-encoding"));
    assertTrue(Integer.parseInt(request.headers().get("ttl")) > 0, request.headers().toString());
    JsonObject claims = WebPushSubscriber.vapid(request.headers().get("authorization"),
        WebPushSubscriber.point(vapid.getPublic()), origin);
    assertEquals("mailto:ops@kith.test", claims.getString("sub"));
    JsonObject payload = browser.decrypt(request.body());
    assertEquals(bob.username() + " followed you", payload.getString("body"));
    assertEquals(1, payload.getInteger("badge"));
    assertEquals("follower", payload.getJsonObject("data").getString("type"));

    awaitTargets(alice, 1);
  }

  @Test
  @DisplayName("a push service's 503 is tried again after a wait and the push gets through; the target stays")
  void retried() throws Exception {
    User alice = kith.register();
    WebPushSubscriber browser = new WebPushSubscriber();
    String id = apnsToken();
    String path = "/wp/" + id;
    endpoints.failOnce.add(id);
    long target = kith.post(TARGETS, alice, browser.target("https://localhost:" + endpoints.webPushPort + path))
        .expect(201).getLong("id");

    kith.follow(kith.register(), alice);
    List<ProviderEndpoints.Request> tries = await("two tries", () -> {
      List<ProviderEndpoints.Request> to = endpoints.webPush.stream().filter(r -> r.path().equals(path)).toList();
      return to.size() >= 2 ? to : null;
    });
    assertEquals(1, browser.decrypt(tries.get(1).body()).getInteger("badge"));
    assertEquals(List.of(target), kith.get(TARGETS, alice).expect(200).getJsonArray("items").stream()
        .map(i -> ((JsonObject) i).getLong("id")).toList());
  }

  @Test
  @DisplayName("FCM gets the v1 request as Google documents it, with a token from the service account; "
      + "UNREGISTERED drops the target")
  void fcm() throws Exception {
    User alice = kith.register();
    User bob = kith.register();
    String token = "fcm-" + apnsToken();
    String goneToken = "fcm-" + apnsToken();
    endpoints.gone.add(goneToken);
    kith.post(TARGETS, alice, new JsonObject().put("kind", "fcm").put("token", token)).expect(201);
    kith.post(TARGETS, alice, new JsonObject().put("kind", "fcm").put("token", goneToken)).expect(201);

    kith.follow(bob, alice);
    ProviderEndpoints.Request request = await("the FCM request", () -> endpoints.fcm.stream()
        .filter(r -> r.body().toJsonObject().getJsonObject("message").getString("token").equals(token))
        .findFirst().orElse(null));
    assertEquals("/v1/projects/" + ProviderEndpoints.PROJECT + "/messages:send", request.path());
    assertEquals("Bearer " + ProviderEndpoints.ACCESS_TOKEN, request.headers().get("authorization"));
    assertTrue(request.headers().get("content-type").startsWith("application/json"));
    JsonObject message = request.body().toJsonObject().getJsonObject("message");
    assertEquals(bob.username() + " followed you", message.getJsonObject("notification").getString("body"));
    assertEquals("follower", message.getJsonObject("android").getString("collapse_key"));
    assertEquals(1, message.getJsonObject("android").getJsonObject("notification").getInteger("notification_count"));
    assertEquals(String.valueOf(bob.id()), message.getJsonObject("data").getString("from_user"),
        "FCM data values are strings");
    JsonObject grant = endpoints.verifiedGrant(endpoints.tokenRequests.get(0));
    assertEquals("push@" + ProviderEndpoints.PROJECT + ".iam.gserviceaccount.com", grant.getString("iss"));
    // Google's documented audience of a service-account assertion, whatever URL the key's token_uri names
    assertEquals("https://oauth2.googleapis.com/token", grant.getString("aud"));
    assertEquals("https://www.googleapis.com/auth/firebase.messaging", grant.getString("scope"));

    awaitTargets(alice, 1);
    assertEquals(token, kith.get(TARGETS, alice).expect(200).getJsonArray("items").getJsonObject(0)
        .getString("token"));
  }

  @Test
  @DisplayName("a kind turned off or quiet hours stop the push; previews off make a message read New message")
  void preferences() {
    User alice = kith.register();
    String token = apnsToken();
    kith.post(TARGETS, alice, apns(token)).expect(201);
    assertEquals(new JsonArray().add("follower"), kith.put("/me/push-preferences", alice, new JsonObject()
        .put("kinds_off", new JsonArray().add("follower"))).expect(200).getJsonArray("kinds_off"));
    kith.follow(kith.register(), alice);
    marker();
    assertEquals(0, apnsCount(token), "follower pushes are off");

    LocalTime now = LocalTime.now(ZoneOffset.UTC);
    kith.put("/me/push-preferences", alice, new JsonObject().put("kinds_off", new JsonArray())
        .put("quiet_hours", new JsonObject().put("start", now.minusHours(1).withSecond(0).withNano(0).toString())
            .put("end", now.plusHours(1).withSecond(0).withNano(0).toString()).put("time_zone", "UTC")))
        .expect(200);
    kith.follow(kith.register(), alice);
    marker();
    assertEquals(0, apnsCount(token), "quiet hours");

    JsonObject prefs = kith.put("/me/push-preferences", alice, new JsonObject().putNull("quiet_hours")
        .put("previews", false)).expect(200);
    assertEquals(new JsonObject().put("kinds_off", new JsonArray()).putNull("quiet_hours").put("previews", false),
        prefs);
    User bob = kith.register();
    kith.post("/direct/" + alice.path() + "/messages", bob, new JsonObject().put("client_id", PushKith.unique("c"))
        .put("text", "the secret plan")).expect(201);
    JsonObject aps = apnsPush(token, 1).payload().getJsonObject("aps");
    assertEquals("New message", aps.getJsonObject("alert").getString("body"));
    assertFalse(apnsPush(token, 1).payload().encode().contains("secret"), "no preview anywhere in the push");
  }

  @Test
  @DisplayName("a group message reaches an offline member with the group's name and the sender's text, and nothing "
      + "comes from a sender the member muted")
  void groupMessages() {
    User alice = kith.register();
    User bob = kith.register();
    User carol = kith.register();
    String token = apnsToken();
    kith.post(TARGETS, alice, apns(token)).expect(201);
    long group = kith.post("/groups", bob, new JsonObject().put("kind", "topic").put("name", "Night owls")
        .put("topic", PushKith.unique("topic"))).expect(201).getLong("id");
    kith.post("/groups/" + group + "/join", alice, null).expect(200);
    kith.post("/groups/" + group + "/join", carol, null).expect(200);
    kith.put("/notifications/preferences/muted-users/" + carol.path(), alice).expect(200);

    kith.post("/groups/" + group + "/messages", carol, new JsonObject().put("client_id", PushKith.unique("c"))
        .put("text", "from carol")).expect(201);
    // behind carol's on the messaging stream, delivered in order: once it arrives, carol's was handled
    long conversation = kith.post("/groups/" + group + "/messages", bob, new JsonObject()
        .put("client_id", PushKith.unique("c")).put("text", "hello owls")).expect(201).getJsonObject("message")
        .getLong("conversation");
    ProviderEndpoints.ApnsPush push = apnsPush(token, 1);
    JsonObject alert = push.payload().getJsonObject("aps").getJsonObject("alert");
    assertEquals("Night owls", alert.getString("title"));
    assertEquals(bob.username() + ": hello owls", alert.getString("body"));
    assertEquals("c" + conversation, push.headers().get("apns-collapse-id"));
    assertEquals(group, push.payload().getJsonObject("kith").getLong("group"));
    assertEquals(1, apnsCount(token), "nothing from the muted sender");
  }

  @Test
  @DisplayName("push preferences refuse unknown kinds, malformed times and unknown time zones, naming the field")
  void preferencesRefused() {
    User alice = kith.register();
    kith.put("/me/push-preferences", alice, new JsonObject().put("kinds_off", new JsonArray().add("likes")))
        .problem(400, "validation_failed", "kinds_off");
    kith.put("/me/push-preferences", alice, new JsonObject().put("quiet_hours", new JsonObject()
        .put("start", "25:00").put("end", "07:00").put("time_zone", "UTC")))
        .problem(400, "validation_failed", "quiet_hours.start");
    kith.put("/me/push-preferences", alice, new JsonObject().put("quiet_hours", new JsonObject()
        .put("start", "22:00").put("end", "07:00").put("time_zone", "Mars/Olympus")))
        .problem(400, "validation_failed", "quiet_hours.time_zone");
    kith.put("/me/push-preferences", null, new JsonObject().put("previews", false)).problem(401, "unauthenticated");
    assertEquals(new JsonObject().put("kinds_off", new JsonArray()).putNull("quiet_hours").put("previews", true),
        kith.get("/me/push-preferences", alice).expect(200));
  }

  /** Pushes in the recipient's language (issue 21): the account's locale chooses Kith's words. */
  @Nested
  @DisplayName("in the recipient's language")
  class Language {

    /** A user registered with {@code locale} (as an app sends it at sign-up), and the token of its APNs target. */
    private Recipient recipient(String locale) {
      String username = PushKith.unique("p");
      JsonObject body = kith.call(HttpMethod.POST, API + "/accounts", null, new JsonObject()
          .put("username", username).put("password", "Sunny-" + PushKith.unique("p") + "!").put("locale", locale))
          .expect(201);
      assertEquals(locale, body.getJsonObject("user").getString("locale"), body.encode());
      User user = new User(body.getJsonObject("user").getLong("id"), username,
          body.getJsonObject("tokens").getString("access_token"));
      String token = apnsToken();
      kith.post(TARGETS, user, apns(token)).expect(201);
      return new Recipient(user, token);
    }

    private record Recipient(User user, String token) {
    }

    private JsonObject alert(Recipient to, int nth) {
      return apnsPush(to.token(), nth).payload().getJsonObject("aps").getJsonObject("alert");
    }

    /** A new user follows {@code to}; its {@code nth} push must read {@code sentence} with the follower's name. */
    private void followReads(Recipient to, int nth, String sentence) {
      User follower = kith.register();
      kith.follow(follower, to.user());
      assertEquals(String.format(sentence, follower.username()), alert(to, nth).getString("body"));
    }

    @Test
    @DisplayName("a zh-CN user reads Chinese for a like and for a message with previews off (新消息), an English "
        + "user English; names go as written")
    void likeAndMessage() {
      Recipient li = recipient("zh-CN");
      Recipient ann = recipient("en");
      User bob = kith.register();
      for (Recipient r : List.of(li, ann)) {
        kith.put("/me/push-preferences", r.user(), new JsonObject().put("previews", false)).expect(200);
        kith.put("/posts/" + kith.publish(r.user(), "a post to like") + "/like", bob).expect(200);
      }
      assertEquals(bob.username() + " 赞了你的动态", alert(li, 1).getString("body"));
      assertEquals(bob.username() + " liked your post", alert(ann, 1).getString("body"));

      for (Recipient r : List.of(li, ann)) {
        kith.post("/direct/" + r.user().path() + "/messages", bob, new JsonObject()
            .put("client_id", PushKith.unique("c")).put("text", "the secret plan")).expect(201);
      }
      JsonObject chinese = alert(li, 2);
      assertEquals("新消息", chinese.getString("body"));
      assertEquals(bob.username(), chinese.getString("title"), "the sender's name as written");
      assertFalse(chinese.encode().contains("secret"), "no preview");
      assertEquals("New message", alert(ann, 2).getString("body"));
    }

    @Test
    @DisplayName("a group message with previews off reads 新消息 to a zh-CN member under the group's name as written")
    void groupMessage() {
      Recipient li = recipient("zh-CN");
      User bob = kith.register();
      kith.put("/me/push-preferences", li.user(), new JsonObject().put("previews", false)).expect(200);
      long group = kith.post("/groups", bob, new JsonObject().put("kind", "topic").put("name", "Night owls")
          .put("topic", PushKith.unique("topic"))).expect(201).getLong("id");
      kith.post("/groups/" + group + "/join", li.user(), null).expect(200);

      kith.post("/groups/" + group + "/messages", bob, new JsonObject().put("client_id", PushKith.unique("c"))
          .put("text", "hello owls")).expect(201);
      JsonObject alert = alert(li, 1);
      assertEquals("Night owls", alert.getString("title"));
      assertEquals("新消息", alert.getString("body"));
    }

    @Test
    @DisplayName("a locale changed through the profile API shows in the next push; an unsupported one is refused "
        + "and changes nothing")
    void localeChanged() {
      Recipient ann = recipient("en");
      followReads(ann, 1, "%s followed you");

      assertEquals("zh-CN", kith.patch("/me", ann.user(), new JsonObject().put("locale", "zh-CN")).expect(200)
          .getString("locale"));
      followReads(ann, 2, "%s 关注了你");

      kith.patch("/me", ann.user(), new JsonObject().put("locale", "fr")).problem(400, "validation_failed", "locale");
      followReads(ann, 3, "%s 关注了你");

      kith.patch("/me", ann.user(), new JsonObject().put("locale", "en")).expect(200);
      followReads(ann, 4, "%s followed you");
    }
  }
}
