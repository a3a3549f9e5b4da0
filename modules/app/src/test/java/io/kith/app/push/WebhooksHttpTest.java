package io.kith.app.push;

import io.kith.app.support.Conformance;
import io.kith.app.support.User;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Webhooks over HTTP: registration refusals, signed delivery, retries, order per resource, rotation")
class WebhooksHttpTest extends HooksTest {

  private JsonObject registerRaw(String url) {
    return new JsonObject().put("url", url).put("events", new JsonArray().add("post.published"));
  }

  @Test
  @DisplayName("a URL on loopback, in a private, carrier-NAT or reserved range, IPv4-mapped, 6to4 or NAT64, with "
      + "credentials, or plain http is refused; a public https one is accepted")
  void refusedUrls() {
    for (String url : List.of("https://localhost/hook", "https://127.0.0.2/hook", "https://10.1.2.3/hook",
        "https://192.168.0.10/hook", "https://172.16.5.5/hook", "https://100.64.0.1/hook", "https://169.254.169.254/",
        "https://[::1]/hook", "https://[fd00::1]/hook", "https://[::ffff:127.0.0.1]/hook", "https://0.0.0.0/hook",
        "https://224.0.0.1/hook", "https://198.18.0.1/hook", "https://192.0.2.1/hook", "https://[fe80::1]/hook",
        "https://[ff02::1]/hook", "https://[2002:7f00:1::1]/hook", "https://[64:ff9b::7f00:1]/hook",
        "https://user:pass@93.184.216.34/hook", "http://93.184.216.34/hook", "ftp://93.184.216.34/hook")) {
      kith.admin(HttpMethod.POST, "/webhooks", registerRaw(url)).problem(400, "webhook_url_refused", "url");
    }
    // a public address is accepted (removed at once: nothing here could reach it)
    JsonObject open = kith.register("https://93.184.216.34/hook", "post.published");
    kith.admin(HttpMethod.DELETE, "/webhooks/" + open.getLong("id"), null).expectNoContent();
    // the allow-listed host is accepted over http, but on another port of loopback by name it is not
    kith.admin(HttpMethod.POST, "/webhooks", registerRaw("http://localhost:1/hook"))
        .problem(400, "webhook_url_refused", "url");
  }

  @Test
  @DisplayName("an unknown event type is refused naming events; only an admin administers webhooks: a user or a "
      + "moderator is 403 role_required, no token 401")
  void refusedCallers() {
    kith.admin(HttpMethod.POST, "/webhooks", new JsonObject().put("url", receiver.url("unknown"))
        .put("events", new JsonArray().add("post.exploded"))).problem(400, "validation_failed", "events.0");
    kith.call(HttpMethod.GET, "/api/v1/admin/webhooks", null, null).problem(401, "unauthenticated");
    for (User notAdmin : List.of(kith.register(), kith.moderator())) {
      kith.get("/admin/webhooks", notAdmin).problem(403, "role_required");
      kith.post("/admin/webhooks", notAdmin, registerRaw(receiver.url("user"))).problem(403, "role_required");
      kith.delete("/admin/webhooks/" + 9_000_000_000L, notAdmin).problem(403, "role_required");
    }
    kith.admin(HttpMethod.GET, "/webhooks", null).expect(200);
    kith.admin(HttpMethod.GET, "/webhooks/" + 9_000_000_000L, null).problem(404, "webhook_not_found");
  }

  @Test
  @DisplayName("a published post reaches the endpoint with a signature the receiver verifies with its secret")
  void signedDelivery() {
    String url = receiver.url("signedDelivery");
    JsonObject endpoint = kith.register(url, "post.published");
    String secret = endpoint.getString("secret");
    assertTrue(secret.startsWith("whsec_"));
    assertFalse(kith.admin(HttpMethod.GET, "/webhooks/" + endpoint.getLong("id"), null).expect(200)
        .containsKey("secret"), "the secret is shown once");
    User author = kith.register();
    long post = kith.publish(author, "hello hooks");

    kith.await("the post's delivery", () -> !receiver.about(url, "post", post).isEmpty());
    Receiver.Hit hit = receiver.about(url, "post", post).get(0);
    JsonObject body = hit.json();
    assertEquals("post.published", body.getString("type"));
    assertEquals("post.published", hit.event());
    assertEquals(author.id(), body.getJsonObject("data").getLong("author"));
    assertTrue(body.getLong("id") > 0);
    assertTrue(body.getString("created_at").endsWith("Z"), body.encode());
    String t = Receiver.parts(hit.signature(), "t").get(0);
    List<String> v1 = Receiver.parts(hit.signature(), "v1");
    assertEquals(List.of(Receiver.sign(secret, t, hit.body())), v1);
    assertTrue(Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(t)) < 600);
    assertNotEquals(Receiver.sign("whsec_other", t, hit.body()), v1.get(0));

