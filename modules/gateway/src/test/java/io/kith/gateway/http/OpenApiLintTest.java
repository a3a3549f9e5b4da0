package io.kith.gateway.http;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Lints {@code src/main/resources/openapi.yaml} with Redocly CLI ({@code @redocly/cli}, pinned in
 * {@code src/test/openapi-lint} and installed there by {@code npm ci}; {@code .ci/run} does it) under the rules of
 * {@code src/test/openapi-lint/redocly.yaml}. Where Node or the linter is missing the test is skipped, unless
 * {@code KITH_REQUIRE_NODE_TESTS=1} (CI) makes that a failure.
 */
@DisplayName("The OpenAPI document passes Redocly CLI's recommended rules with zero errors")
class OpenApiLintTest {

  private static final Path DIR = Path.of("src", "test", "openapi-lint");
  private static final Path CLI = DIR.resolve("node_modules").resolve("@redocly").resolve("cli").resolve("bin")
      .resolve("cli.js");

  @Test
  @DisplayName("redocly lint reports no error on the document")
  void lint() throws Exception {
    boolean ready = Files.isRegularFile(CLI) && node("--version") != null;
    if (!ready && "1".equals(System.getenv("KITH_REQUIRE_NODE_TESTS"))) {
      fail("Node.js or Redocly CLI is missing: run `npm ci` in modules/gateway/src/test/openapi-lint");
    }
    Assumptions.assumeTrue(ready, "Node.js and npm ci in modules/gateway/src/test/openapi-lint are needed");

    File out = File.createTempFile("kith-redocly-", ".json");
    out.deleteOnExit();
    File err = File.createTempFile("kith-redocly-", ".log");
    err.deleteOnExit();
    Path document = Path.of("src", "main", "resources", "openapi.yaml").toAbsolutePath();
    Process lint = new ProcessBuilder("node", CLI.toAbsolutePath().toString(), "lint", document.toString(),
        "--config", "redocly.yaml", "--format=json")
        .directory(DIR.toFile()).redirectOutput(out).redirectError(err).start();
    boolean finished = lint.waitFor(120, TimeUnit.SECONDS);
    if (!finished) {
      lint.destroyForcibly();
    }
    String report = Files.readString(out.toPath());
    assertTrue(finished, "the linter did not finish: " + Files.readString(err.toPath()));
    JsonObject result = new JsonObject(report);
    StringBuilder errors = new StringBuilder();
    JsonArray problems = result.getJsonArray("problems", new JsonArray());
    problems.stream().map(JsonObject.class::cast).filter(p -> "error".equals(p.getString("severity")))
        .forEach(p -> errors.append('\n').append(p.getString("ruleId")).append(": ").append(p.getString("message"))
            .append(" at ").append(p.getJsonArray("location").getJsonObject(0).getString("pointer")));
    assertEquals(0, result.getJsonObject("totals").getInteger("errors"), "lint errors:" + errors);
    assertEquals(0, lint.exitValue(), Files.readString(err.toPath()));
  }

  private static String node(String arg) {
    try {
      Process p = new ProcessBuilder("node", arg).redirectErrorStream(true).start();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0
          ? new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim() : null;
    } catch (Exception e) {
      return null;
    }
  }
}
