package io.kith.gateway.bridge;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kith.gateway.support.BridgeClient;
import io.kith.gateway.support.TestGateway;
import io.kith.platform.bus.Addresses;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.Poll;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rules of {@link BridgeGuard}, checked through a real bridge connection. Each transport (SockJS, TCP) runs the
 * same cases through its own client.
 */
abstract class BridgeContractTest {

  /** An inbound address the tests open in addition to the default whoami. */
  static final String ECHO = "kith.test.echo";
  /** An inbound address whose consumer records what it receives. */
  static final String SINK = "kith.test.sink";
  static final String DENIED = "access_denied";

  protected Vertx vertx;
  protected TestGateway gateway;
  private final List<BridgeClient> clients = new ArrayList<>();
  protected final List<io.vertx.core.eventbus.Message<Object>> sunk = new CopyOnWriteArrayList<>();
  private final AtomicInteger published = new AtomicInteger();

  /** Configuration of the transport under test (merged into the bridge section). */
  protected abstract JsonObject transportConfig();

  /** Opens a client connection to the transport under test. */
  protected abstract BridgeClient connect();

  /** Starts a gateway with the transport on and the test addresses allowed inbound. */
  protected void start(Vertx vertx, JsonObject extra) {
    this.vertx = vertx;
    JsonObject bridge = new JsonObject()
        .put("inbound", new JsonArray().add("kith\\.bridge\\.whoami").add("kith\\.test\\..+"))
        .mergeIn(transportConfig());
    JsonObject overrides = new JsonObject().put("bridge", bridge).mergeIn(extra, true);
    gateway = TestGateway.start(vertx, overrides);
    MessageConsumer<Object> echo = vertx.eventBus().consumer(ECHO, msg -> {
      JsonObject headers = new JsonObject();
      msg.headers().forEach(h -> headers.put(h.getKey(), h.getValue()));
      msg.reply(new JsonObject().put("body", msg.body()).put("headers", headers));
    });
    MessageConsumer<Object> sink = vertx.eventBus().consumer(SINK, sunk::add);
    Await.result(echo.completion().compose(v -> sink.completion()));
  }

  protected void start(Vertx vertx) {
    start(vertx, new JsonObject());
  }

  /** A tracked client connection, closed after the test. */
  protected BridgeClient client() {
    BridgeClient client = connect();
    clients.add(client);
    return client;
  }

  @AfterEach
  void tearDown() {
    try {
      clients.forEach(BridgeClient::close);
    } finally {
      if (gateway != null) {
        gateway.close();
      }
    }
  }

  /** The user id the bridge stamps for {@code client} (asking kith.bridge.whoami; {@code token} may be null). */
  protected static long whoami(BridgeClient client, String token) {
    JsonObject reply = client.call(Addresses.BRIDGE_WHOAMI, token, null, new JsonObject());
    return reply.getJsonObject("body").getLong("user_id");
  }

  /**
   * Publishes to {@code address} from the server side until {@code client} receives it (a registration takes effect
   * asynchronously) and returns the delivered frame.
   */
  protected JsonObject publishUntilReceived(BridgeClient client, String address, JsonObject body) {
    Await.result(Poll.until(vertx, BridgeClient.WAIT, address + " to reach the client", () -> {
      if (client.hasDelivery(address)) {
        return Future.succeededFuture(true);
      }
      vertx.eventBus().publish(address, body.copy().put("n", published.incrementAndGet()));
      return Future.succeededFuture(false);
    }));
    return client.takeDelivery(address);
  }

  @Test
  @DisplayName("an unauthenticated register is refused, and the same connection works once it authenticates")
  void anonymousRegisterRefused(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();

    client.register(Addresses.user(me.userId()), null);
    assertEquals(DENIED, client.takeError());
    assertFalse(client.isClosed());

    client.register(Addresses.user(me.userId()), me.accessToken());
    JsonObject delivered = publishUntilReceived(client, Addresses.user(me.userId()),
        new JsonObject().put("text", "hello"));
    assertEquals("hello", delivered.getJsonObject("body").getString("text"));
  }

