package io.kith.app.deploy;

import io.kith.app.support.DeployFiles;
import io.kith.platform.KithModule;
import io.kith.platform.config.KithConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * deploy/compose.yaml: Docker Compose accepts it ({@code docker-compose config}, which needs no engine; skipped where
 * docker-compose is missing unless {@code KITH_REQUIRE_DEPLOY_TOOLS=1}), and the three Kith nodes it runs form a
 * working cluster on paper: valid environments, placements that cover every module twice, a MongoDB replica set.
 */
@DisplayName("deploy/compose.yaml: three Kith nodes, Redis and a MongoDB replica set")
class ComposeFileTest {

  private static final String FILE = "deploy/compose.yaml";
  private static JsonObject services;
  private static Map<String, Map<String, String>> nodes;

  @BeforeAll
  static void read() throws IOException {
    services = DeployFiles.yamlOne(FILE).getJsonObject("services");
    nodes = new TreeMap<>();
    for (String name : services.fieldNames()) {
      JsonObject env = services.getJsonObject(name).getJsonObject("environment", new JsonObject());
      if (env.containsKey("KITH_CLUSTER_ENABLED")) {
        Map<String, String> values = new HashMap<>();
        // ${VAR:?message} is the operator's to give: a stand-in of a valid length here
        env.forEach(e -> values.put(e.getKey(), String.valueOf(e.getValue()).startsWith("${")
            ? "0123456789abcdef0123456789abcdef0123456789abcdef" : String.valueOf(e.getValue())));
        nodes.put(name, values);
      }
    }
  }

  @Test
  @DisplayName("docker-compose config accepts the file when KITH_TOKENS_SECRET is given")
  void composeAccepts() throws Exception {
    DeployFiles.requireTool("docker-compose");
    Result r = compose(Map.of("KITH_TOKENS_SECRET", "0123456789abcdef0123456789abcdef"));
    assertEquals(0, r.code, r.output);
  }

  @Test
  @DisplayName("docker-compose config refuses the file when KITH_TOKENS_SECRET is missing, naming it")
  void composeRefusesWithoutSecret() throws Exception {
    DeployFiles.requireTool("docker-compose");
    Result r = compose(Map.of());
    assertTrue(r.code != 0 && r.output.contains("KITH_TOKENS_SECRET"), r.output);
  }

  @Test
  @DisplayName("three nodes, each running the gateway in another placement, and every domain module on two of them")
  void placements() {
    assertEquals(3, nodes.size(), nodes.keySet().toString());
    Set<String> known = new TreeSet<>();
    ServiceLoader.load(KithModule.class).forEach(m -> {
      // the product's modules, not the ones tests register (test-classes)
      if (!m.getClass().getProtectionDomain().getCodeSource().getLocation().toString().contains("test-classes")) {
        known.add(m.name());
      }
    });
    assertTrue(known.contains("gateway") && known.size() > 1, known.toString());
    Map<String, Integer> placedOn = new TreeMap<>();
    Set<Set<String>> placements = new HashSet<>();
    for (Map.Entry<String, Map<String, String>> node : nodes.entrySet()) {
      Set<String> modules = new TreeSet<>(List.of(node.getValue().get("KITH_MODULES").split(",")));
      Set<String> runs = modules.contains("all") ? known : modules;
      assertTrue(runs.contains("gateway"), node.getKey() + " runs no gateway: it would answer no health check");
      runs.forEach(m -> placedOn.merge(m, 1, Integer::sum));
      placements.add(runs);
    }
    assertEquals(3, placements.size(), "placements should differ: " + placements);
    for (String module : known) {
      assertTrue(placedOn.getOrDefault(module, 0) >= 2, module + " runs on " + placedOn.get(module) + " node(s)");
    }
  }

  @Test
  @DisplayName("every node's environment is a valid Kith configuration naming itself among the cluster members, "
      + "ready only with a majority of them")
  void environments() {
    for (Map.Entry<String, Map<String, String>> node : nodes.entrySet()) {
      KithConfig config = DeployFiles.assertValidEnvironment(FILE + " " + node.getKey(), node.getValue());
      JsonObject cluster = config.section("cluster");
      assertTrue(cluster.getBoolean("enabled"));
      assertEquals(node.getKey(), cluster.getString("host"));
      assertEquals(node.getKey(), services.getJsonObject(node.getKey()).getString("hostname"));
      assertEquals(nodes.keySet(), new TreeSet<>(cluster.getJsonArray("members").getList()));
      assertTrue(cluster.getInteger("bus-port") > 0, "a fixed event-bus port");
      int minMembers = cluster.getInteger("min-members");
      assertTrue(minMembers > nodes.size() / 2,
          "ready only with a majority, so a node cut off alone leaves the balancer: " + minMembers);
      assertTrue(node.getValue().get("KITH_REDIS_URL").startsWith("redis://redis:"));
    }
  }

