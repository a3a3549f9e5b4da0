package io.kith.gateway.bridge;

import io.kith.gateway.support.BridgeClient;
import io.kith.gateway.support.SockJsClient;
import io.kith.gateway.support.TestGateway;
import io.kith.platform.bus.Addresses;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.token.AccessTokens;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("SockJS event-bus bridge (/eventbus)")
class SockJsBridgeTest extends BridgeContractTest {

  private String query;

  @Override
  protected JsonObject transportConfig() {
    return new JsonObject();
  }

  @Override
  protected BridgeClient connect() {
    return SockJsClient.connect(vertx, gateway.port(), query);
  }

  private BridgeClient clientWithQuery(String query) {
    this.query = query;
    try {
      return client();
    } finally {
      this.query = null;
    }
  }

  @Test
  @DisplayName("?access_token= on the WebSocket URL authenticates the connection")
  void queryToken(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = clientWithQuery("access_token=" + URLEncoder.encode(me.accessToken(), StandardCharsets.UTF_8));

    assertEquals(me.userId(), whoami(client, null));
    client.register(Addresses.user(me.userId()), null);
    publishUntilReceived(client, Addresses.user(me.userId()), new JsonObject().put("text", "pushed"));
  }

  @Test
  @DisplayName("a URL token binds the connection to its user: another user's token is then refused")
  void queryTokenBinds(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    TokenPair other = gateway.newSession();
    BridgeClient client = clientWithQuery("x=1&access_token=" + me.accessToken());

    client.register(Addresses.user(other.userId()), other.accessToken());

    assertEquals(DENIED, client.takeError());
    assertEquals(me.userId(), whoami(client, null));
  }

  @Test
  @DisplayName("an invalid URL token leaves the connection anonymous but open; a header token then works")
  void badQueryToken(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = clientWithQuery("access_token=forged.token.value");

    client.register(Addresses.user(me.userId()), null);
    assertEquals(DENIED, client.takeError());
    assertFalse(client.isClosed());

    assertEquals(me.userId(), whoami(client, me.accessToken()));
  }

  @Test
  @DisplayName("a URL token of a revoked session does not authenticate")
  void revokedQueryToken(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    Await.result(gateway.platform().sessions().revoke(me.userId(), me.sessionId()));
    BridgeClient client = clientWithQuery("access_token=" + me.accessToken());

    client.register(Addresses.user(me.userId()), null);

    assertEquals(DENIED, client.takeError());
  }

  /**
   * A SockJS session over the XHR transports: {@code xhr} opens and polls, {@code xhr_send} sends a JSON array of
   * frames. One connection per request, as the SockJS server may close them.
   */
  private final class XhrSession {
    private final WebClient http = WebClient.create(vertx, new WebClientOptions().setDefaultHost("localhost")
        .setDefaultPort(gateway.port()).setKeepAlive(false));
    private final String base = "/eventbus/000/" + UUID.randomUUID() + "/";
    private final List<JsonObject> received = new ArrayList<>();

    XhrSession open() {
      HttpResponse<Buffer> open = Await.result(http.post(base + "xhr").send());
      assertEquals(200, open.statusCode(), open.bodyAsString());
      assertEquals("o", open.bodyAsString().trim());
      return this;
    }

    HttpResponse<Buffer> send(Buffer body) {
      return Await.result(http.post(base + "xhr_send").putHeader("Content-Type", "text/plain;charset=UTF-8")
          .sendBuffer(body));
    }

    HttpResponse<Buffer> send(List<JsonObject> frames) {
      JsonArray messages = new JsonArray();
      frames.forEach(f -> messages.add(f.encode()));
      return send(messages.toBuffer());
    }

    /** Polls (a poll waits while the server has nothing to say) until {@code done} holds for the frames received. */
    void pollUntil(String what, Predicate<List<JsonObject>> done) {
      Await.result(Poll.until(vertx, BridgeClient.WAIT, what, () -> http.post(base + "xhr").send().map(poll -> {
        String text = poll.bodyAsString().trim();
        if (text.startsWith("a")) {
          new JsonArray(text.substring(1)).forEach(f -> received.add(new JsonObject((String) f)));
        }
        return done.test(received);
      })));
    }

    long errors() {
      return received.stream().filter(f -> "err".equals(f.getString("type"))).count();
    }
  }

  @Test
  @DisplayName("the XHR fallback transport works: xhr_send delivers frames and an xhr poll returns the reply")
  void xhrTransport(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    XhrSession xhr = new XhrSession().open();

    HttpResponse<Buffer> sent = xhr.send(List.of(BridgeClient.frame("send", Addresses.BRIDGE_WHOAMI, me.accessToken())
        .put("replyAddress", "xhr-reply").put("body", new JsonObject())));
    assertEquals(204, sent.statusCode(), sent.bodyAsString());

    xhr.pollUntil("the reply on the xhr poll",
        frames -> frames.stream().anyMatch(f -> "xhr-reply".equals(f.getString("address"))));
    JsonObject reply = xhr.received.stream().filter(f -> "xhr-reply".equals(f.getString("address"))).findFirst()
        .orElseThrow();
    assertEquals(me.userId(), reply.getJsonObject("body").getLong("user_id"), reply.encode());
  }