  @Test
  @DisplayName("anonymous sends and publishes are refused, even to allowed addresses")
  void anonymousSendRefused(Vertx vertx) {
    start(vertx);
    BridgeClient client = client();

    client.request(Addresses.BRIDGE_WHOAMI, "reply-anon", null, null, new JsonObject());
    assertEquals(DENIED, client.takeError());
    client.write(BridgeClient.frame("publish", SINK, null).put("body", new JsonObject().put("x", 1)));
    assertEquals(DENIED, client.takeError());

    TokenPair me = gateway.newSession();
    assertEquals(me.userId(), whoami(client, me.accessToken()));
    assertTrue(sunk.isEmpty(), "nothing anonymous reached the sink: " + sunk);
  }

  @Test
  @DisplayName("a client registered on its own user address receives what is published there")
  void registerOwnAddress(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();

    client.register(Addresses.user(me.userId()), me.accessToken());

    JsonObject delivered = publishUntilReceived(client, Addresses.user(me.userId()),
        new JsonObject().put("kind", "notification").put("text", "you have a new follower"));
    assertEquals("you have a new follower", delivered.getJsonObject("body").getString("text"));
    assertTrue(client.pending().stream().noneMatch(f -> "err".equals(f.getString("type"))), client.pending().toString());
  }

  @Test
  @DisplayName("registering on another user's address is refused and the connection stays usable")
  void registerOtherUserRefused(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    TokenPair other = gateway.newSession();
    BridgeClient client = client();

    client.register(Addresses.user(other.userId()), me.accessToken());
    assertEquals(DENIED, client.takeError());
    client.register(Addresses.room("general"), me.accessToken());
    assertEquals(DENIED, client.takeError(), "no room is open without RoomAccess");
    client.register("kith.sessions.revoked", me.accessToken());
    assertEquals(DENIED, client.takeError());

    assertFalse(client.isClosed());
    assertEquals(me.userId(), whoami(client, null));
    client.register(Addresses.user(me.userId()), null);
    // the other user's message is published first: had the refused registration been let through, it would arrive
    // before the client's own message
    vertx.eventBus().publish(Addresses.user(other.userId()), new JsonObject().put("secret", "for the other user"));
    publishUntilReceived(client, Addresses.user(me.userId()), new JsonObject().put("text", "mine"));
    vertx.eventBus().publish(Addresses.user(other.userId()), new JsonObject().put("secret", "for the other user"));
    whoami(client, null);
    assertFalse(client.hasDelivery(Addresses.user(other.userId())), client.pending().toString());
  }

  @Test
  @DisplayName("sending or publishing outside the inbound allow-list is refused and the connection stays usable")
  void sendNotAllowed(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    TokenPair other = gateway.newSession();
    BridgeClient client = client();
    List<Object> leaked = new CopyOnWriteArrayList<>();
    Await.result(vertx.eventBus().consumer("kith.admin.delete-everything", m -> leaked.add(m.body())).completion());
    Await.result(vertx.eventBus().consumer(Addresses.user(other.userId()), m -> leaked.add(m.body())).completion());

    client.request("kith.admin.delete-everything", "reply-1", me.accessToken(), null, new JsonObject());
    assertEquals(DENIED, client.takeError());
    client.write(BridgeClient.frame("publish", "kith.admin.delete-everything", me.accessToken())
        .put("body", new JsonObject()));
    assertEquals(DENIED, client.takeError());
    // user addresses are outbound only: a client cannot push into another user's stream
    client.write(BridgeClient.frame("publish", Addresses.user(other.userId()), me.accessToken())
        .put("body", new JsonObject().put("text", "spoofed notification")));
    assertEquals(DENIED, client.takeError());
    client.request(Addresses.SESSIONS_REVOKED, "reply-2", me.accessToken(), null,
        new JsonObject().put("user", other.userId()).put("sessions", new JsonArray().add(other.sessionId())));
    assertEquals(DENIED, client.takeError());

    assertFalse(client.isClosed());
    assertEquals(me.userId(), whoami(client, null));
    assertTrue(leaked.isEmpty(), "refused frames reached a consumer: " + leaked);
    assertEquals(200, gateway.whoami(other.accessToken()).statusCode(), "the other user's session is untouched");
  }

