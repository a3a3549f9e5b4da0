package io.kith.app;

import com.hazelcast.config.ClasspathXmlConfig;
import com.hazelcast.config.Config;
import com.hazelcast.config.FileSystemXmlConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;
import io.kith.platform.bus.Membership;
import io.kith.platform.config.ConfigException;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;

import java.io.FileNotFoundException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the Hazelcast cluster manager from {@code conf/cluster.xml} (or {@code cluster.config-file}) and the
 * {@code cluster} section: cluster name, this node's host and port, and the TCP/IP member list. Multicast and
 * auto-detection are always off: members are named, or, when the configuration file enables Hazelcast's Kubernetes
 * join, found through the Kubernetes service it names. The member socket binds to {@code cluster.host} alone.
 * Hazelcast's open-source edition has no TLS between members: its port belongs on a private network.
 */
final class Cluster {

  private Cluster() {
  }

  static HazelcastClusterManager manager(JsonObject cluster) {
    Config hz = base(cluster.getString("config-file", ""));
    hz.setClusterName(cluster.getString("name", "kith"));
    hz.setProperty("hazelcast.logging.type", "slf4j");
    hz.setProperty("hazelcast.phone.home.enabled", "false");
    hz.setProperty("hazelcast.shutdownhook.enabled", "false");
    hz.setProperty("hazelcast.wait.seconds.before.join", String.valueOf(cluster.getInteger("join-wait-seconds", 5)));
    failureDetection(hz, cluster.getInteger("member-timeout-seconds", 10));
    // after a partition heals, each side keeps serving on its own until the split-brain merge runs: Hazelcast's
    // defaults (first after 300 s, then every 120 s) left a healed cluster split for minutes
    hz.setProperty("hazelcast.merge.first.run.delay.seconds",
        String.valueOf(cluster.getInteger("merge-first-delay-seconds", 10)));
    hz.setProperty("hazelcast.merge.next.run.delay.seconds",
        String.valueOf(cluster.getInteger("merge-next-delay-seconds", 5)));
    String host = cluster.getString("host", "127.0.0.1");
    int port = cluster.getInteger("port", 5701);
    NetworkConfig net = hz.getNetworkConfig();
    net.setPort(port).setPortAutoIncrement(false);
    if (!"0.0.0.0".equals(host)) {
      // Hazelcast listens on every interface unless told otherwise, whatever interface it announces: bind the
      // member socket (and its outgoing connections) to cluster.host only.
      net.getInterfaces().setEnabled(true).setInterfaces(List.of(address(host)));
      net.setPublicAddress(host + ":" + port);
      hz.setProperty("hazelcast.socket.bind.any", "false");
      hz.setProperty("hazelcast.socket.client.bind.any", "false");
    }
    JoinConfig join = net.getJoin();
    join.getMulticastConfig().setEnabled(false);
    join.getAutoDetectionConfig().setEnabled(false);
    // Hazelcast allows one join method: a cluster.config-file that finds members through Kubernetes (the headless
    // service of deploy/kubernetes) keeps that join, and cluster.members is not used.
    if (!join.getKubernetesConfig().isEnabled()) {
      join.getTcpIpConfig().setEnabled(true).setMembers(members(cluster.getJsonArray("members", new JsonArray())));
    }
    return new HazelcastClusterManager(hz);
  }

  /**
   * Reports the members leaving and joining (and this node merging back after a split brain, which Hazelcast tells
   * as a lifecycle event) to {@code membership}.
   */
  static void watch(HazelcastClusterManager manager, Membership membership) {
    HazelcastInstance hz = manager.getHazelcastInstance();
    hz.getCluster().addMembershipListener(new MembershipListener() {
      @Override
      public void memberAdded(MembershipEvent event) {
        membership.changed(new Membership.Change(false, event.getMembers().size()));
      }

      @Override
      public void memberRemoved(MembershipEvent event) {
        membership.changed(new Membership.Change(true, event.getMembers().size()));
      }
    });
    hz.getLifecycleService().addLifecycleListener(event -> {
      if (event.getState() == LifecycleEvent.LifecycleState.MERGED) {
        membership.changed(new Membership.Change(false, manager.getNodes().size()));
      }
    });
  }

  /**
   * The readiness check of cluster membership: ready while this node is an active member of a cluster of at least
   * {@code minMembers} (a node partitioned away alone, or started where it found no peer, is taken out of the load
   * balancer); answers the member count either way.
   */
  static Future<JsonObject> readiness(HazelcastClusterManager manager, int minMembers) {
    if (!manager.isActive()) {
      return Future.failedFuture("not a member of the cluster");
    }
    int members = manager.getNodes().size();
    if (members < minMembers) {
      return Future.failedFuture(members + " cluster member(s) seen, cluster.min-members is " + minMembers
          + ": this node is cut off from the rest of the cluster");
    }
    return Future.succeededFuture(new JsonObject().put("members", members).put("min_members", minMembers));
  }

  /** Hazelcast matches interfaces by IP address only: a host name (a container's, say) is resolved first. */
  private static String address(String host) {
    try {
      return InetAddress.getByName(host).getHostAddress();
    } catch (UnknownHostException e) {
      throw new ConfigException("cluster.host " + host + " cannot be resolved to an IP address");
    }
  }

  /**
   * A member silent for {@code timeoutSeconds} is evicted (Hazelcast's default is 60 s with a heartbeat every 5 s).
   * Until then the event bus keeps routing service calls to it, and calls through the healthy nodes that land there
   * wait out their deadline: a stalled node (a long GC pause, SIGSTOP, a cut network) would fail a share of every
   * node's calls for the whole of its stall. Heartbeats every second make a short timeout safe from a missed beat.
   */
  static void failureDetection(Config hz, int timeoutSeconds) {
    if (timeoutSeconds < 3 || timeoutSeconds > 600) {
      throw new ConfigException("cluster.member-timeout-seconds must be between 3 and 600, not " + timeoutSeconds);
    }
    hz.setProperty("hazelcast.heartbeat.interval.seconds", "1");
    hz.setProperty("hazelcast.max.no.heartbeat.seconds", Integer.toString(timeoutSeconds));
  }

  private static Config base(String file) {
    if (file == null || file.isBlank()) {
      return new ClasspathXmlConfig("cluster.xml");
    }
    try {
      return new FileSystemXmlConfig(file);
    } catch (FileNotFoundException e) {
      throw new ConfigException("cluster.config-file " + file + " does not exist");
    }
  }

  private static List<String> members(JsonArray configured) {
    List<String> out = new ArrayList<>();
    for (Object m : configured) {
      String member = String.valueOf(m).trim();
      if (member.isEmpty()) {
        continue;
      }
      if (member.contains("-") && member.matches(".*:\\d+-\\d+")) {
        throw new ConfigException("cluster.members: port ranges are not supported (" + member + ")");
      }
      out.add(member);
    }
    if (out.isEmpty()) {
      throw new ConfigException("cluster.members is empty: list at least this node (KITH_CLUSTER_MEMBERS)");
    }
    return out;
  }
}