    JsonArray deliveries = kith.awaitDeliveries(endpoint.getLong("id"), "the delivery recorded as delivered",
        items -> items.stream().anyMatch(d -> "delivered".equals(((JsonObject) d).getString("state"))));
    JsonObject recorded = deliveries.getJsonObject(0);
    assertEquals(200, recorded.getJsonObject("last").getInteger("status"));
    assertEquals("ok", recorded.getJsonObject("last").getString("body"));
    assertEquals(1, recorded.getInteger("attempts"));
  }

  @Test
  @DisplayName("a delivery answered 500 is retried with backoff until the endpoint answers 200, each answer recorded")
  void retriedUntilSuccess() {
    String url = receiver.url("retriedUntilSuccess");
    JsonObject endpoint = kith.register(url, "post.published");
    User author = kith.register();
    AtomicInteger failures = new AtomicInteger();
    receiver.answer(url, b -> failures.getAndIncrement() < 2 ? 500 : 200);
    long post = kith.publish(author, "retry me");
    kith.await("three attempts at the post", () -> receiver.about(url, "post", post).size() >= 3);
    JsonArray deliveries = kith.awaitDeliveries(endpoint.getLong("id"), "the delivery delivered after two 500s",
        items -> items.stream().anyMatch(d -> "delivered".equals(((JsonObject) d).getString("state"))));
    JsonObject d = deliveries.getJsonObject(0);
    assertEquals(3, d.getInteger("attempts"));
    JsonArray history = d.getJsonArray("history");
    assertEquals(List.of(500, 500, 200), history.stream().map(a -> ((JsonObject) a).getInteger("status")).toList());
    String firstBody = receiver.about(url, "post", post).get(0).body();
    receiver.about(url, "post", post)
        .forEach(hit -> assertEquals(firstBody, hit.body(), "a retry sends the same body"));
  }

  @Test
  @DisplayName("deliveries of one post keep their order: its deletion waits until its publication was delivered")
  void orderPerResource() {
    String url = receiver.url("orderPerResource");
    JsonObject endpoint = kith.register(url, "post.published", "post.deleted");
    User author = kith.register();
    AtomicInteger failures = new AtomicInteger();
    receiver.answer(url, b -> "post.published".equals(b.getString("type")) && failures.getAndIncrement() < 3
        ? 503 : 200);
    long post = kith.publish(author, "soon gone");
    kith.delete("/posts/" + post, author).expectNoContent();
    kith.awaitDeliveries(endpoint.getLong("id"), "both deliveries delivered", items -> items.size() == 2
        && items.stream().allMatch(d -> "delivered".equals(((JsonObject) d).getString("state"))));
    List<String> types = receiver.about(url, "post", post).stream().map(Receiver.Hit::event).toList();
    int lastPublished = types.lastIndexOf("post.published");
    int firstDeleted = types.indexOf("post.deleted");
    assertTrue(lastPublished >= 0 && firstDeleted > lastPublished, "arrival order: " + types);
  }

  @Test
  @DisplayName("after a secret rotation each delivery carries two signatures, the new secret's first")
  void rotation() {
    String url = receiver.url("rotation");
    JsonObject endpoint = kith.register(url, "post.published");
    String old = endpoint.getString("secret");
    JsonObject rotated = kith.admin(HttpMethod.POST, "/webhooks/" + endpoint.getLong("id") + "/rotate-secret", null)
        .expect(200);
    String fresh = rotated.getString("secret");
    assertNotEquals(old, fresh);
    assertTrue(rotated.getLong("previous_secret_expires") > System.currentTimeMillis());
    User author = kith.register();
    long post = kith.publish(author, "rotated");
    kith.await("the post's delivery", () -> !receiver.about(url, "post", post).isEmpty());
    Receiver.Hit hit = receiver.about(url, "post", post).get(0);
    String t = Receiver.parts(hit.signature(), "t").get(0);
    assertEquals(List.of(Receiver.sign(fresh, t, hit.body()), Receiver.sign(old, t, hit.body())),
        Receiver.parts(hit.signature(), "v1"));
  }

  @Test
  @DisplayName("a filed report reaches an endpoint subscribed to report.filed, naming the target and never the reporter")
  void reportFiled() {
    String url = receiver.url("reportFiled");
    kith.register(url, "report.filed");
    User alice = kith.register();
    User bob = kith.register();
    long report = kith.post("/reports", alice, new JsonObject().put("target", new JsonObject().put("type", "user")
        .put("id", bob.id())).put("category", "spam")).expect(201).getLong("id");

    kith.await("the report's delivery", () -> !receiver.about(url, "report", report).isEmpty());
    JsonObject body = receiver.about(url, "report", report).get(0).json();
    assertEquals("report.filed", body.getString("type"));
    JsonObject data = body.getJsonObject("data");
    assertEquals("user", data.getString("target_type"));
    assertEquals(bob.id(), data.getLong("target_id"));
    assertEquals(bob.id(), data.getLong("target_owner"));
    assertEquals("spam", data.getString("category"));
    assertFalse(data.encode().contains(Long.toString(alice.id())), "the reporter is never named: " + data.encode());
  }

  @Test
  @DisplayName("a moderator's limit reaches an endpoint subscribed to user.limited with the user and until (0: "
      + "permanent), and the unlimit one subscribed to user.unlimited, each body valid against its type's schema")
  void limitedAndUnlimited() {
    String url = receiver.url("limitedAndUnlimited");
    kith.register(url, "user.limited", "user.unlimited");
    User mod = kith.moderator();
    User bob = kith.register();
    kith.post("/admin/users/" + bob.path() + "/limit", mod, new JsonObject().put("reason", "spam run")).expect(200);
    kith.await("the limit's delivery", () -> !receiver.about(url, "user_id", bob.id()).isEmpty());
    kith.post("/admin/users/" + bob.path() + "/unlimit", mod, new JsonObject().put("reason", "served")).expect(200);
    kith.await("the unlimit's delivery", () -> receiver.about(url, "user_id", bob.id()).size() >= 2);

    Conformance contract = Conformance.load();
    Map<String, String> schemas = Map.of("user.limited", "WebhookUserLimited", "user.unlimited",
        "WebhookUserUnlimited");
    List<Receiver.Hit> hits = receiver.about(url, "user_id", bob.id());
    assertEquals(List.of("user.limited", "user.unlimited"), hits.stream().map(Receiver.Hit::event).toList());
    for (Receiver.Hit hit : hits) {
      JsonObject body = hit.json();
      assertEquals(hit.event(), body.getString("type"));
      assertEquals(List.of(), contract.schemaProblems(schemas.get(hit.event()), body), body.encode());
      assertEquals(List.of(), contract.schemaProblems("WebhookPayload", body), body.encode());
    }
    JsonObject limited = hits.get(0).json().getJsonObject("data");
    assertEquals(0L, limited.getLong("until"), "no until: permanent");
    assertEquals(Set.of("user_id", "until"), limited.fieldNames(), "the reason never leaves: " + limited.encode());
    assertEquals(Set.of("user_id"), hits.get(1).json().getJsonObject("data").fieldNames());
  }

  @Test
  @DisplayName("the deliveries of a registration, a follow, a post, a comment, a like and a deletion match their types' "
      + "schemas under the OpenAPI document's webhooks")
  void bodiesMatchTheContract() {
    String url = receiver.url("bodiesMatchTheContract");
    kith.register(url, "*");
    User alice = kith.register();
    User bob = kith.register();
    kith.follow(bob, alice);
    long post = kith.publish(alice, "typed hooks");
    long comment = kith.post("/posts/" + post + "/comments", bob, new JsonObject().put("text", "nice"))
        .expect(201).getLong("id");
    kith.put("/posts/" + post + "/like", bob).expect(200);
    kith.delete("/posts/" + post, alice).expectNoContent();

    Map<String, String> schemas = Map.of("user.registered", "WebhookUserRegistered",
        "relation.followed", "WebhookRelationFollowed", "post.published", "WebhookPostPublished",
        "comment.added", "WebhookCommentAdded", "like.added", "WebhookLikeAdded", "post.deleted", "WebhookPostDeleted");
    Supplier<List<Receiver.Hit>> hits = () -> {
      List<Receiver.Hit> all = new ArrayList<>(receiver.about(url, "user_id", bob.id()));
      all.addAll(receiver.about(url, "to", alice.id()));
      all.addAll(receiver.about(url, "post", post));
      return all;
    };
    kith.await("the six types delivered", () -> hits.get().stream().map(h -> h.json().getString("type"))
        .collect(Collectors.toSet()).containsAll(schemas.keySet()));
    Conformance contract = Conformance.load();
    Set<String> seen = new TreeSet<>();
    for (Receiver.Hit hit : hits.get()) {
      JsonObject body = hit.json();
      String type = body.getString("type");
      seen.add(type);
      assertEquals(List.of(), contract.schemaProblems(schemas.get(type), body), body.encode());
      assertEquals(List.of(), contract.schemaProblems("WebhookPayload", body), body.encode());
    }
    assertEquals(new TreeSet<>(schemas.keySet()), seen);
  }
}
