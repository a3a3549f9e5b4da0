package io.kith.platform.outbound;

import io.kith.platform.testkit.Await;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("The development outbox and the SMS webhook signature")
class DevOutboxTest {

  private final Vertx vertx = Vertx.vertx();

  @AfterEach
  void close() {
    Await.result(vertx.close());
  }

  private static List<JsonObject> read(Path dir) throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.sorted().map(p -> {
        try {
          return new JsonObject(Files.readString(p));
        } catch (java.io.IOException e) {
          throw new IllegalStateException(e);
        }
      }).toList();
    }
  }

  @Test
  @DisplayName("each message is one JSON file, and only the newest outbox-keep files stay")
  void keepsTheNewest() throws Exception {
    Path dir = Files.createTempDirectory("kith-outbox-test").resolve("outbox");
    DevOutbox outbox = new DevOutbox(vertx, dir, 3);
    for (int i = 1; i <= 5; i++) {
      Await.result(outbox.send(new Mail("test", "a@example.test", "subject " + i, "text " + i, "<p>" + i + "</p>")));
    }
    Await.result(outbox.send(new Sms("test", "+441234567", "sms 6")));

    List<JsonObject> kept = read(dir);
    assertEquals(3, kept.size(), kept.toString());
    assertEquals("subject 4", kept.get(0).getString("subject"));
    assertEquals("<p>5</p>", kept.get(1).getString("html"));
    assertEquals("sms", kept.get(2).getString("channel"));
    assertEquals("+441234567", kept.get(2).getString("to"));
  }

  @Test
  @DisplayName("the signature is v1= and the hex HMAC-SHA256 of timestamp, '.', body (a fixed vector)")
  void signatureVector() {
    String signature = WebhookSms.signature("secret".getBytes(StandardCharsets.UTF_8), "1700000000",
        "{\"to\":\"+1\"}".getBytes(StandardCharsets.UTF_8));
    // computed independently: printf '1700000000.{"to":"+1"}' | openssl dgst -sha256 -hmac secret
    assertEquals("v1=" + EXPECTED, signature);
    assertTrue(signature.matches("v1=[0-9a-f]{64}"));
  }

  private static final String EXPECTED = "2856c4fd5f622703431dcbf8ef48728f19950ea00082b2fd836289ebc35616d7";
}
