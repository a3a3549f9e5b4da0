package io.kith.app.messaging;

import io.kith.app.Kith;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One Kith node (accounts, relations, messaging and gateway, real wiring, in-process) for one test class, and an
 * HTTP client and bridge sockets that talk to it as an app does. Tests make their own users.
 */
final class MessagingKith implements AutoCloseable {

  static final String API = "/api/v1";
  static final Duration WAIT = Duration.ofSeconds(20);

  private static final AtomicLong SEQ = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L * 100);

  private final Kith kith;
  private final Vertx client;
  private final WebClient web;

  /** A registered user and the access token of its first session. */
  record User(long id, String username, String access) {

    String address() {
      return "kith.user." + id;
    }

    String path() {
      return Long.toString(id);
    }
  }

  private MessagingKith(Kith kith) {
    this.kith = kith;
    this.client = Vertx.vertx();
    this.web = WebClient.create(client, new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(kith.httpPort()).setFollowRedirects(false));
  }

  static MessagingKith start() {
    return start(new JsonObject());
  }

  /** A node whose {@code messaging} configuration section has these overrides. */
  static MessagingKith start(JsonObject messaging) {
    JsonObject overrides = new JsonObject()
        .put("kith", new JsonObject().put("modules",
            new JsonArray().add("accounts").add("relations").add("messaging").add("gateway")))
        .put("http", new JsonObject().put("port", 0).put("instances", 1).put("access-log", false))
        .put("bridge", new JsonObject().put("tcp-port", 0))
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000))
        .put("messaging", messaging.copy());
    return new MessagingKith(Await.result(Kith.start(KithTestKit.config(overrides))));
  }

  Kith kith() {
    return kith;
  }

  Vertx client() {
    return client;
  }

  int port() {
    return kith.httpPort();
  }

  @Override
  public void close() {
    try {
      web.close();
      Await.result(client.close());
    } finally {
      Await.result(kith.stop());
    }
  }

  static String unique(String prefix) {
    return prefix + Long.toString(SEQ.incrementAndGet(), 36);
  }

  Reply call(HttpMethod method, String path, String token, Object body) {
    HttpRequest<Buffer> request = web.request(method, path);
    if (token != null) {
      request.putHeader("Authorization", "Bearer " + token);
    }
    Future<io.vertx.ext.web.client.HttpResponse<Buffer>> response;
    if (body == null) {
      response = request.send();
    } else {
      request.putHeader("Content-Type", "application/json");
      response = request.sendBuffer(body instanceof JsonObject ? ((JsonObject) body).toBuffer()
          : Buffer.buffer(String.valueOf(body)));
    }
    return Await.result(response.map(r -> new Reply(r.statusCode(), r.headers(), r.body())));
  }

  Reply get(String path, User as) {
    return call(HttpMethod.GET, API + path, as == null ? null : as.access(), null);
  }

  Reply put(String path, User as, Object body) {
    return call(HttpMethod.PUT, API + path, as == null ? null : as.access(), body);
  }

  Reply post(String path, User as, Object body) {
    return call(HttpMethod.POST, API + path, as == null ? null : as.access(), body);
  }

  Reply patch(String path, User as, Object body) {
    return call(HttpMethod.PATCH, API + path, as == null ? null : as.access(), body);
  }

  User register() {
    String username = unique("g");
    JsonObject body = call(HttpMethod.POST, API + "/accounts", null, new JsonObject().put("username", username)
        .put("password", "Sunny-" + unique("p") + "!")).expect(201);
    return new User(body.getJsonObject("user").getLong("id"), username,
        body.getJsonObject("tokens").getString("access_token"));
  }

  void follow(User a, User b) {
    assertEquals("following", put("/following/" + b.path(), a, null).expect(200).getString("state"));
  }

  /** Sends a text message over HTTP; returns the stored message. */
  JsonObject message(User from, User to, String text) {
    return post("/direct/" + to.path() + "/messages", from, new JsonObject().put("text", text)
        .put("client_id", UUID.randomUUID().toString())).expect(201).getJsonObject("message");
  }

  /** Creates a topic group ({@code "topic"}) or a friend group ({@code "friends"}) owned by {@code owner}; its id. */
  long group(User owner, String kind) {
    JsonObject spec = new JsonObject().put("kind", kind).put("name", unique("Group "));
    if (kind.equals("topic")) {
      spec.put("topic", "testing");
    }
    return post("/groups", owner, spec).expect(201).getLong("id");
  }

  /** Sends a text message to a group over HTTP; returns the stored message. */
  JsonObject groupMessage(User from, long group, String text) {
    return post("/groups/" + group + "/messages", from, new JsonObject().put("text", text)
        .put("client_id", UUID.randomUUID().toString())).expect(201).getJsonObject("message");
  }

  /** Every message after {@code afterSeq}, following after_seq with pages of {@code limit}. */
  List<JsonObject> since(User as, long conversation, long afterSeq, int limit) {
    List<JsonObject> out = new ArrayList<>();
    long after = afterSeq;
    for (int pages = 0; pages < 1000; pages++) {
      JsonObject page = get("/conversations/" + conversation + "/messages?after_seq=" + after + "&limit=" + limit, as)
          .expect(200);
      if (page.getJsonArray("items").isEmpty()) {
        return out;
      }
      page.getJsonArray("items").forEach(m -> out.add((JsonObject) m));
      after = out.get(out.size() - 1).getLong("seq");
    }
    throw new AssertionError("paging never ended");
  }

  /** Connects a socket registered on the user's address and waits until a probe published there arrives. */
  BridgeSocket connect(User user) {
    BridgeSocket socket = BridgeSocket.connect(client, port(), null);
    socket.register(user.address(), user.access());
    String probe = UUID.randomUUID().toString();
    Await.result(Poll.until(client, WAIT, "the registration on " + user.address(), () -> {
      kith.vertx().eventBus().publish(user.address(), new JsonObject().put("kind", "probe").put("id", probe));
      return Future.succeededFuture(socket.pending().stream().anyMatch(f -> f.getValue("body") instanceof JsonObject
          && probe.equals(f.getJsonObject("body").getString("id"))));
    }));
    return socket;
  }
}
