package io.kith.bench;

import io.kith.platform.store.FreePorts;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.bridge.BridgeOptions;
import io.vertx.ext.bridge.PermittedOptions;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.sockjs.SockJSBridgeOptions;
import io.vertx.ext.web.handler.sockjs.SockJSHandler;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A stand-in for Kith's public surface as the bench uses it (ping, whoami, SockJS and TCP bridges answering
 * {@code kith.bridge.whoami}, registration, login and profiles), built from the same Vert.x pieces, so the command
 * line, the clients and the report can be tested end to end without the app. It knows one token from the start and
 * issues one per registration and login.
 */
final class FakeKith implements AutoCloseable {

  static final String TOKEN = "fake-access-token";
  static final long USER = 42;

  private final Vertx vertx;
  private final HttpServer http;
  private final int tcpPort;
  private final Accounts accounts;

  private FakeKith(Vertx vertx, HttpServer http, int tcpPort, Accounts accounts) {
    this.vertx = vertx;
    this.http = http;
    this.tcpPort = tcpPort;
    this.accounts = accounts;
  }

  /** Registered users and issued tokens; registrations beyond a limit get 429 like Kith's per-address limit. */
  static final class Accounts {
    final Map<String, Long> tokens = new ConcurrentHashMap<>(Map.of(TOKEN, USER));
    final Map<String, JsonObject> byName = new ConcurrentHashMap<>();
    final Map<Long, JsonObject> byId = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> logins = new ConcurrentHashMap<>();
    final AtomicLong ids = new AtomicLong(1000);
    final int registerLimit;

    Accounts(int registerLimit) {
      this.registerLimit = registerLimit;
    }

    Long user(RoutingContext ctx) {
      String auth = ctx.request().getHeader("Authorization");
      return auth != null && auth.startsWith("Bearer ") ? tokens.get(auth.substring(7)) : null;
    }

    String issue(long user) {
      String token = "tok-" + user + "-" + UUID.randomUUID();
      tokens.put(token, user);
      return token;
    }
  }

  private static void problem(RoutingContext ctx, int status, String code) {
    ctx.response().setStatusCode(status).putHeader("content-type", "application/problem+json")
        .end(new JsonObject().put("status", status).put("code", code).encode());
  }

  static FakeKith start() throws Exception {
    return start(Integer.MAX_VALUE);
  }

  static FakeKith start(int registerLimit) throws Exception {
    Vertx vertx = Vertx.vertx();
    Accounts accounts = new Accounts(registerLimit);
    Router router = Router.router(vertx);
    router.post("/api/v1/*").handler(BodyHandler.create());
    router.post("/api/v1/accounts").handler(ctx -> {
      JsonObject body = ctx.body().asJsonObject();
      String username = body.getString("username");
      if (accounts.byName.size() >= accounts.registerLimit) {
        problem(ctx, 429, "registration_throttled");
      } else if (username == null || body.getString("password", "").length() < 8) {
        problem(ctx, 400, "validation_failed");
      } else if (accounts.byName.containsKey(username)) {
        problem(ctx, 409, "username_taken");
      } else {
        long id = accounts.ids.incrementAndGet();
        JsonObject user = new JsonObject().put("id", id).put("username", username);
        accounts.byName.put(username, user.copy().put("password", body.getString("password")));
        accounts.byId.put(id, user);
        accounts.logins.put(username, new AtomicInteger());
        ctx.response().setStatusCode(201).putHeader("content-type", "application/json").end(new JsonObject()
            .put("user", user).put("tokens", new JsonObject().put("access_token", accounts.issue(id))).encode());
      }
    });
    router.post("/api/v1/auth/login").handler(ctx -> {
      JsonObject body = ctx.body().asJsonObject();
      JsonObject user = accounts.byName.get(body.getString("login", ""));
      if (user == null || !user.getString("password").equals(body.getString("password"))) {
        problem(ctx, 401, "invalid_credentials");
      } else {
        accounts.logins.get(user.getString("username")).incrementAndGet();
        ctx.json(new JsonObject().put("access_token", accounts.issue(user.getLong("id")))
            .put("refresh_token", "r"));
      }
    });
    router.get("/api/v1/users/:id").handler(ctx -> {
      JsonObject user = accounts.byId.get(Long.parseLong(ctx.pathParam("id")));
      if (accounts.user(ctx) == null) {
        problem(ctx, 401, "unauthenticated");
      } else if (user == null) {
        problem(ctx, 404, "user_not_found");
      } else {
        ctx.json(user);
      }
    });
    router.get("/api/v1/ping").handler(ctx -> ctx.json(new JsonObject().put("pong", true)
        .put("time", System.currentTimeMillis())));
    router.get("/api/v1/whoami").handler(ctx -> {
      Long user = accounts.user(ctx);
      if (user != null) {
        ctx.json(new JsonObject().put("user_id", user));
      } else {
        ctx.response().setStatusCode(401).putHeader("content-type", "application/problem+json")
            .end(new JsonObject().put("status", 401).encode());
      }
    });
    PermittedOptions whoami = new PermittedOptions().setAddress("kith.bridge.whoami");
    // user addresses may be registered on (Kith's guard checks they are the caller's own; the stand-in does not)
    PermittedOptions users = new PermittedOptions().setAddressRegex("kith\\.user\\.[0-9]+");
    router.route("/eventbus/*").subRouter(SockJSHandler.create(vertx)
        .bridge(new SockJSBridgeOptions().addInboundPermitted(whoami).addOutboundPermitted(users)));
    vertx.eventBus().<JsonObject>consumer("kith.bridge.whoami", msg -> {
      if (("Bearer " + TOKEN).equals(msg.headers().get("authorization"))) {
        msg.reply(new JsonObject().put("user_id", USER));
      } else {
        msg.fail(401, "the bearer token is missing or invalid");
      }
    });
    HttpServer http = vertx.createHttpServer().requestHandler(router).listen(0, "127.0.0.1")
        .await(10, TimeUnit.SECONDS);
    int tcpPort = FreePorts.pick();
    TcpEventBusBridge.create(vertx, new BridgeOptions().addInboundPermitted(whoami).addOutboundPermitted(users))
        .listen(tcpPort, "127.0.0.1").await(10, TimeUnit.SECONDS);
    return new FakeKith(vertx, http, tcpPort, accounts);
  }

  /** How many times each registered user logged in, by username. */
  Map<String, Integer> logins() {
    Map<String, Integer> counts = new TreeMap<>();
    accounts.logins.forEach((name, n) -> counts.put(name, n.get()));
    return counts;
  }

  /** Publishes {@code body} to {@code address} on the stand-in's event bus (a push to registered clients). */
  void publish(String address, JsonObject body) {
    vertx.eventBus().publish(address, body);
  }

  /** Usernames registered so far. */
  Set<String> usernames() {
    return new TreeSet<>(accounts.byName.keySet());
  }

  String url() {
    return "http://127.0.0.1:" + http.actualPort();
  }

  int tcpPort() {
    return tcpPort;
  }

  @Override
  public void close() throws Exception {
    vertx.close().await(10, TimeUnit.SECONDS);
  }
}
