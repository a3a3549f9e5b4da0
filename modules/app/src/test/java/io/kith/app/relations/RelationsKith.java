package io.kith.app.relations;

import io.kith.app.Kith;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One Kith node (accounts, relations and gateway, real wiring, in-process) for one test class, and an HTTP client
 * that talks to it as an app does. Tests make their own users, so they neither see nor depend on each other.
 */
final class RelationsKith implements AutoCloseable {

  /** The API base path. */
  static final String API = "/api/v1";
  /** The largest id the contract accepts (2^53 - 1). */
  static final long MAX_ID = 9007199254740991L;

  private static final AtomicLong SEQ = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L * 100);

  private final Kith kith;
  private final Vertx client;
  private final WebClient web;

  /** A registered user and the access token of its first session. */
  record User(long id, String username, String access) {

    /** The id as a path segment. */
    String path() {
      return Long.toString(id);
    }
  }

  private RelationsKith(Kith kith) {
    this.kith = kith;
    this.client = Vertx.vertx();
    this.web = WebClient.create(client, new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(kith.httpPort()).setFollowRedirects(false));
  }

  /** Starts a node running accounts, relations and the gateway. */
  static RelationsKith start() {
    return start(new JsonObject());
  }

  /** Starts a node running accounts, relations and the gateway with these {@code relations} settings. */
  static RelationsKith start(JsonObject relations) {
    JsonObject overrides = new JsonObject()
        .put("relations", relations)
        .put("kith", new JsonObject().put("modules", new JsonArray().add("accounts").add("relations").add("gateway")))
        .put("http", new JsonObject().put("port", 0).put("instances", 1).put("access-log", false))
        .put("bridge", new JsonObject().put("tcp-port", 0))
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000));
    return new RelationsKith(Await.result(Kith.start(KithTestKit.config(overrides))));
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
    return Await.result(response.map(r -> new Reply(r.statusCode(), r.headers(), r.body())));
  }

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
    return register(unique("r"));
  }

  /** Registers a user with this username; fails the test unless it is created. */
  User register(String username) {
    JsonObject body = registerRaw(username).expect(201);
    return new User(body.getJsonObject("user").getLong("id"), username,
        body.getJsonObject("tokens").getString("access_token"));
  }

  /** POST /api/v1/accounts for this username, whatever the answer. */
  Reply registerRaw(String username) {
    return call(HttpMethod.POST, API + "/accounts", null, new JsonObject().put("username", username)
        .put("password", "Sunny-" + unique("p") + "!"));
  }

  /** Registers {@code n} fresh users. */
  List<User> register(int n) {
    List<User> users = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      users.add(register());
    }
    return users;
  }

  /** Makes {@code user} approve followers (settings.follow_approval). */
  void requireApproval(User user) {
    JsonObject me = patch("/me", user, new JsonObject().put("settings", new JsonObject().put("follow_approval", true)))
        .expect(200);
    assertEquals(true, me.getJsonObject("settings").getBoolean("follow_approval"), me.encode());
  }

  /** {@code a} follows {@code b}; returns the state. */
  String follow(User a, User b) {
    return put("/following/" + b.path(), a).expect(200).getString("state");
  }

  /** {@code a} and {@code b} follow each other (both without approval). */
  void befriend(User a, User b) {
    assertEquals("following", follow(a, b));
    assertEquals("following", follow(b, a));
  }

  /** The ids of the users of a page, in order. */
  static List<Long> ids(JsonObject page) {
    List<Long> ids = new ArrayList<>();
    page.getJsonArray("items").forEach(item -> ids.add(((JsonObject) item).getJsonObject("user").getLong("id")));
    return ids;
  }

  /** The ids of every user of a paged list, following {@code next} with pages of {@code limit}. */
  List<Long> allIds(String path, User as, int limit) {
    List<Long> ids = new ArrayList<>();
    String cursor = null;
    for (int pages = 0; pages < 1000; pages++) {
      String sep = path.contains("?") ? "&" : "?";
      JsonObject page = get(path + sep + "limit=" + limit + (cursor == null ? "" : "&cursor=" + cursor), as)
          .expect(200);
      ids.addAll(ids(page));
      cursor = page.getString("next");
      if (cursor == null) {
        return ids;
      }
    }
    throw new AssertionError("paging never ended: " + path);
  }

  /** {@code GET /users/{id}/counts}. */
  JsonObject counts(User of, User as) {
    return get("/users/" + of.path() + "/counts", as).expect(200);
  }
}