  @Test
  @DisplayName("every node runs the event bus with mutual TLS: the one cluster CA, and a key and certificate of its "
      + "own, all from the folder mounted read-only")
  void busTls() {
    Set<String> keys = new HashSet<>();
    Set<String> certs = new HashSet<>();
    Set<String> cas = new HashSet<>();
    for (Map.Entry<String, Map<String, String>> node : nodes.entrySet()) {
      JsonObject tls = DeployFiles.assertValidEnvironment(FILE + " " + node.getKey(), node.getValue())
          .section("cluster").getJsonObject("tls");
      assertEquals(Boolean.TRUE, tls.getBoolean("enabled"), node.getKey() + ": TLS on the bus");
      String mount = services.getJsonObject(node.getKey()).getJsonArray("volumes").stream().map(String::valueOf)
          .filter(v -> v.endsWith(":ro") && v.contains(":/etc/kith/tls")).findFirst()
          .orElseThrow(() -> new AssertionError(node.getKey() + " mounts no TLS folder read-only"));
      String dir = mount.split(":")[1];
      for (String file : List.of("key", "cert", "ca")) {
        assertTrue(tls.getString(file).startsWith(dir + "/"), node.getKey() + " " + file + ": " + tls);
      }
      keys.add(tls.getString("key"));
      certs.add(tls.getString("cert"));
      cas.add(tls.getString("ca"));
    }
    assertEquals(nodes.size(), keys.size(), "a key per node: " + keys);
    assertEquals(nodes.size(), certs.size(), "a certificate per node: " + certs);
    assertEquals(1, cas.size(), "one cluster CA: " + cas);
  }

  @Test
  @DisplayName("each node is given longer to stop than its drain, and starts after Redis and MongoDB are healthy")
  void stopAndStart() {
    for (Map.Entry<String, Map<String, String>> node : nodes.entrySet()) {
      JsonObject service = services.getJsonObject(node.getKey());
      int stopGrace = Integer.parseInt(service.getString("stop_grace_period").replace("s", ""));
      int drain = Integer.parseInt(node.getValue().get("KITH_SHUTDOWN_GRACE_SECONDS"));
      assertTrue(drain + 5 <= stopGrace, node.getKey() + ": drain " + drain + " s, stop grace " + stopGrace + " s");
      JsonObject after = service.getJsonObject("depends_on");
      for (String store : List.of("redis", "mongo-1")) {
        assertEquals("service_healthy", after.getJsonObject(store).getString("condition"), node.getKey());
      }
    }
  }

  @Test
  @DisplayName("the MongoDB URL names every member of the replica set that mongo-1 initiates")
  void replicaSet() {
    List<String> members = new ArrayList<>();
    for (String name : services.fieldNames()) {
      JsonArray command = services.getJsonObject(name).getJsonArray("command", new JsonArray());
      if (command.contains("mongod")) {
        assertEquals("rs0", command.getString(command.getList().indexOf("--replSet") + 1), name);
        members.add(name + ":27017");
      }
    }
    assertEquals(3, members.size(), members.toString());
    String initiate = services.getJsonObject("mongo-1").getJsonObject("healthcheck").getJsonArray("test").toString();
    for (Map<String, String> env : nodes.values()) {
      String url = env.get("KITH_MONGO_URL");
      assertTrue(url.endsWith("/?replicaSet=rs0"), url);
      for (String member : members) {
        assertTrue(url.contains(member) && initiate.contains("'" + member + "'"), member + " in " + url);
      }
    }
  }

  private record Result(int code, String output) {
  }

  private static Result compose(Map<String, String> env) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("docker-compose", "-f", FILE, "config", "-q")
        .directory(DeployFiles.root().toFile()).redirectErrorStream(true);
    pb.environment().remove("KITH_TOKENS_SECRET");
    pb.environment().putAll(env);
    Process p = pb.start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "docker-compose config did not finish");
    return new Result(p.exitValue(), out);
  }
}
