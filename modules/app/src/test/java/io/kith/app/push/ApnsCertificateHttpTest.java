package io.kith.app.push;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.eatthepath.pushy.apns.server.MockApnsServer;
import com.eatthepath.pushy.apns.server.MockApnsServerBuilder;
import com.eatthepath.pushy.apns.server.RejectedNotificationException;
import com.eatthepath.pushy.apns.server.RejectionReason;
import io.kith.app.Kith;
import io.kith.app.support.ClusterCertificates;
import io.kith.app.support.TestNode;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLPeerUnverifiedException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.kith.app.push.PushTargetsHttpTest.apns;
import static io.kith.app.push.PushTargetsHttpTest.apnsToken;
import static io.kith.app.support.TestNode.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * APNs certificate authentication (issue 21) against Pushy's MockApnsServer that, as APNs does for a provider without
 * a token, asks for a TLS client certificate its CA signed and refuses pushes on a connection that showed none. Each
 * test starts its own node: one node's APNs credentials are fixed for its life.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("APNs certificate authentication: the app's .p12 certificate instead of a token key")
class ApnsCertificateHttpTest {

  private static final String TARGETS = "/me/push-targets";
  private static final String PASSWORD = "keychain-export-1";

  /** A push the server accepted: the device token, the client certificate's subject, the headers, the payload. */
  private record Accepted(String token, String client, JsonObject headers, JsonObject payload) {
  }

  @TempDir
  static Path dir;
  private ClusterCertificates ca;
  private MockApnsServer server;
  private int port;
  private final List<Accepted> accepted = new CopyOnWriteArrayList<>();

  @BeforeAll
  void start() throws Exception {
    ca = ClusterCertificates.create(dir, "apns");
    ClusterCertificates.NodeFiles host = ca.issue("localhost");
    server = new MockApnsServerBuilder()
        .setServerCredentials(host.cert().toFile(), host.key().toFile(), null)
        .setTrustedClientCertificateChain(ca.caFile().toFile())
        .setHandlerFactory(session -> {
          String client;
          try {
            client = session.getPeerPrincipal().getName();
          } catch (SSLPeerUnverifiedException e) {
            client = null;
          }
          String who = client;
          return (headers, payload) -> {
            if (who == null) {
              // what APNs answers a connection with neither a certificate nor a token
              throw new RejectedNotificationException(RejectionReason.MISSING_PROVIDER_TOKEN);
            }
            JsonObject h = new JsonObject();
            headers.forEach(e -> h.put(e.getKey().toString(), e.getValue().toString()));
            String path = headers.path().toString();
            accepted.add(new Accepted(path.substring(path.lastIndexOf('/') + 1), who, h,
                new JsonObject(payload.toString(StandardCharsets.UTF_8))));
          };
        })
        .build();
    port = server.start(0).get();
  }

  @AfterAll
  void stop() throws Exception {
    server.shutdown().get();
  }

  /** The {@code push} settings of a node that authenticates to the mock with the certificate in {@code p12}. */
  private JsonObject push(Path p12, String password) {
    return new JsonObject().put("concurrency", 1).put("attempts", 1).put("timeout-ms", 15000)
        .put("trust-path", ca.caFile().toString())
        .put("apns", new JsonObject().put("cert-path", p12.toString()).put("cert-password", password)
            .put("topic", "io.kith.demo").put("host", "localhost").put("port", port));
  }

  @Test
  @DisplayName("a push reaches APNs over a connection authenticated by the app's certificate, with no token")
  void deliveredWithCertificate() {
    try (PushKith kith = PushKith.start(push(ca.pkcs12("kith-push", PASSWORD), PASSWORD))) {
      User alice = kith.register();
      User bob = kith.register();
      String token = apnsToken();
      kith.post(TARGETS, alice, apns(token)).expect(201);

      kith.follow(bob, alice);
      Accepted push = kith.awaitFound("the APNs push", () -> accepted.stream().filter(p -> p.token().equals(token))
          .findFirst().orElse(null));
      assertEquals("CN=kith-push", push.client(), "the certificate from the .p12 file");
      assertNull(push.headers().getString("authorization"), "no provider token beside the certificate");
      assertEquals("io.kith.demo", push.headers().getString("apns-topic"));
      assertEquals(bob.username() + " followed you",
          push.payload().getJsonObject("aps").getJsonObject("alert").getString("body"));
    }
  }

