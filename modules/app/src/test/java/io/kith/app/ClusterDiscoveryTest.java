package io.kith.app;

import com.hazelcast.config.Config;
import com.hazelcast.config.JoinConfig;
import io.kith.app.support.DeployFiles;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How a node finds the other members: the Hazelcast configuration that deploy/kubernetes ships (a ConfigMap given as
 * {@code cluster.config-file}) is read by Hazelcast as Kith starts it, and joins through Kubernetes DNS; without it,
 * the TCP/IP member list of {@code cluster.members} is used.
 */
@DisplayName("Cluster discovery: TCP/IP members, or Kubernetes DNS from a Hazelcast file")
class ClusterDiscoveryTest {

  @Test
  @DisplayName("the Hazelcast file of deploy/kubernetes joins through the headless service's DNS name, with no "
      + "TCP/IP or multicast join, and keeps the Vert.x maps of conf/cluster.xml")
  void kubernetesJoin(@TempDir Path dir) throws Exception {
    JsonObject configMap = DeployFiles.yamlOne("deploy/kubernetes/hazelcast-configmap.yaml");
    Path file = dir.resolve("hazelcast.xml");
    Files.writeString(file, configMap.getJsonObject("data").getString("hazelcast.xml"));
    Config hz = Cluster.manager(cluster().put("config-file", file.toString())).getConfig();
    JoinConfig join = hz.getNetworkConfig().getJoin();
    join.verify();
    assertTrue(join.getKubernetesConfig().isEnabled());
    assertEquals("kith-hazelcast.kith.svc.cluster.local", join.getKubernetesConfig().getProperty("service-dns"));
    assertFalse(join.getTcpIpConfig().isEnabled());
    assertFalse(join.getMulticastConfig().isEnabled());
    assertFalse(join.getAutoDetectionConfig().isEnabled());
    Config builtIn = Cluster.manager(cluster()).getConfig();
    assertEquals(builtIn.getMultiMapConfigs().keySet(), hz.getMultiMapConfigs().keySet());
    assertEquals(builtIn.getMapConfigs().keySet(), hz.getMapConfigs().keySet());
    assertNotNull(hz.getMultiMapConfigs().get("__vertx.subs"));
    // what Kith sets from cluster.* still applies on top of the file
    assertEquals("kith-test", hz.getClusterName());
    assertEquals(5701, hz.getNetworkConfig().getPort());
  }

  @Test
  @DisplayName("without a Kubernetes join in the file, the node joins cluster.members over TCP/IP")
  void tcpIpJoin() {
    JoinConfig join = Cluster.manager(cluster()).getConfig().getNetworkConfig().getJoin();
    join.verify();
    assertTrue(join.getTcpIpConfig().isEnabled());
    assertEquals(List.of("127.0.0.1", "127.0.0.2"), join.getTcpIpConfig().getMembers());
    assertFalse(join.getKubernetesConfig().isEnabled());
  }

  private static JsonObject cluster() {
    return new JsonObject().put("name", "kith-test").put("host", "127.0.0.1").put("port", 5701)
        .put("members", new JsonArray().add("127.0.0.1").add("127.0.0.2")).put("config-file", "");
  }
}
