package io.kith.app.deploy;

import io.kith.app.support.DeployFiles;
import io.kith.platform.config.KithConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Dockerfile and .dockerignore, read as files (no Docker engine here): the ports the image exposes and checks are
 * the ones conf/kith.yaml and the image's environment give Kith, and the image runs and stops as an orchestrator
 * expects.
 */
@DisplayName("Dockerfile and .dockerignore")
class ImageFilesTest {

  /** Seconds docker stop waits after SIGTERM before SIGKILL, unless told otherwise. */
  private static final int DOCKER_STOP_GRACE = 10;

  private static List<String[]> runStage;
  private static Map<String, String> env;
  private static KithConfig defaults;

  @BeforeAll
  static void read() throws IOException {
    runStage = lastStage(DeployFiles.read("Dockerfile"));
    env = new LinkedHashMap<>();
    Matcher m = Pattern.compile("(\\w+)=(\"[^\"]*\"|\\S+)").matcher(String.join(" ", args("ENV")));
    while (m.find()) {
      env.put(m.group(1), m.group(2).replace("\"", ""));
    }
    defaults = KithConfig.load(null, Map.of());
  }

  @Test
  @DisplayName("the image exposes exactly the HTTP port and the Hazelcast port of conf/kith.yaml and the event-bus "
      + "port it fixes")
  void exposedPorts() {
    int bus = Integer.parseInt(env.getOrDefault("KITH_CLUSTER_BUS_PORT", "0"));
    assertNotEquals(0, bus, "the image must fix cluster.bus-port (its default, 0, is a random port nobody can expose)");
    Set<Integer> exposed = new TreeSet<>();
    for (String a : args("EXPOSE")) {
      for (String port : a.split("\\s+")) {
        exposed.add(Integer.parseInt(port.replace("/tcp", "")));
      }
    }
    assertEquals(new TreeSet<>(Set.of(intAt("http.port"), intAt("cluster.port"), bus)), exposed);
  }

  @Test
  @DisplayName("the health check asks /health on KITH_HTTP_PORT, falling back to conf/kith.yaml's http.port")
  void healthCheckPort() {
    String check = String.join(" ", args("HEALTHCHECK"));
    Matcher port = Pattern.compile("/dev/tcp/127\\.0\\.0\\.1/\\$\\{KITH_HTTP_PORT:-(\\d+)}").matcher(check);
    assertTrue(port.find(), check);
    assertEquals(intAt("http.port"), Integer.parseInt(port.group(1)));
    assertTrue(check.contains("GET /health "), check);
  }

  @Test
  @DisplayName("the image runs as the numeric non-root user and group it creates")
  void numericUser() {
    List<String> user = args("USER");
    assertEquals(1, user.size(), "one USER in the run stage");
    Matcher ids = Pattern.compile("(\\d+):(\\d+)").matcher(user.get(0));
    assertTrue(ids.matches(), "USER must be numeric uid:gid, not " + user.get(0));
    assertNotEquals("0", ids.group(1));
    String run = String.join(" ", args("RUN"));
    assertTrue(run.contains("--uid " + ids.group(1)) && run.contains("--gid " + ids.group(2)), run);
  }

  @Test
  @DisplayName("the image's KITH_ variables are a valid configuration, and its shutdown drain fits docker stop's "
      + "default grace")
  void environmentAndStop() {
    KithConfig config = DeployFiles.assertValidEnvironment("Dockerfile ENV", env);
    long grace = config.section("kith").getLong("shutdown-grace-seconds");
    // the drain is followed by undeploying the modules and leaving the cluster: leave them a few seconds
    assertTrue(grace <= DOCKER_STOP_GRACE - 3, "kith.shutdown-grace-seconds " + grace + " leaves docker stop ("
        + DOCKER_STOP_GRACE + " s) no time to stop the rest before SIGKILL");
    assertEquals(List.of("SIGTERM"), args("STOPSIGNAL"));
  }

  @Test
  @DisplayName(".dockerignore keeps build output, local data and git history out of the context, and nothing the "
      + "build copies")
  void dockerIgnore() throws IOException {
    Set<String> patterns = new TreeSet<>();
    for (String line : DeployFiles.read(".dockerignore").split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        patterns.add(line.trim());
      }
    }
    assertTrue(patterns.containsAll(Set.of("**/target", "**/node_modules", "data", ".git")), patterns.toString());
    for (String needed : List.of("pom.xml", "conf", "modules", "*", "**", "**/pom.xml", "modules/**")) {
      assertTrue(!patterns.contains(needed), ".dockerignore must not exclude " + needed);
    }
  }

  private static int intAt(String key) {
    return ((Number) defaults.get(key)).intValue();
  }

  /** The arguments of every instruction {@code name} of the run stage, in order. */
  private static List<String> args(String name) {
    List<String> out = new ArrayList<>();
    for (String[] instruction : runStage) {
      if (instruction[0].equals(name)) {
        out.add(instruction[1]);
      }
    }
    return out;
  }

  /** Instructions after the last FROM, as {instruction, arguments}, continuation lines joined, comments dropped. */
  private static List<String[]> lastStage(String dockerfile) {
    List<String[]> stage = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    for (String line : dockerfile.split("\n")) {
      String trimmed = line.strip();
      if (trimmed.startsWith("#") || (trimmed.isEmpty() && current.length() == 0)) {
        continue;
      }
      boolean continued = trimmed.endsWith("\\");
      current.append(continued ? trimmed.substring(0, trimmed.length() - 1) : trimmed).append(' ');
      if (!continued) {
        String[] parts = current.toString().strip().split("\\s+", 2);
        current.setLength(0);
        if (parts[0].equalsIgnoreCase("FROM")) {
          stage.clear();
        } else {
          stage.add(new String[] {parts[0].toUpperCase(java.util.Locale.ROOT), parts.length > 1 ? parts[1] : ""});
        }
      }
    }
    return stage;
  }
}