  @Test
  @DisplayName("frames are decided in the order they were sent: tokenless frames right after the authenticating one are served")
  void pipelinedFrames(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();

    // written back to back, as the official client does after its first authenticated frame
    client.register(Addresses.user(me.userId()), me.accessToken());
    client.request(Addresses.BRIDGE_WHOAMI, "pipelined-whoami", null, null, new JsonObject());
    for (int i = 0; i < 5; i++) {
      client.request(ECHO, "pipelined-" + i, null, null, new JsonObject().put("seq", i));
    }

    assertEquals(me.userId(), client.takeDelivery("pipelined-whoami").getJsonObject("body").getLong("user_id"));
    for (int i = 0; i < 5; i++) {
      JsonObject echoed = client.takeDelivery("pipelined-" + i).getJsonObject("body");
      assertEquals(i, echoed.getJsonObject("body").getInteger("seq"));
    }
    publishUntilReceived(client, Addresses.user(me.userId()), new JsonObject());
    assertTrue(client.pending().stream().noneMatch(f -> "err".equals(f.getString("type"))),
        client.pending().toString());
  }

  @Test
  @DisplayName("publishes sent back to back reach their consumer in the order they were sent")
  void publishOrder(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();

    for (int i = 0; i < 20; i++) {
      // every frame carries the token, so every frame needs its own session check
      client.write(BridgeClient.frame("publish", SINK, me.accessToken()).put("body", new JsonObject().put("seq", i)));
    }

    Await.result(Poll.until(vertx, BridgeClient.WAIT, "20 messages in the sink",
        () -> Future.succeededFuture(sunk.size() == 20)));
    for (int i = 0; i < 20; i++) {
      assertEquals(i, ((JsonObject) sunk.get(i).body()).getInteger("seq"), "message " + i);
    }
  }

  @Test
  @DisplayName("whoami over the bridge returns the verified user, whatever kith-sender header the client forges")
  void forgedSenderHeader(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    TokenPair victim = gateway.newSession();
    BridgeClient client = client();

    JsonObject reply = client.call(Addresses.BRIDGE_WHOAMI, me.accessToken(),
        new JsonObject().put(Addresses.SENDER_HEADER, Long.toString(victim.userId())), new JsonObject());

    assertEquals(me.userId(), reply.getJsonObject("body").getLong("user_id"));
    JsonObject again = client.call(Addresses.BRIDGE_WHOAMI, null,
        new JsonObject().put(Addresses.SENDER_HEADER, "1"), new JsonObject());
    assertEquals(me.userId(), again.getJsonObject("body").getLong("user_id"));
  }

  /** Waits until the sink holds {@code count} messages and returns them. */
  protected List<io.vertx.core.eventbus.Message<Object>> awaitSunk(int count) {
    Await.result(Poll.until(vertx, BridgeClient.WAIT, count + " messages in the sink",
        () -> Future.succeededFuture(sunk.size() >= count)));
    return sunk;
  }

  @Test
  @DisplayName("a kith-sender header in another letter case never reaches a consumer: it sees exactly the verified id")
  void forgedSenderOtherCase(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    TokenPair victim = gateway.newSession();
    BridgeClient client = client();
    String forged = Long.toString(victim.userId());
    JsonObject headers = new JsonObject().put("Kith-Sender", forged).put("KITH-SENDER", forged);

    JsonObject reply = client.call(Addresses.BRIDGE_WHOAMI, me.accessToken(), headers, new JsonObject());
    assertEquals(me.userId(), reply.getJsonObject("body").getLong("user_id"), reply.encode());

    client.write(new JsonObject().put("type", "publish").put("address", SINK).put("headers", headers.copy())
        .put("body", new JsonObject().put("text", "hi")));
    io.vertx.core.eventbus.Message<Object> msg = awaitSunk(1).get(0);
    assertEquals(List.of(Long.toString(me.userId())), msg.headers().getAll(Addresses.SENDER_HEADER),
        msg.headers().toString());
  }