  @Test
  @DisplayName("a certificate APNs does not trust fails the push, which is logged; the node keeps serving and "
      + "keeps the target")
  void untrustedCertificate() {
    // a CA of the same name with another key: a JDK client offers only a certificate whose issuer the server names,
    // so a forged one is what reaches APNs's trust check (a certificate of an unrelated CA is not even shown)
    ClusterCertificates rogue = ClusterCertificates.create(dir.resolve("forged"), "apns");
    List<Logger> loggers = List.of((Logger) LoggerFactory.getLogger("io.kith.push.service.delivery.Deliveries"),
        (Logger) LoggerFactory.getLogger("io.kith.push.service.delivery.ApnsProvider"));
    ListAppender<ILoggingEvent> lines = new ListAppender<>();
    lines.start();
    loggers.forEach(l -> l.addAppender(lines));
    try (PushKith kith = PushKith.start(push(rogue.pkcs12("kith-push", ""), ""))) {
      User alice = kith.register();
      String token = apnsToken();
      long target = kith.post(TARGETS, alice, apns(token)).expect(201).getLong("id");
      String failed = "push to target " + target + " of user " + alice.id() + " not sent";

      kith.follow(kith.register(), alice);
      kith.awaitFound("the failed push logged", () -> count(lines, failed) >= 1 ? true : null);
      assertTrue(count(lines, "APNs push to target " + target + " failed before an answer") >= 1
          && count(lines, "SSLHandshakeException") >= 1, "the log names the refused handshake");
      kith.follow(kith.register(), alice);
      kith.awaitFound("the next push tried and logged", () -> count(lines, failed) >= 2 ? true : null);

      kith.awaitPage("/notifications", alice, "both notifications stored", p -> p.getJsonArray("items").size() == 2);
      assertEquals(target, kith.get(TARGETS, alice).expect(200).getJsonArray("items").getJsonObject(0)
          .getLong("id"), "a refused handshake is not a gone token");
      assertFalse(accepted.stream().anyMatch(p -> p.token().equals(token)), "nothing reached APNs");
    } finally {
      loggers.forEach(l -> l.detachAppender(lines));
    }
  }

  private static long count(ListAppender<ILoggingEvent> lines, String text) {
    return lines.list.stream().filter(e -> e.getFormattedMessage().contains(text)).count();
  }

  @Test
  @DisplayName("a token key and a certificate together, half a token key, a password without a certificate, or a "
      + "wrong password are refused at start, naming the keys")
  void refusedAtStart() {
    Path p12 = ca.pkcs12("kith-push", PASSWORD);
    JsonObject both = push(p12, PASSWORD);
    both.getJsonObject("apns").put("key-path", "/keys/AuthKey.p8").put("key-id", "KEY0000001")
        .put("team-id", "TEAM000001");
    String message = startFailure(both);
    assertTrue(message.contains("not both") && message.contains("key-path") && message.contains("cert-path"),
        message);

    JsonObject half = push(p12, PASSWORD);
    half.getJsonObject("apns").put("cert-path", "").put("cert-password", "").put("key-path", "/keys/AuthKey.p8");
    message = startFailure(half);
    assertTrue(message.contains("push.apns.key-id") && message.contains("push.apns.team-id"), message);

    JsonObject noFile = push(p12, PASSWORD);
    noFile.getJsonObject("apns").put("cert-path", "");
    message = startFailure(noFile);
    assertTrue(message.contains("push.apns.cert-password") && message.contains("push.apns.cert-path"), message);

    message = startFailure(push(p12, "not-the-password"));
    assertTrue(message.contains("push.apns.cert-path " + p12 + " cannot be read as a PKCS#12 file with "
        + "push.apns.cert-password"), message);
  }

  private static String startFailure(JsonObject push) {
    CompletableFuture<Kith> start = Kith.start(KithTestKit.config(TestNode.config("push").put("push", push)))
        .toCompletionStage().toCompletableFuture();
    Exception e = assertThrows(Exception.class, () -> start.get(WAIT.toSeconds() + 60, TimeUnit.SECONDS));
    return String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
  }
}
