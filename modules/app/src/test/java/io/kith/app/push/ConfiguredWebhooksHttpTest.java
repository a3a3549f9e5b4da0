package io.kith.app.push;

import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Webhook endpoints from configuration (push.webhooks.endpoints)")
class ConfiguredWebhooksHttpTest {

  private static final String SECRET = "configured-secret-0123456789";
  private Vertx vertx;
  private Receiver receiver;
  private HooksKith kith;

  @BeforeAll
  void start() {
    // the receiver first: its URL goes into the node's configuration
    vertx = Vertx.vertx();
    receiver = new Receiver(vertx);
    kith = HooksKith.start(1.0, new JsonArray()
        .add(new JsonObject().put("url", receiver.url("configured")).put("secret", SECRET)
            .put("events", new JsonArray().add("user.registered")).put("description", "from kith.yaml"))
        .add(new JsonObject().put("url", "https://10.0.0.1/hook").put("secret", SECRET)
            .put("events", new JsonArray().add("*"))));
  }

  @AfterAll
  void stop() {
    try {
      if (kith != null) {
        kith.close();
      }
    } finally {
      receiver.close();
      Await.result(vertx.close());
    }
  }

  @Test
  @DisplayName("a configured endpoint is listed as such and its deliveries are signed with its configured secret; "
      + "one on a private address is left out")
  void configured() {
    JsonArray listed = kith.admin(HttpMethod.GET, "/webhooks", null).expect(200).getJsonArray("items");
    List<JsonObject> ours = listed.stream().map(e -> (JsonObject) e)
        .filter(e -> "config".equals(e.getString("source"))).toList();
    assertEquals(1, ours.size(), listed.encode());
    assertEquals(receiver.url("configured"), ours.get(0).getString("url"));
    assertEquals("from kith.yaml", ours.get(0).getString("description"));

    User user = kith.register();
    String url = receiver.url("configured");
    kith.await("the registration's delivery", () -> !receiver.about(url, "user_id", user.id()).isEmpty());
    Receiver.Hit hit = receiver.about(url, "user_id", user.id()).get(0);
    String t = Receiver.parts(hit.signature(), "t").get(0);
    assertEquals(List.of(Receiver.sign(SECRET, t, hit.body())), Receiver.parts(hit.signature(), "v1"));
    assertTrue(hit.json().getJsonObject("data").getString("username").equals(user.username()));
  }
}
