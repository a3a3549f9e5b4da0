package io.kith.app.support;

import io.kith.app.Kith;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One Kith node (the modules a test class asks for, real wiring, in-process) for one test class, and an HTTP client
 * on a Vert.x of its own that talks to it as an app does. The domain harnesses ({@code FeedsKith},
 * {@code AccountsKith}, ...) extend it with the set-up steps of their domain; tests make their own users and ids, so
 * they neither see nor depend on each other.
 */
public class TestNode implements AutoCloseable {

  /** The API base path. */
  public static final String API = "/api/v1";
  /** The largest id the contract accepts (2^53 - 1). */
  public static final long MAX_ID = 9007199254740991L;
  /** How long a test waits for an eventual state (fan-out, a delivery, a throttle window ending). */
  public static final Duration WAIT = Duration.ofSeconds(20);

  private static final AtomicLong SEQ = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L * 100);

  private final Kith kith;
  private final Vertx client;
  private final WebClient web;
  private final String host;

  /**
   * Starts a node with the test kit's configuration and {@code overrides} merged over it, and a client that connects
   * to it on {@code host} (an IP literal: 127.0.0.1 or ::1) with these connection pool options.
   */
  protected TestNode(JsonObject overrides, String host, PoolOptions pool) {
    this.kith = Await.result(Kith.start(KithTestKit.config(overrides)));
    this.host = host;
    this.client = Vertx.vertx();
    this.web = WebClient.create(client, new WebClientOptions().setDefaultHost(host)
        .setDefaultPort(kith.httpPort()).setFollowRedirects(false), pool);
  }

  /**
   * The configuration most app tests run with: these modules, free ports, one HTTP instance, no access log, and
   * registrations per client address lifted (every test user registers from 127.0.0.1). Add sections to it.
   */
  public static JsonObject config(String... modules) {
    JsonArray list = new JsonArray();
    for (String module : modules) {
      list.add(module);
    }
    return new JsonObject()
        .put("kith", new JsonObject().put("modules", list))
        .put("http", new JsonObject().put("port", 0).put("instances", 1).put("access-log", false))
        .put("bridge", new JsonObject().put("tcp-port", 0))
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000));
  }

  /** A unique token usable in usernames, emails and nicknames (letters and digits, starts with a letter). */
  public static String unique(String prefix) {
    return prefix + Long.toString(SEQ.incrementAndGet(), 36);
  }

  /** The HTTP port of the node. */
  public int port() {
    return kith.httpPort();
  }

  /** The node. */
  public Kith kith() {
    return kith;
  }

  /** The client-side Vert.x (for bridge sockets and polling). */
  public Vertx client() {
    return client;
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

  // ------------------------------------------------------------------ HTTP

  /** Sends a request without waiting for it; {@code token} and {@code body} may be null. */
  public Future<Reply> send(HttpMethod method, String path, String token, Object body) {
    return send(method, path, token, MultiMap.caseInsensitiveMultiMap(), body);
  }

  /** Sends a request with these extra header lines (a name may repeat); {@code token} and {@code body} may be null. */
  public Future<Reply> send(HttpMethod method, String path, String token, MultiMap headers, Object body) {
    HttpRequest<Buffer> request = web.request(method, path);
    if (host.contains(":")) {
      // an IPv6 literal must be bracketed in the Host header
      request.putHeader("Host", "[" + host + "]:" + port());
    }
    if (token != null) {
      request.putHeader("Authorization", "Bearer " + token);
    }
    headers.forEach(h -> request.headers().add(h.getKey(), h.getValue()));
    Future<HttpResponse<Buffer>> response;
    if (body == null) {
      response = request.send();
    } else if (body instanceof Buffer) {
      // raw bytes (an upload) go as they are, under the Content-Type the caller set
      response = request.sendBuffer((Buffer) body);
    } else {
      request.putHeader("Content-Type", "application/json");
      response = request.sendBuffer(body instanceof JsonObject ? ((JsonObject) body).toBuffer()
          : Buffer.buffer(String.valueOf(body)));
    }
    return response.map(r -> new Reply(r.statusCode(), r.headers(), r.body()));
  }

  /** Sends a request and waits for the reply; {@code token} and {@code body} may be null. */
  public Reply call(HttpMethod method, String path, String token, Object body) {
    return Await.result(send(method, path, token, body));
  }

  // ------------------------------------------------------------------ bridge

  /**
   * Connects a SockJS bridge socket registered on {@code address} with {@code accessToken} (see
   * {@link #awaitRegistration}).
   */
  public BridgeSocket bridge(String address, String accessToken) {
    BridgeSocket socket = BridgeSocket.connect(client, port(), null);
    socket.register(address, accessToken);
    awaitRegistration(socket, address);
    return socket;
  }

  /**
   * Waits until a probe published on {@code address} reaches {@code socket}, so that nothing the test does next can
   * be published before the socket's registration there holds. The probe frames stay in the socket's inbox.
   */
  public void awaitRegistration(BridgeSocket socket, String address) {
    String probe = UUID.randomUUID().toString();
    Await.result(Poll.until(client, WAIT, "the registration on " + address, () -> {
      kith.vertx().eventBus().publish(address, new JsonObject().put("kind", "probe").put("id", probe));
      return Future.succeededFuture(socket.pending().stream().anyMatch(f -> address.equals(f.getString("address"))
          && f.getValue("body") instanceof JsonObject && probe.equals(f.getJsonObject("body").getString("id"))));
    }));
  }
}
