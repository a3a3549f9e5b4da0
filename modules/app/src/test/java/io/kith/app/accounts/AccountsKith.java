package io.kith.app.accounts;

import io.kith.app.support.Reply;
import io.kith.app.support.TestNode;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Outbox;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One Kith node (accounts and gateway, real wiring, in-process) for one test class, and an HTTP client that talks to
 * it the way an app behind a proxy does: every request comes from 127.0.0.1, a trusted proxy, with the client address
 * the test chooses in {@code X-Forwarded-For}. Tests make their own users, addresses and positions, so they neither
 * see nor limit each other.
 */
final class AccountsKith extends TestNode {

  /** Interval of polls for an eventual state. */
  static final long POLL_MILLIS = 100;
  /** Failed logins per account before 429. */
  static final int MAX_FAILURES_PER_ACCOUNT = 3;
  /** Failed logins per client address before 429. */
  static final int MAX_FAILURES_PER_ADDRESS = 5;
  /** The failed-login window in seconds. */
  static final int LOGIN_WINDOW_SECONDS = 10;
  /** Registrations per client address per window. */
  static final int MAX_REGISTRATIONS_PER_ADDRESS = 3;
  /** Seconds a bridge connection counts without a heartbeat. */
  static final int PRESENCE_EXPIRY_SECONDS = 5;
  /** The position-report interval in seconds. */
  static final int POSITION_INTERVAL_SECONDS = 10;