  @Test
  @DisplayName("an authorization header in any letter case authenticates and is never forwarded; two different ones are refused")
  void authorizationAnyCase(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();
    assertEquals(me.userId(), whoami(client, me.accessToken()));

    JsonObject reply = client.call(ECHO, null,
        new JsonObject().put("AUTHORIZATION", "Bearer " + me.accessToken()), new JsonObject().put("text", "hi"));

    JsonObject echoedHeaders = reply.getJsonObject("body").getJsonObject("headers");
    assertTrue(echoedHeaders.fieldNames().stream().noneMatch(n -> n.equalsIgnoreCase("authorization")),
        "the access token must not travel on: " + echoedHeaders.encode());
    assertEquals(Long.toString(me.userId()), echoedHeaders.getString(Addresses.SENDER_HEADER));

    BridgeClient fresh = client();
    JsonObject freshReply = fresh.call(Addresses.BRIDGE_WHOAMI, null,
        new JsonObject().put("Authorization", "bearer " + me.accessToken()), new JsonObject());
    assertEquals(me.userId(), freshReply.getJsonObject("body").getLong("user_id"));

    TokenPair other = gateway.newSession();
    fresh.request(Addresses.BRIDGE_WHOAMI, "two-credentials", null, new JsonObject()
        .put("authorization", "Bearer " + me.accessToken()).put("AUTHORIZATION", "Bearer " + other.accessToken()),
        new JsonObject());
    assertEquals(DENIED, fresh.takeError(), "two different credentials on one frame are refused");
  }

  @Test
  @DisplayName("delivery options in frame headers (timeout, localOnly, codecName, in any case) are dropped; other headers travel on")
  void deliveryOptionHeadersDropped(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();

    JsonObject frame = BridgeClient.frame("publish", SINK, me.accessToken()).put("body", new JsonObject());
    frame.getJsonObject("headers").put("codecName", "no-such-codec").put("timeout", 1).put("localOnly", true)
        .put("TIMEOUT", 1).put("CodecName", "no-such-codec").put("x-trace", "abc");
    client.write(frame);

    io.vertx.core.eventbus.Message<Object> msg = awaitSunk(1).get(0);
    assertEquals("abc", msg.headers().get("x-trace"), msg.headers().toString());
    for (String name : List.of("codecName", "timeout", "localOnly")) {
      assertNull(msg.headers().get(name), name + " travelled on: " + msg.headers());
    }
    assertEquals(List.of(Long.toString(me.userId())), msg.headers().getAll(Addresses.SENDER_HEADER));
  }

  @Test
  @DisplayName("beyond 64 frames awaiting a decision, further frames of the connection are refused at once")
  void pendingDecisionsBounded(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();
    int total = 300;
    List<JsonObject> frames = new ArrayList<>();
    for (int i = 0; i < total; i++) {
      // every frame carries the token, so each decision waits for a session check
      frames.add(BridgeClient.frame("publish", SINK, me.accessToken()).put("body", new JsonObject().put("seq", i)));
    }

    client.writeAll(frames);

    Await.result(Poll.until(vertx, BridgeClient.WAIT, "every frame to be delivered or refused",
        () -> Future.succeededFuture(sunk.size() + errors(client) == total)));
    long denied = errors(client);
    assertTrue(denied > 0, "no frame was refused; delivered " + sunk.size());
    assertTrue(sunk.size() >= 64, "the first 64 frames are decided normally; delivered " + sunk.size());
    List<Integer> seqs = sunk.stream().map(m -> ((JsonObject) m.body()).getInteger("seq")).toList();
    assertEquals(seqs.stream().sorted().toList(), seqs, "delivered frames keep their order");
    assertFalse(client.isClosed());
    assertEquals(me.userId(), whoami(client, null));
  }

