package io.kith.app.clients;

import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.NodeScript;
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
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The TypeScript client of {@code modules/clients/typescript}: types generated from the gateway's OpenAPI document
 * by openapi-typescript, requests by openapi-fetch (installed by {@code npm ci} there; {@code .ci/run} does it).
 * The types are generated afresh from the document before the tests, so a response field typed wrongly there fails
 * the strict type check where {@code src/main-flow.ts} uses it, and the flow then runs against a live Kith.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("The TypeScript client generated from the OpenAPI document (openapi-typescript and openapi-fetch)")
class TypeScriptClientFlowTest {

  private static final Path DIR = Path.of("..", "clients", "typescript");
  /** A guard against a hung process, far above a normal run (seconds) on a busy machine. */
  /** Seconds a script may run: a guard against a hang, far above a normal run. */
  private static final long LIMIT = 300;

  private ClientsKith kith;

  @BeforeAll
  void start() throws Exception {
    NodeScript.requireInstalled(DIR, "openapi-fetch");
    NodeScript.run(DIR, Map.of(), LIMIT, "scripts/generate.mjs");
    kith = ClientsKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("the main flow type-checks (tsc --noEmit, strict) against the types generated from the document")
  void typeChecks() throws Exception {
    NodeScript.run(DIR, Map.of(), LIMIT, "node_modules/.bin/tsc", "--noEmit", "-p", ".");
  }

  @Test
  @DisplayName("register, log in, edit the profile, upload a photo, follow, post with it, home timeline, comment, "
      + "like, notifications and exact unread counts, a direct message, an activity created and joined, and a "
      + "wrong password's 401 problem run through the TypeScript client")
  void mainFlow() throws Exception {
    String output = NodeScript.run(DIR, Map.of("KITH_URL", kith.baseUrl()), LIMIT,
        "node_modules/.bin/tsx", "src/main-flow.ts");
    JsonObject result = NodeScript.result(output);
    assertEquals(Boolean.TRUE, result.getBoolean("ok"), output);
    assertEquals("invalid_credentials", result.getString("refusal"), output);
    assertTrue(result.getLong("post") > 0, output);
    assertNotEquals(result.getLong("alice"), result.getLong("bob"), output);
  }
}
