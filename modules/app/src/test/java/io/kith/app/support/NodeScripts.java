package io.kith.app.support;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Node.js for tests that drive Kith with a client written in JavaScript or TypeScript: whether Node and the npm
 * project's packages are here, and running a script of that project. Where they are missing the test is skipped,
 * unless {@code KITH_REQUIRE_NODE_TESTS=1} (CI, set by {@code .ci/run}) makes that a failure.
 */
public final class NodeScripts {

  private NodeScripts() {
  }

  /** Skips the calling test unless Node runs and {@code installed} (a path that {@code npm ci} makes) exists. */
  public static void assumeReady(Path installed, String hint) {
    boolean ready = Files.exists(installed) && version() != null;
    if (!ready && "1".equals(System.getenv("KITH_REQUIRE_NODE_TESTS"))) {
      fail("Node.js or the npm packages are missing: " + hint);
    }
    Assumptions.assumeTrue(ready, "Node.js and the npm packages are needed: " + hint);
  }

  /** The installed Node.js version, or null when there is none. */
  public static String version() {
    try {
      Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
      return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0
          ? new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim() : null;
    } catch (Exception e) {
      return null;
    }
  }

  /**
   * Runs {@code node} with {@code args} in {@code dir} with these extra environment variables; fails the test unless
   * it exits 0 within {@code limit} (a guard against a hang, far above a normal run). Answers the output.
   */
  public static String run(Path dir, Map<String, String> env, Duration limit, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of("node"));
    command.addAll(List.of(args));
    File log = File.createTempFile("kith-node-", ".log");
    log.deleteOnExit();
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .redirectOutput(log);
    pb.environment().putAll(env);
    Process node = pb.start();
    boolean finished = node.waitFor(limit.toSeconds(), TimeUnit.SECONDS);
    if (!finished) {
      node.destroyForcibly();
    }
    String output = Files.readString(log.toPath());
    assertTrue(finished, "node " + String.join(" ", args) + " did not finish: " + output);
    assertEquals(0, node.exitValue(), output);
    return output;
  }

  /** The last line of {@code output} that is a JSON object (a script's result), or an empty object. */
  public static JsonObject result(String output) {
    return new JsonObject(output.lines().filter(l -> l.startsWith("{")).reduce((x, y) -> y).orElse("{}"));
  }
}