  private static long errors(BridgeClient client) {
    return client.pending().stream().filter(f -> "err".equals(f.getString("type"))).count();
  }

  @Test
  @DisplayName("a sender member in a JSON body is replaced with the verified user, and the token is not forwarded")
  void bodySenderReplaced(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();

    JsonObject reply = client.call(ECHO, me.accessToken(),
        new JsonObject().put(Addresses.SENDER_HEADER, "999"),
        new JsonObject().put("sender", 999).put("text", "hi"));

    JsonObject echoed = reply.getJsonObject("body");
    assertEquals(me.userId(), echoed.getJsonObject("body").getLong("sender"), echoed.encode());
    assertEquals("hi", echoed.getJsonObject("body").getString("text"));
    JsonObject headers = echoed.getJsonObject("headers");
    assertEquals(Long.toString(me.userId()), headers.getString(Addresses.SENDER_HEADER), echoed.encode());
    assertNull(headers.getString("authorization"), "the access token must not travel on: " + echoed.encode());
    assertNull(headers.getString("Authorization"), "the access token must not travel on: " + echoed.encode());
  }

  @Test
  @DisplayName("a published message is stamped with the verified sender too")
  void publishStamped(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();

    JsonObject frame = BridgeClient.frame("publish", SINK, me.accessToken())
        .put("body", new JsonObject().put("sender", 1).put("text", "typing"));
    frame.getJsonObject("headers").put(Addresses.SENDER_HEADER, "1");
    client.write(frame);

    Await.result(Poll.until(vertx, BridgeClient.WAIT, "the sink to receive the publish",
        () -> Future.succeededFuture(!sunk.isEmpty())));
    io.vertx.core.eventbus.Message<Object> msg = sunk.get(0);
    assertEquals(Long.toString(me.userId()), msg.headers().get(Addresses.SENDER_HEADER));
    assertEquals(1, msg.headers().getAll(Addresses.SENDER_HEADER).size(), msg.headers().toString());
    assertEquals(me.userId(), ((JsonObject) msg.body()).getLong("sender"));
    assertNull(msg.headers().get("authorization"));
  }

  @Test
  @DisplayName("a second user's token on an authenticated connection is refused; the connection stays the first user's")
  void secondUserRefused(Vertx vertx) {
    start(vertx);
    TokenPair first = gateway.newSession();
    TokenPair second = gateway.newSession();
    BridgeClient client = client();
    assertEquals(first.userId(), whoami(client, first.accessToken()));

    client.request(Addresses.BRIDGE_WHOAMI, "reply-second", second.accessToken(), null, new JsonObject());
    assertEquals(DENIED, client.takeError());
    client.register(Addresses.user(second.userId()), second.accessToken());
    assertEquals(DENIED, client.takeError());

    assertFalse(client.isClosed());
    assertEquals(first.userId(), whoami(client, null));
  }

  @Test
  @DisplayName("another session of the same user may present its token on the connection")
  void sameUserOtherSession(Vertx vertx) {
    start(vertx);
    TokenPair laptop = gateway.newSession();
    TokenPair phone = gateway.openSession(laptop.userId(), "phone");
    BridgeClient client = client();

    assertEquals(laptop.userId(), whoami(client, laptop.accessToken()));
    assertEquals(laptop.userId(), whoami(client, phone.accessToken()));
  }