  private static final AtomicLong SEQ = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L * 100);
  private static final AtomicLong ADDRESSES = new AtomicLong(ThreadLocalRandom.current().nextLong(1 << 22));

  /** A registered user and the tokens of its first session. */
  record User(long id, String username, String password, String email, String phone, String access, String refresh,
              String sessionId) {

    /** The user's own event-bus address. */
    String address() {
      return "kith.user." + id;
    }
  }

  private AccountsKith(JsonObject overrides, String host) {
    super(overrides(overrides), host, new PoolOptions());
  }

  /** The configuration of the accounts tests, with {@code overrides} merged over it. */
  static JsonObject overrides(JsonObject overrides) {
    JsonObject base = new JsonObject()
        .put("kith", new JsonObject().put("modules", new JsonArray().add("accounts").add("gateway")))
        .put("http", new JsonObject().put("port", 0).put("instances", 1).put("access-log", false)
            .put("trusted-proxies", new JsonArray().add("127.0.0.1")))
        .put("bridge", new JsonObject().put("tcp-port", 0).put("presence-heartbeat-seconds", 1))
        .put("accounts", new JsonObject()
            .put("login-max-failures-per-account", MAX_FAILURES_PER_ACCOUNT)
            .put("login-max-failures-per-address", MAX_FAILURES_PER_ADDRESS)
            .put("login-window-seconds", LOGIN_WINDOW_SECONDS)
            .put("register-max-per-address", MAX_REGISTRATIONS_PER_ADDRESS)
            .put("presence-expiry-seconds", PRESENCE_EXPIRY_SECONDS)
            .put("position-interval-seconds", POSITION_INTERVAL_SECONDS));
    KithTestKit.deepMerge(base, overrides);
    return base;
  }

  /** Starts a node with the accounts test configuration. */
  static AccountsKith start() {
    return start(new JsonObject());
  }

  /** Starts a node with the accounts test configuration and {@code overrides}. */
  static AccountsKith start(JsonObject overrides) {
    return start(overrides, "127.0.0.1");
  }

  /** Starts a node and a client that connects to it on {@code host} (an IP literal: 127.0.0.1 or ::1). */
  static AccountsKith start(JsonObject overrides, String host) {
    return new AccountsKith(overrides, host);
  }

  // ------------------------------------------------------------------ fresh names

  /** A client address no other request of this JVM uses. */
  static String newAddress() {
    long n = ADDRESSES.incrementAndGet();
    return "10." + ((n >> 16) & 255) + "." + ((n >> 8) & 255) + "." + (n & 255);
  }

  /** A unique email address (lower case). */
  static String newEmail() {
    return unique("m").toLowerCase(java.util.Locale.ROOT) + "@example.test";
  }

  /** A unique phone number in international form. */
  static String newPhone() {
    return String.format("+44%010d", SEQ.incrementAndGet() % 10_000_000_000L);
  }

  // ------------------------------------------------------------------ HTTP

  /** Sends a request; {@code token} and {@code address} (X-Forwarded-For) may be null; {@code body} may be null. */
  Future<Reply> send(HttpMethod method, String path, String token, String address, Object body) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    if (address != null) {
      headers.add("X-Forwarded-For", address);
    }
    return send(method, path, token, headers, body);
  }

  /** POST /api/v1/auth/login with these X-Forwarded-For header lines (one header line per argument). */
  Reply loginForwardedFor(String login, String password, String... forwardedForLines) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap();
    for (String line : forwardedForLines) {
      headers.add("X-Forwarded-For", line);
    }
    return Await.result(send(HttpMethod.POST, API + "/auth/login", null, headers,
        new JsonObject().put("login", login).put("password", password)));
  }

  /** Sends a request and waits for the reply. */
  Reply call(HttpMethod method, String path, String token, String address, Object body) {
    return Await.result(send(method, path, token, address, body));
  }

  Reply get(String path, String token) {
    return call(HttpMethod.GET, API + path, token, newAddress(), null);
  }

  Reply post(String path, String token, JsonObject body) {
    return call(HttpMethod.POST, API + path, token, newAddress(), body);
  }

  Reply patch(String path, String token, JsonObject body) {
    return call(HttpMethod.PATCH, API + path, token, newAddress(), body);
  }

  Reply put(String path, String token, JsonObject body) {
    return call(HttpMethod.PUT, API + path, token, newAddress(), body);
  }

  /** POST /api/v1/auth/login from {@code address}. */
  Reply login(String login, String password, String address) {
    return call(HttpMethod.POST, API + "/auth/login", null, address,
        new JsonObject().put("login", login).put("password", password));
  }

  /** POST /api/v1/accounts from {@code address}. */
  Reply registerRaw(JsonObject request, String address) {
    return call(HttpMethod.POST, API + "/accounts", null, address, request);
  }

  /** Registers a fresh user with email and phone (from a fresh client address) and returns it with its tokens. */
  User register() {
    String username = unique("u");
    return register(username, username.toLowerCase(java.util.Locale.ROOT) + "@example.test", newPhone());
  }

  /** Registers a user (email and phone may be null) from a fresh client address. */
  User register(String username, String email, String phone) {
    String password = "Sunny-" + unique("p") + "!";
    JsonObject request = new JsonObject().put("username", username).put("password", password);
    if (email != null) {
      request.put("email", email);
    }
    if (phone != null) {
      request.put("phone", phone);
    }
    JsonObject body = registerRaw(request, newAddress()).expect(201);
    JsonObject user = body.getJsonObject("user");
    JsonObject tokens = body.getJsonObject("tokens");
    assertEquals(username, user.getString("username"), body.encode());
    assertEquals(user.getLong("id"), tokens.getLong("user_id"), body.encode());
    return new User(user.getLong("id"), username, password, email, phone, tokens.getString("access_token"),
        tokens.getString("refresh_token"), tokens.getString("session_id"));
  }

  /**
   * {@link #register()}, then verifies its email and phone with the codes the development outbox received (only
   * verified identifiers are found by address-book lookup).
   */
  User registerVerified() {
    User user = register();
    confirmCode(user, "email", Await.result(Outbox.code(client(), user.email()))).expect(200);
    confirmCode(user, "phone", Await.result(Outbox.code(client(), user.phone()))).expect(200);
    return user;
  }

  /** POST /api/v1/me/verifications/confirm as {@code user}. */
  Reply confirmCode(User user, String channel, String code) {
    return post("/me/verifications/confirm", user.access(),
        new JsonObject().put("channel", channel).put("code", code));
  }

  /** PATCH /api/v1/me expecting success; returns the updated own profile. */
  JsonObject updateProfile(User user, JsonObject changes) {
    return patch("/me", user.access(), changes).expect(200);
  }

  /** Polls {@code GET /me/exports/{id}} as {@code user} until the export's state is {@code state}; returns it. */
  JsonObject awaitExport(User user, long id, String state) {
    JsonObject[] last = new JsonObject[1];
    eventually("export " + id + " " + state, () -> send(HttpMethod.GET, API + "/me/exports/" + id, user.access(),
        newAddress(), null).map(r -> {
          last[0] = r.expect(200);
          return state.equals(last[0].getString("state"));
        }));
    return last[0];
  }

  // ------------------------------------------------------------------ waiting

  /**
   * Waits until {@code condition} yields true, polling every {@value #POLL_MILLIS} ms (gently: reads such as presence
   * queries are rate-limited per user) until {@link #WAIT} has passed; fails the test with {@code what}.
   */
  void eventually(String what, Supplier<Future<Boolean>> condition) {
    Await.result(poll(WAIT, what, condition));
  }

  /** Polls {@code condition} every {@value #POLL_MILLIS} ms until it yields true or {@code timeout} has passed. */
  private Future<Void> poll(Duration timeout, String what, Supplier<Future<Boolean>> condition) {
    return Poll.until(client(), timeout, Duration.ofMillis(POLL_MILLIS), what, condition);
  }

  /**
   * Asserts that {@code condition} holds on every poll for {@code duration} (a state that must last, such as a
   * connection staying online across heartbeats).
   */
  void holdsFor(String what, Duration duration, Supplier<Future<Boolean>> condition) {
    long end = System.currentTimeMillis() + duration.toMillis();
    boolean[] broken = new boolean[1];
    Await.result(poll(duration.plusSeconds(15), what, () -> condition.get().map(ok -> {
      if (!ok) {
        broken[0] = true;
      }
      return !ok || System.currentTimeMillis() >= end;
    })));
    assertTrue(!broken[0], "expected to hold for " + duration + ": " + what);
  }
}
