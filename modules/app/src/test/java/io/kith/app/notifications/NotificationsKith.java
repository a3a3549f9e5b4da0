package io.kith.app.notifications;

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
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One Kith node (accounts, relations, feeds, notifications and gateway, real wiring, in-process) for one test class,
 * and an HTTP client that talks to it as an app does. Tests make their own users, so they neither see nor depend on
 * each other.
 */
final class NotificationsKith implements AutoCloseable {

  /** The API base path. */
  static final String API = "/api/v1";
  /** The largest id the contract accepts (2^53 - 1). */
  static final long MAX_ID = 9007199254740991L;
  /** How long a test waits for an eventual state (fan-out to timelines). */
  static final Duration WAIT = Duration.ofSeconds(20);

  private static final AtomicLong SEQ = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L * 100);

  private final Kith kith;
  private final Vertx client;
  private final WebClient web;

  /** A registered user and the access token of its first session. */
  record User(long id, String username, String access) {

    /** The user's real-time address. */
    String address() {
      return "kith.user." + id;
    }

    /** The id as a path segment. */
    String path() {
      return Long.toString(id);
    }
  }

  private NotificationsKith(Kith kith) {
    this.kith = kith;
    this.client = Vertx.vertx();
    this.web = WebClient.create(client, new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(kith.httpPort()).setFollowRedirects(false));
  }

  /** Starts a node running accounts, relations, feeds, notifications and the gateway, and {@code more} modules. */
  static NotificationsKith start(String... more) {
    return start(new JsonObject(), more);
  }

  /** As {@link #start(String...)}, with these {@code notifications} settings. */
  static NotificationsKith start(JsonObject notifications, String... more) {
    JsonArray modules = new JsonArray().add("accounts").add("relations").add("feeds").add("notifications")
        .add("gateway");
    for (String module : more) {
      modules.add(module);
    }
    JsonObject overrides = new JsonObject()
        .put("kith", new JsonObject().put("modules", modules))
        .put("http", new JsonObject().put("port", 0).put("instances", 1).put("access-log", false))
        .put("bridge", new JsonObject().put("tcp-port", 0))
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000))
        .put("notifications", notifications.copy());
    return new NotificationsKith(Await.result(Kith.start(KithTestKit.config(overrides))));
  }

  /** The node. */
  Kith kith() {
    return kith;
  }

  /** The client-side Vert.x (for bridge sockets and polling). */
  Vertx client() {
    return client;
  }

  /**
   * Connects a SockJS bridge socket registered on the user's address and waits until a probe published there
   * arrives.
   */
  BridgeSocket bridge(User user) {
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

  /** The node's HTTP port. */
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

  /** A unique token usable in usernames (letters and digits, starts with a letter). */
  static String unique(String prefix) {
    return prefix + Long.toString(SEQ.incrementAndGet(), 36);
  }

  // ------------------------------------------------------------------ HTTP

  /** Sends a request and waits for the reply; {@code token} and {@code body} may be null. */
  Reply call(HttpMethod method, String path, String token, Object body) {
    return Await.result(send(method, path, token, body));
  }

  private Future<Reply> send(HttpMethod method, String path, String token, Object body) {
    HttpRequest<Buffer> request = web.request(method, path);
    if (token != null) {
      request.putHeader("Authorization", "Bearer " + token);
    }
    io.vertx.core.Future<io.vertx.ext.web.client.HttpResponse<Buffer>> response;
    if (body == null) {
      response = request.send();
    } else {
      request.putHeader("Content-Type", "application/json");
      response = request.sendBuffer(body instanceof JsonObject ? ((JsonObject) body).toBuffer()
          : Buffer.buffer(String.valueOf(body)));
    }
    return response.map(r -> new Reply(r.statusCode(), r.headers(), r.body()));
  }

  /** GET as {@code as}, or anonymously when {@code as} is null. */
  Reply get(String path, User as) {
    return call(HttpMethod.GET, API + path, as == null ? null : as.access(), null);
  }

  Reply put(String path, User as) {
    return call(HttpMethod.PUT, API + path, as == null ? null : as.access(), null);
  }

  Reply delete(String path, User as) {
    return call(HttpMethod.DELETE, API + path, as == null ? null : as.access(), null);
  }

  Reply post(String path, User as, Object body) {
    return call(HttpMethod.POST, API + path, as == null ? null : as.access(), body);
  }

  Reply patch(String path, User as, Object body) {
    return call(HttpMethod.PATCH, API + path, as == null ? null : as.access(), body);
  }

  // ------------------------------------------------------------------ users and relations

  /** Registers a fresh user and returns it with its access token. */
  User register() {
    String username = unique("f");
    JsonObject body = registerRaw(username).expect(201);
    return new User(body.getJsonObject("user").getLong("id"), username,
        body.getJsonObject("tokens").getString("access_token"));
  }

  /** POST /api/v1/accounts for this username, whatever the answer. */
  Reply registerRaw(String username) {
    return call(HttpMethod.POST, API + "/accounts", null, new JsonObject().put("username", username)
        .put("password", "Sunny-" + unique("p") + "!"));
  }

  /** {@code a} follows {@code b} (who does not require approval). */
  void follow(User a, User b) {
    assertEquals("following", put("/following/" + b.path(), a).expect(200).getString("state"));
  }

  /** {@code a} and {@code b} follow each other: friends. */
  void befriend(User a, User b) {
    follow(a, b);
    follow(b, a);
  }

  // ------------------------------------------------------------------ feeds

  /** Publishes a post with this text and visibility; returns its view. */
  JsonObject publish(User author, String text, String visibility) {
    return post("/posts", author, new JsonObject().put("text", text).put("visibility", visibility)).expect(201);
  }

  /** Publishes a public post with this text; returns its id. */
  long publish(User author, String text) {
    return publish(author, text, "public").getLong("id");
  }

  /** The ids of the items of a page of posts, in order. */
  static List<Long> ids(JsonObject page) {
    List<Long> ids = new ArrayList<>();
    page.getJsonArray("items").forEach(item -> ids.add(((JsonObject) item).getLong("id")));
    return ids;
  }

  /** The user ids of a page of likers, in order. */
  static List<Long> userIds(JsonObject page) {
    List<Long> ids = new ArrayList<>();
    page.getJsonArray("items").forEach(item -> ids.add(((JsonObject) item).getJsonObject("user").getLong("id")));
    return ids;
  }

  /** The item of a page with this id, or null. */
  static JsonObject item(JsonObject page, long id) {
    for (Object item : page.getJsonArray("items")) {
      if (((JsonObject) item).getLong("id") == id) {
        return (JsonObject) item;
      }
    }
    return null;
  }

  /** Waits until GET {@code path} as {@code as} answers 200 with a page that {@code condition} accepts; returns it. */
  JsonObject awaitPage(String path, User as, String what, Predicate<JsonObject> condition) {
    JsonObject[] last = new JsonObject[1];
    Await.result(Poll.until(client, WAIT, what, () ->
        send(HttpMethod.GET, API + path, as == null ? null : as.access(), null).map(reply -> {
          if (reply.status() != 200) {
            return false;
          }
          last[0] = reply.body().toJsonObject();
          return condition.test(last[0]);
        })));
    return last[0];
  }

  /** Every post id of a paged list, following {@code next_max_id} with pages of {@code limit}. */
  List<Long> allIds(String path, User as, int limit) {
    List<Long> ids = new ArrayList<>();
    Long maxId = null;
    for (int pages = 0; pages < 1000; pages++) {
      String sep = path.contains("?") ? "&" : "?";
      JsonObject page = get(path + sep + "limit=" + limit + (maxId == null ? "" : "&max_id=" + maxId), as)
          .expect(200);
      ids.addAll(ids(page));
      maxId = page.getLong("next_max_id");
      if (maxId == null) {
        return ids;
      }
    }
    throw new AssertionError("paging never ended: " + path);
  }
}