  @Test
  @DisplayName("an invalid token on a frame is refused and does not unbind the connection")
  void invalidTokenRefused(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();

    client.request(Addresses.BRIDGE_WHOAMI, "reply-bad", "not.a.token", null, new JsonObject());
    assertEquals(DENIED, client.takeError());
    assertEquals(me.userId(), whoami(client, me.accessToken()));
    client.request(Addresses.BRIDGE_WHOAMI, "reply-bad-2", me.accessToken() + "x", null, new JsonObject());
    assertEquals(DENIED, client.takeError());
    assertEquals(me.userId(), whoami(client, null));
  }

  @Test
  @DisplayName("a frame whose headers are not an object is refused and the connection stays usable")
  void malformedHeaders(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();

    client.write(new JsonObject().put("type", "send").put("address", Addresses.BRIDGE_WHOAMI)
        .put("replyAddress", "malformed").put("headers", "Bearer " + me.accessToken()).put("body", new JsonObject()));
    assertEquals(DENIED, client.takeError());
    client.write(new JsonObject().put("type", "register").put("address", Addresses.user(me.userId()))
        .put("headers", new JsonArray().add(me.accessToken())));
    assertEquals(DENIED, client.takeError());

    assertFalse(client.isClosed());
    assertEquals(me.userId(), whoami(client, me.accessToken()));
  }

  @Test
  @DisplayName("revoking the session closes its bridge connections and leaves other users' connections open")
  void revokeCloses(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    TokenPair other = gateway.newSession();
    BridgeClient mine = client();
    BridgeClient theirs = client();
    assertEquals(me.userId(), whoami(mine, me.accessToken()));
    assertEquals(other.userId(), whoami(theirs, other.accessToken()));

    Await.result(gateway.platform().sessions().revoke(me.userId(), me.sessionId()));

    mine.awaitClosed();
    assertFalse(theirs.isClosed());
    assertEquals(other.userId(), whoami(theirs, null));
  }

  @Test
  @DisplayName("log out everywhere over HTTP closes the user's bridge connections")
  void logoutEverywhereCloses(Vertx vertx) {
    start(vertx);
    TokenPair laptop = gateway.newSession();
    TokenPair phone = gateway.openSession(laptop.userId(), "phone");
    BridgeClient first = client();
    BridgeClient second = client();
    assertEquals(laptop.userId(), whoami(first, laptop.accessToken()));
    second.register(Addresses.user(laptop.userId()), phone.accessToken());
    publishUntilReceived(second, Addresses.user(laptop.userId()), new JsonObject());

    assertEquals(204, gateway.call(io.vertx.core.http.HttpMethod.POST, TestGateway.API + "/auth/logout-all",
        laptop.accessToken()).statusCode());

    first.awaitClosed();
    second.awaitClosed();
  }

  @Test
  @DisplayName("a token of a revoked session is refused on a new connection")
  void revokedTokenRefused(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    Await.result(gateway.platform().sessions().revoke(me.userId(), me.sessionId()));
    BridgeClient client = client();

    client.register(Addresses.user(me.userId()), me.accessToken());

    assertEquals(DENIED, client.takeError());
  }

  @Test
  @DisplayName("once the access token expires, frames without a fresh token are refused; a fresh token works again")
  void expiredBinding(Vertx vertx) {
    // two seconds: a token issued just before a second boundary still lives long enough for one round trip
    start(vertx, new JsonObject().put("tokens", new JsonObject().put("access-ttl", 2)));
    TokenPair me = gateway.newSession();
    BridgeClient client = client();
    AtomicInteger attempt = new AtomicInteger();

    Await.result(Poll.until(vertx, BridgeClient.WAIT, "frames on the expired binding to be refused", () -> {
      String replyAddress = "reply-exp-" + attempt.incrementAndGet();
      client.request(Addresses.BRIDGE_WHOAMI, replyAddress, attempt.get() == 1 ? me.accessToken() : null, null,
          new JsonObject());
      return Future.succeededFuture(client.pending().stream().anyMatch(f -> "err".equals(f.getString("type"))
          && DENIED.equals(client.errorOf(f))));
    }));

    TokenPair fresh = Await.result(gateway.platform().sessions().refresh(me.refreshToken()));
    assertEquals(me.userId(), whoami(client, fresh.accessToken()));
  }