  @Test
  @DisplayName("an xhr_send body over bridge.max-frame is refused with 413")
  void xhrSendTooLarge(Vertx vertx) {
    start(vertx, new JsonObject().put("bridge", new JsonObject().put("max-frame", 1024)));
    XhrSession xhr = new XhrSession().open();

    HttpResponse<Buffer> sent = xhr.send(new JsonArray().add("x".repeat(2048)).toBuffer());

    TestGateway.assertProblem(sent, 413, "payload_too_large");
  }

  @Override
  @Test
  @DisplayName("beyond 64 frames awaiting a decision, further frames of the connection are refused at once")
  void pendingDecisionsBounded(Vertx vertx) {
    // one xhr_send hands all its frames to the bridge at once, before any is decided; over the raw WebSocket they
    // would arrive in as many reads as the network makes, and how many wait together would depend on timing
    start(vertx);
    TokenPair me = gateway.newSession();
    XhrSession xhr = new XhrSession().open();
    int total = 100;
    List<JsonObject> frames = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      frames.add(BridgeClient.frame("publish", SINK, me.accessToken()).put("body", new JsonObject().put("seq", i)));
    }

    assertEquals(204, xhr.send(frames).statusCode());

    xhr.pollUntil("the refusals", received -> xhr.errors() >= total - BridgeGuard.MAX_PENDING);
    awaitSunk(BridgeGuard.MAX_PENDING);
    assertEquals(total - BridgeGuard.MAX_PENDING, xhr.errors(), xhr.received.toString());
    List<Integer> seqs = sunk.stream().map(m -> ((JsonObject) m.body()).getInteger("seq")).toList();
    assertEquals(IntStream.range(0, BridgeGuard.MAX_PENDING).boxed().toList(), seqs,
        "the first frames are decided normally and in order");

    xhr.send(List.of(BridgeClient.frame("send", Addresses.BRIDGE_WHOAMI, null)
        .put("replyAddress", "after-flood").put("body", new JsonObject())));
    xhr.pollUntil("whoami after the flood",
        received -> received.stream().anyMatch(f -> "after-flood".equals(f.getString("address"))));
  }

  @Test
  @DisplayName("when the access token expires deliveries stop with one token_expired error; a frame with a fresh "
      + "token resumes them")
  void expiredTokenStopsDeliveries(Vertx vertx) {
    String secret = "a-known-test-secret-of-at-least-32-bytes";
    // five seconds: long enough for the registration's round trip on a loaded machine
    start(vertx, new JsonObject().put("tokens", new JsonObject().put("secret", secret).put("access-ttl", 5)));
    TokenPair me = gateway.newSession();
    String mine = Addresses.user(me.userId());
    String lasting = new AccessTokens(vertx, secret, "kith", "kith-api", 900).issue(me.userId(), me.sessionId());
    BridgeClient client = client();
    // a witness on the same gateway event loop, with a token that lasts: a message published to it after one to me
    // is handled after mine, so once it arrives mine was handled (withheld) before the fresh token below
    TokenPair other = gateway.newSession();
    String theirs = Addresses.user(other.userId());
    BridgeClient witness = client();
    witness.register(theirs, new AccessTokens(vertx, secret, "kith", "kith-api", 900)
        .issue(other.userId(), other.sessionId()));
    publishUntilReceived(witness, theirs, new JsonObject().put("text", "ready"));

    client.register(mine, me.accessToken());
    assertEquals(me.userId(), whoami(client, null));
    JsonObject expired = client.take("the token_expired error", f -> "err".equals(f.getString("type")));
    assertEquals(BridgeGuard.TOKEN_EXPIRED, client.errorOf(expired), expired.encode());

    vertx.eventBus().publish(mine, new JsonObject().put("text", "after expiry"));
    vertx.eventBus().publish(theirs, new JsonObject().put("text", "behind it"));
    witness.take("the witness's message", f -> f.getJsonObject("body") instanceof JsonObject
        && "behind it".equals(f.getJsonObject("body").getString("text")));
    assertEquals(me.userId(), whoami(client, lasting));
    JsonObject delivered = publishUntilReceived(client, mine, new JsonObject().put("text", "resumed"));

    assertEquals("resumed", delivered.getJsonObject("body").getString("text"));
    assertFalse(client.pending().stream().anyMatch(f -> f.getJsonObject("body") instanceof JsonObject
        && "after expiry".equals(f.getJsonObject("body").getString("text"))), client.pending().toString());
    assertFalse(client.isClosed());
  }

  @Test
  @DisplayName("a reply address over 36 characters is answered with invalid_frame on that address")
  void longReplyAddress(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();
    String tooLong = "r".repeat(37);

    client.request(Addresses.BRIDGE_WHOAMI, tooLong, me.accessToken(), null, new JsonObject());
    client.request(Addresses.BRIDGE_WHOAMI, tooLong, me.accessToken(), null, new JsonObject());

    takeAnswer(client, tooLong, BridgeGuard.INVALID_FRAME, 400);
    takeAnswer(client, tooLong, BridgeGuard.INVALID_FRAME, 400);
    assertEquals(me.userId(), whoami(client, me.accessToken()));
  }
}
