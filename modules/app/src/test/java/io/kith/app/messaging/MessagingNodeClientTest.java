package io.kith.app.messaging;

import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.NodeScript;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Runs {@code src/test/node/direct-chat.js} and {@code group-chat.js}, which drive the bridge with the official
 * Vert.x JavaScript client ({@code @vertx/eventbus-bridge-client.js}, installed by {@code npm ci} in
 * {@code src/test/node}; {@code .ci/run} does it; {@code bridge-client.js} holds their shared helpers), and
 * {@code reconnect.js}, the reconnect recipe of {@code docs/realtime.md}. Where Node or the client is missing the test is skipped, unless {@code KITH_REQUIRE_NODE_TESTS=1} (CI) makes
 * that a failure.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Direct and group messages with the official Vert.x JavaScript bridge client (Node.js)")
class MessagingNodeClientTest {

  private static final Path DIR = Path.of("src", "test", "node");

  private MessagingKith kith;

  @BeforeAll
  void start() {
    NodeScript.requireInstalled(DIR, "@vertx");
    kith = MessagingKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("two users exchange messages live; one disconnects and on reconnect fetches exactly the missed ones")
  void directChat() throws Exception {
    JsonObject result = run("direct-chat.js");
    assertEquals(5, result.getInteger("missed"), result.encode());
  }

  @Test
  @DisplayName("two users exchange group messages on the group's room; one disconnects and on reconnect fetches "
      + "exactly the missed ones by after_seq, in order")
  void groupChat() throws Exception {
    JsonObject result = run("group-chat.js");
    assertEquals(3, result.getInteger("live"), result.encode());
    assertEquals(5, result.getInteger("missed"), result.encode());
  }

  @Test
  @DisplayName("refused bridge frames reach the official client's callbacks: a send's callback and a registered "
      + "handler get the error with failureCode and failureType")
  void refusals() throws Exception {
    JsonObject result = run("bridge-refusals.js");
    assertEquals(4, result.getInteger("refusals"), result.encode());
  }

  @Test
  @DisplayName("the reconnect recipe of docs/realtime.md: the client reconnects by itself with no handler left, "
      + "registers again in onopen, catches up by after_seq and holds every message once, then hears the next live")
  void reconnectRecipe() throws Exception {
    // one automatic reconnect; the first message, the four sent while away and the one after it, each once
    JsonObject result = run("reconnect.js");
    assertEquals("1 reconnect, 6 held", result.getInteger("reconnects") + " reconnect, " + result.getInteger("held")
        + " held", result.encode());
  }

  /** Runs a script with two fresh users; answers its result line, failing unless it exited 0 with ok. */
  private JsonObject run(String script) throws Exception {
    User alice = kith.register();
    User bob = kith.register();
    JsonArray users = new JsonArray()
        .add(new JsonObject().put("id", alice.id()).put("access", alice.access()))
        .add(new JsonObject().put("id", bob.id()).put("access", bob.access()));
    String output = NodeScript.run(DIR, Map.of("KITH_URL", "http://127.0.0.1:" + kith.port(),
        "KITH_USERS", users.encode()), 90, script);
    JsonObject result = NodeScript.result(output);
    assertEquals(Boolean.TRUE, result.getBoolean("ok"), output);
    return result;
  }
}