  /** Takes the error frame answering {@code address}, checking the fields a client matches it by. */
  static JsonObject takeAnswer(BridgeClient client, String address, String error, int failureCode) {
    JsonObject err = client.take("an error on " + address,
        f -> "err".equals(f.getString("type")) && address.equals(f.getString("address")));
    assertEquals(error, client.errorOf(err), err.encode());
    assertEquals(failureCode, err.getInteger("failureCode"), err.encode());
    assertEquals(error, err.getString("failureType"), err.encode());
    assertEquals(error, err.getString("message"), err.encode());
    return err;
  }

  @Test
  @DisplayName("a refused send is answered on its reply address (failureCode, failureType, message), a refused "
      + "register on its address")
  void refusalsAnswerTheirAddress(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();
    String anonymous = UUID.randomUUID().toString();
    String forbidden = UUID.randomUUID().toString();

    client.request(Addresses.BRIDGE_WHOAMI, anonymous, null, null, new JsonObject());
    takeAnswer(client, anonymous, DENIED, 403);
    client.request("kith.admin.delete-everything", forbidden, me.accessToken(), null, new JsonObject());
    takeAnswer(client, forbidden, DENIED, 403);
    client.register(Addresses.user(me.userId() + 1), null);
    takeAnswer(client, Addresses.user(me.userId() + 1), DENIED, 403);

    assertEquals(me.userId(), whoami(client, null));
  }

  @ParameterizedTest(name = "header {0}")
  @ValueSource(strings = {"bad name", "bad:name", "value"})
  @DisplayName("a header the bridge cannot forward (a space in its name, a line break in its value) is answered "
      + "with invalid_frame and the connection stays usable")
  void invalidHeaderAnswered(String name, Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();
    String replyAddress = UUID.randomUUID().toString();
    JsonObject headers = name.equals("value") ? new JsonObject().put("x-note", "a\r\nInjected: yes")
        : new JsonObject().put(name, "x");

    client.request(ECHO, replyAddress, me.accessToken(), headers, new JsonObject());

    takeAnswer(client, replyAddress, BridgeGuard.INVALID_FRAME, 400);
    assertFalse(client.isClosed());
    // the refused frame authenticated nothing either
    assertEquals(me.userId(), whoami(client, me.accessToken()));
    JsonObject echoed = client.call(ECHO, null, new JsonObject().put("x-note", "fine"), new JsonObject());
    assertEquals("fine", echoed.getJsonObject("body").getJsonObject("headers").getString("x-note"));
  }

  @Test
  @DisplayName("registering again on an address the connection listens on is refused each time, logged once, "
      + "and the address still delivers once")
  void duplicateRegistration(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    BridgeClient client = client();
    String mine = Addresses.user(me.userId());
    Logger log = (Logger) LoggerFactory.getLogger(BridgeGuard.class);
    ListAppender<ILoggingEvent> captured = new ListAppender<>();
    captured.start();
    log.addAppender(captured);
    try {
      client.register(mine, me.accessToken());
      int again = 20;
      for (int i = 0; i < again; i++) {
        client.register(mine, null);
      }
      for (int i = 0; i < again; i++) {
        takeAnswer(client, mine, BridgeGuard.ALREADY_REGISTERED, 409);
      }

      publishUntilReceived(client, mine, new JsonObject().put("text", "first"));
      vertx.eventBus().publish(mine, new JsonObject().put("text", "once"));
      whoami(client, null);
      assertEquals(1, client.pending().stream().filter(f -> client.deliveryType().equals(f.getString("type"))
          && "once".equals(f.getJsonObject("body").getString("text"))).count(), client.pending().toString());
      assertEquals(1, captured.list.stream()
          .filter(e -> e.getFormattedMessage().contains("already registered")).count(), captured.list.toString());
    } finally {
      log.detachAppender(captured);
    }
  }
}
