package io.kith.app.push;

import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.kith.app.push.PushTargetsHttpTest.apns;
import static io.kith.app.push.PushTargetsHttpTest.apnsToken;
import static io.kith.app.support.TestNode.API;
import static io.kith.app.support.TestNode.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Push texts in the recipient's language: the account's locale chooses Kith's words")
class PushLocaleHttpTest {

  private static final String TARGETS = "/me/push-targets";

  @TempDir
  static Path dir;
  private ProviderEndpoints endpoints;
  private PushKith kith;

  @BeforeAll
  void start() throws Exception {
    endpoints = new ProviderEndpoints(dir);
    kith = PushKith.start(endpoints.pushSection(WebPushSubscriber.pair()).put("pushes-per-minute", 1000));
  }

  @AfterAll
  void stop() {
    ProviderEndpoints.close(kith, endpoints);
  }

  /** A user registered with {@code locale} (as an app sends it at sign-up), with one APNs target. */
  private Recipient recipient(String locale) {
    String username = PushKith.unique("p");
    JsonObject body = kith.call(HttpMethod.POST, API + "/accounts", null, new JsonObject().put("username", username)
        .put("password", "Sunny-" + PushKith.unique("p") + "!").put("locale", locale)).expect(201);
    assertEquals(locale, body.getJsonObject("user").getString("locale"), body.encode());
    User user = new User(body.getJsonObject("user").getLong("id"), username,
        body.getJsonObject("tokens").getString("access_token"));
    String token = apnsToken();
    kith.post(TARGETS, user, apns(token)).expect(201);
    return new Recipient(user, token);
  }

  private record Recipient(User user, String token) {
  }

  /** The alert ({@code {title?, body}}) of the {@code nth} APNs push to {@code to}, once it arrived. */
  private JsonObject alert(Recipient to, int nth) {
    ProviderEndpoints.ApnsPush[] found = new ProviderEndpoints.ApnsPush[1];
    Await.result(Poll.until(kith.client(), WAIT, "APNs push " + nth + " to " + to.user().username(), () -> {
      List<ProviderEndpoints.ApnsPush> pushes = endpoints.apns.stream().filter(p -> p.token().equals(to.token()))
          .toList();
      found[0] = pushes.size() >= nth ? pushes.get(nth - 1) : null;
      return Future.succeededFuture(found[0] != null);
    }));
    return found[0].payload().getJsonObject("aps").getJsonObject("alert");
  }

  private void like(User liker, User author) {
    long post = kith.publish(author, "a post to like " + PushKith.unique("t"));
    kith.put("/posts/" + post + "/like", liker).expect(200);
  }

  private void directMessage(User from, User to, String text) {
    kith.post("/direct/" + to.path() + "/messages", from, new JsonObject().put("client_id", PushKith.unique("c"))
        .put("text", text)).expect(201);
  }

  @Test
  @DisplayName("a like reaches a zh-CN user in Chinese and an English user in English, names as written")
  void like() {
    Recipient li = recipient("zh-CN");
    Recipient ann = recipient("en");
    User bob = kith.register();

    like(bob, li.user());
    like(bob, ann.user());
    assertEquals(bob.username() + " 赞了你的动态", alert(li, 1).getString("body"));
    assertEquals(bob.username() + " liked your post", alert(ann, 1).getString("body"));
  }

  @Test
  @DisplayName("with previews off a direct message reads 新消息 to a zh-CN user and New message to an English one")
  void messageWithoutPreview() {
    Recipient li = recipient("zh-CN");
    Recipient ann = recipient("en");
    User bob = kith.register();
    for (Recipient r : List.of(li, ann)) {
      kith.put("/me/push-preferences", r.user(), new JsonObject().put("previews", false)).expect(200);
    }

    directMessage(bob, li.user(), "the secret plan");
    directMessage(bob, ann.user(), "the secret plan");
    JsonObject chinese = alert(li, 1);
    assertEquals("新消息", chinese.getString("body"));
    assertEquals(bob.username(), chinese.getString("title"), "the sender's name as written");
    assertFalse(chinese.encode().contains("secret"), "no preview");
    assertEquals("New message", alert(ann, 1).getString("body"));
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
    User bob = kith.register();
    kith.follow(bob, ann.user());
    assertEquals(bob.username() + " followed you", alert(ann, 1).getString("body"));

    assertEquals("zh-CN", kith.patch("/me", ann.user(), new JsonObject().put("locale", "zh-CN")).expect(200)
        .getString("locale"));
    User carol = kith.register();
    kith.follow(carol, ann.user());
    assertEquals(carol.username() + " 关注了你", alert(ann, 2).getString("body"));

    kith.patch("/me", ann.user(), new JsonObject().put("locale", "fr")).problem(400, "validation_failed", "locale");
    User dan = kith.register();
    kith.follow(dan, ann.user());
    assertEquals(dan.username() + " 关注了你", alert(ann, 3).getString("body"));

    kith.patch("/me", ann.user(), new JsonObject().put("locale", "en")).expect(200);
    User erin = kith.register();
    kith.follow(erin, ann.user());
    assertEquals(erin.username() + " followed you", alert(ann, 4).getString("body"));
  }
}
