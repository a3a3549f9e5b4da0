package io.kith.platform.testkit;

import org.junit.jupiter.api.Assumptions;

import io.vertx.core.json.JsonObject;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Runs Node.js scripts of a test's own npm project (a folder with {@code package.json} and
 * {@code package-lock.json}, installed by {@code npm ci}, which {@code .ci/run} does). Where Node or the project's
 * packages are missing the test is skipped, unless {@code KITH_REQUIRE_NODE_TESTS=1} (CI) makes that a failure.
 */
public final class NodeScript {

  private NodeScript() {
  }

  /** Skips the calling test (or fails it in CI) unless {@code node} runs and {@code dir/node_modules/<module>} is there. */
  public static void requireInstalled(Path dir, String module) {
    boolean ready = Files.isDirectory(dir.resolve("node_modules").resolve(module)) && nodeRuns();
    if (!ready && "1".equals(System.getenv("KITH_REQUIRE_NODE_TESTS"))) {
      fail("Node.js or " + module + " is missing: run `npm ci` in " + dir);
    }
    Assumptions.assumeTrue(ready, "Node.js and `npm ci` in " + dir + " are needed");
  }

  /**
   * Runs {@code node <args>} in {@code dir} with {@code env} added to the environment; answers its output (stdout and
   * stderr together), failing the test unless it exited 0 within {@code timeoutSeconds} (a generous bound: the
   * script's own waits decide).
   */
  public static String run(Path dir, Map<String, String> env, long timeoutSeconds, String... args) throws Exception {
    File log = File.createTempFile("kith-node-", ".log");
    log.deleteOnExit();
    ProcessBuilder pb = new ProcessBuilder(command(args)).directory(dir.toFile())
        .redirectErrorStream(true).redirectOutput(log);
    pb.environment().putAll(env);
    Process node = pb.start();
    boolean finished = node.waitFor(timeoutSeconds, TimeUnit.SECONDS);
    if (!finished) {
      node.destroyForcibly();
    }
    String output = Files.readString(log.toPath(), StandardCharsets.UTF_8);
    assertTrue(finished, "the Node script did not finish: " + output);
    assertEquals(0, node.exitValue(), output);
    return output;
  }

  /** The last line of {@code output} that is a JSON object (a script's result), or an empty object. */
  public static JsonObject result(String output) {
    return new JsonObject(output.lines().filter(l -> l.startsWith("{")).reduce((x, y) -> y).orElse("{}"));
  }

  private static List<String> command(String... args) {
    List<String> command = new ArrayList<>(List.of("node"));
    command.addAll(List.of(args));
    return command;
  }

  private static boolean nodeRuns() {
    try {
      Process p = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
      boolean done = p.waitFor(10, TimeUnit.SECONDS);
      p.getInputStream().readAllBytes();
      return done && p.exitValue() == 0;
    } catch (Exception e) {
      return false;
    }
  }
}
