package io.kith.app;

import io.kith.app.support.ClusterCertificates;
import io.kith.app.support.ClusterCertificates.NodeFiles;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetClientOptions;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import io.vertx.core.spi.cluster.NodeInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two Kith nodes clustered on loopback with mutual TLS on the event bus, certificates made by the test: a cluster
 * CA with a key per node, and a rogue CA whose certificates must buy nothing on the cluster's bus.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClusterTlsTest {

  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String HOST = "127.0.0.1";

  @TempDir
  static Path certs;

  private ClusterCertificates ca;
  private ClusterCertificates rogueCa;
  private String clusterName;
  private final List<Integer> hazelcastPorts = new ArrayList<>();
  private int busPortB;
  private Kith nodeA;
  private Kith nodeB;
  private Vertx client;

  private JsonObject node(String label, int hzPort, List<String> modules, int busPort, NodeFiles files, Path caFile) {
    JsonArray members = new JsonArray();
    hazelcastPorts.forEach(p -> members.add(HOST + ":" + p));
    return new JsonObject()
        .put("kith", new JsonObject().put("modules", new JsonArray(modules)).put("node-label", label))
        .put("cluster", new JsonObject().put("enabled", true).put("name", clusterName).put("host", HOST)
            .put("port", hzPort).put("members", members).put("join-wait-seconds", 0)
            .put("bus-port", busPort).put("bus-public-host", HOST).put("bus-public-port", busPort)
            .put("tls", new JsonObject().put("enabled", true).put("key", files.key().toString())
                .put("cert", files.cert().toString()).put("ca", caFile.toString())));
  }

  @BeforeAll
  void startCluster() throws Exception {
    ca = ClusterCertificates.create(certs, "cluster");
    rogueCa = ClusterCertificates.create(certs, "rogue");
    clusterName = "kith-tls-" + UUID.randomUUID();
    hazelcastPorts.add(FreePorts.pick());
    hazelcastPorts.add(FreePorts.pick());
    hazelcastPorts.add(FreePorts.pick());
    busPortB = FreePorts.pick();
    Future<Kith> a = Kith.start(KithTestKit.config(node("A", hazelcastPorts.get(0), List.of("gateway"), 0, ca.issue("a"),
        ca.caFile())));
    Future<Kith> b = Kith.start(KithTestKit.config(node("B", hazelcastPorts.get(1), List.of("echo"), busPortB,
        ca.issue("b"), ca.caFile())));
    nodeA = a.toCompletionStage().toCompletableFuture().get(90, TimeUnit.SECONDS);
    nodeB = b.toCompletionStage().toCompletableFuture().get(90, TimeUnit.SECONDS);
    client = Vertx.vertx();
  }

  @AfterAll
  void stopCluster() throws Exception {
    if (client != null) {
      Await.result(client.close());
    }
    for (Kith k : new Kith[] {nodeA, nodeB}) {
      if (k != null) {
        k.stop().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  @DisplayName("two nodes with TLS on form a cluster and a service call from one node is served on the other")
  void serviceCallCrossesTlsBus() throws Exception {
    AtomicReference<JsonObject> answer = new AtomicReference<>();
    Await.result(Poll.until(client, WAIT, "the echo service on B to answer A", () -> nodeA.vertx().eventBus()
        .request(EchoTestModule.ADDRESS, new JsonObject().put("hello", "tls"))
        .map(m -> {
          answer.set((JsonObject) m.body());
          return true;
        })
        .otherwise(false)));
    assertEquals("B", answer.get().getString("node"), "served by the other node");
    assertEquals("tls", answer.get().getJsonObject("body").getString("hello"));
    assertEquals(2, nodeA.clusterManager().getNodes().size());
  }

  @Test
  @DisplayName("the bus listens on cluster.bus-port and the other members are told cluster.bus-public-host and port")
  void busPortAndPublicAddressAreHonoured() {
    Promise<NodeInfo> seen = Promise.promise();
    nodeA.clusterManager().getNodeInfo(nodeB.clusterManager().getNodeId(), seen);
    NodeInfo info = Await.result(seen.future());
    assertEquals(HOST, info.host());
    assertEquals(busPortB, info.port());
    // a peer holding a key the cluster CA signed completes the handshake on that port
    Await.result(tlsClient(ca.issue("peer"), ca.caFile()).connect(busPortB, HOST).compose(s -> s.close()));
  }

  @Test
  @DisplayName("a client whose certificate another CA signed, or with no certificate, fails the TLS handshake on the bus port")
  void foreignCertificateFailsHandshake() {
    NodeFiles rogue = rogueCa.issue("rogue-client");
    Await.failure(tlsClient(rogue, ca.caFile()).connect(busPortB, HOST));
    Await.failure(tlsClient(null, ca.caFile()).connect(busPortB, HOST));
  }

  @Test
  @DisplayName("a plain TCP client on the bus port is disconnected without an answer from the event bus")
  void plainTcpGetsNoService() throws Exception {
    Buffer received = Buffer.buffer();
    Promise<Void> closed = Promise.promise();
    Await.result(client.createNetClient().connect(busPortB, HOST).compose(socket -> {
      socket.handler(received::appendBuffer);
      socket.closeHandler(v -> closed.tryComplete());
      // what a forger would send: a length-prefixed event-bus frame in clear
      Buffer frame = new JsonObject().put("address", EchoTestModule.ADDRESS).toBuffer();
      return socket.write(Buffer.buffer().appendInt(frame.length()).appendBuffer(frame));
    }));
    Await.result(closed.future());
    // at most a TLS alert record (content type 21) comes back, never an event-bus reply
    assertTrue(received.length() == 0 || received.getByte(0) == 21, "received " + received);
  }

  @Test
  @DisplayName("a node whose certificate another CA signed can neither deliver to the cluster's services nor receive from them")
  void rogueNodeCannotDeliverOrReceive() throws Exception {
    String toB = "kith.test.tls.b." + UUID.randomUUID();
    String toRogue = "kith.test.tls.rogue." + UUID.randomUUID();
    AtomicInteger deliveredToB = new AtomicInteger();
    AtomicInteger deliveredToRogue = new AtomicInteger();
    MessageConsumer<Object> onB = nodeB.vertx().eventBus().consumer(toB, m -> {
      deliveredToB.incrementAndGet();
      m.reply("served");
    });
    Await.result(onB.completion());
    // the strongest forger: its own key signed by another CA, trusting the cluster's CA
    Kith rogue = Await.result(Kith.start(KithTestKit.config(node("R", hazelcastPorts.get(2), List.of("gateway"), 0,
        rogueCa.issue("r"), ca.caFile()))));
    try {
      MessageConsumer<Object> onRogue = rogue.vertx().eventBus().consumer(toRogue, m -> {
        deliveredToRogue.incrementAndGet();
        m.reply("served");
      });
      Await.result(onRogue.completion());
      Await.result(Poll.until(client, WAIT, "A to reach the consumer on B",
          () -> nodeA.vertx().eventBus().request(toB, "from A").map(true).otherwise(false)));
      // each side knows the other's consumer (Hazelcast is shared), yet nothing crosses the bus
      Await.result(Poll.until(client, WAIT, "the rogue's send to fail for another reason than no handler",
          () -> failsAfterRouting(rogue.vertx(), toB)));
      Await.result(Poll.until(client, WAIT, "A's send to the rogue to fail for another reason than no handler",
          () -> failsAfterRouting(nodeA.vertx(), toRogue)));
      assertEquals(3, rogue.clusterManager().getNodes().size(), "the rogue is a Hazelcast member");
      assertEquals(1, deliveredToB.get(), "only A's message reached B");
      assertEquals(0, deliveredToRogue.get(), "nothing reached the rogue");
    } finally {
      rogue.stop().toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
      Await.result(onB.unregister());
    }
  }

  @Test
  @DisplayName("Hazelcast and the event bus accept connections on cluster.host only, not on other addresses of the machine")
  void listenersBindToClusterHostOnly() throws IOException {
    var member = nodeA.clusterManager().getHazelcastInstance().getCluster().getLocalMember().getAddress();
    assertEquals(HOST, member.getHost());
    assertEquals((int) hazelcastPorts.get(0), member.getPort());
    int hzPort = hazelcastPorts.get(0);
    assertTrue(accepts(HOST, hzPort), "Hazelcast on cluster.host");
    assertTrue(accepts(HOST, busPortB), "the bus on cluster.host");
    for (String other : otherLocalAddresses()) {
      assertTrue(!accepts(other, hzPort), "Hazelcast must not listen on " + other);
      assertTrue(!accepts(other, busPortB), "the bus must not listen on " + other);
    }
  }

  @Test
  @DisplayName("TLS on with a key file that does not exist is refused at start with a line naming cluster.tls.key")
  void missingKeyFileIsRefused() {
    JsonObject config = node("X", FreePorts.pick(), List.of(), 0, new NodeFiles(certs.resolve("absent.key"),
        ca.issue("x").cert()), ca.caFile());
    String message = startFailure(config);
    assertTrue(message.contains("cluster.tls.key") && message.contains("absent.key"), message);
  }

  @Test
  @DisplayName("TLS on with a key file that holds no key, or a CA file that holds no certificate, is refused at start")
  void filesWithoutKeyOrCertificateAreRefused() throws IOException {
    NodeFiles node = ca.issue("v");
    Path garbage = java.nio.file.Files.writeString(certs.resolve("garbage.pem"), "not PEM at all\n");
    String noKey = startFailure(node("X", FreePorts.pick(), List.of(), 0, new NodeFiles(garbage, node.cert()),
        ca.caFile()));
    assertTrue(noKey.contains("cluster.tls.key") && noKey.contains("no PEM private key"), noKey);
    String noCa = startFailure(node("X", FreePorts.pick(), List.of(), 0, node, garbage));
    assertTrue(noCa.contains("cluster.tls.ca") && noCa.contains("no") && noCa.contains("certificate"), noCa);
  }

  @Test
  @DisplayName("TLS on with no CA file set is refused at start with a line naming cluster.tls.ca")
  void missingCaIsRefused() {
    JsonObject config = node("X", FreePorts.pick(), List.of(), 0, ca.issue("y"), certs);
    config.getJsonObject("cluster").getJsonObject("tls").put("ca", "");
    String message = startFailure(config);
    assertTrue(message.contains("cluster.tls.ca") && message.contains("empty"), message);
  }

  @Test
  @DisplayName("a bus on every interface with no public host is refused at start with a line naming cluster.bus-public-host")
  void wildcardBusHostNeedsPublicHost() {
    JsonObject config = node("X", FreePorts.pick(), List.of(), 0, ca.issue("z"), ca.caFile());
    config.getJsonObject("cluster").put("bus-host", "0.0.0.0").put("bus-public-host", "");
    String message = startFailure(config);
    assertTrue(message.contains("cluster.bus-public-host"), message);
  }

  @Test
  @DisplayName("a bus port out of range is refused at start with a line naming cluster.bus-port")
  void busPortOutOfRangeIsRefused() {
    JsonObject config = node("X", FreePorts.pick(), List.of(), 70000, ca.issue("w"), ca.caFile());
    String message = startFailure(config);
    assertTrue(message.contains("cluster.bus-port"), message);
  }

  private static String startFailure(JsonObject config) {
    CompletableFuture<Kith> start = Kith.start(KithTestKit.config(config)).toCompletionStage().toCompletableFuture();
    Exception e = assertThrows(Exception.class, () -> start.get(60, TimeUnit.SECONDS));
    return String.valueOf(e.getCause() != null ? e.getCause().getMessage() : e.getMessage());
  }

  /** A TLS 1.2 client (its certificate is checked inside the handshake, so a refusal fails the connect). */
  private io.vertx.core.net.NetClient tlsClient(NodeFiles files, Path caFile) {
    NetClientOptions options = new NetClientOptions().setSsl(true).setHostnameVerificationAlgorithm("")
        .setTrustOptions(new PemTrustOptions().addCertPath(caFile.toString()))
        .setEnabledSecureTransportProtocols(Set.of("TLSv1.2"));
    if (files != null) {
      options.setKeyCertOptions(new PemKeyCertOptions().setKeyPath(files.key().toString())
          .setCertPath(files.cert().toString()));
    }
    return client.createNetClient(options);
  }

  /** True once a request fails for another reason than "nobody registered": the sender routed it to a node. */
  private static Future<Boolean> failsAfterRouting(Vertx from, String address) {
    return from.eventBus().request(address, "forged", new DeliveryOptions().setSendTimeout(3_000))
        .map(false)
        .otherwise(e -> !(e instanceof ReplyException)
            || ((ReplyException) e).failureType() != ReplyFailure.NO_HANDLERS);
  }

  private static boolean accepts(String host, int port) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(new InetSocketAddress(host, port), 10_000);
      return true;
    } catch (ConnectException refused) {
      return false;
    }
  }

  /** 127.0.0.2 (loopback, but not the bound address) and every other IPv4 address of this machine. */
  private static List<String> otherLocalAddresses() throws IOException {
    List<String> out = new ArrayList<>(List.of("127.0.0.2"));
    for (NetworkInterface nic : Collections.list(NetworkInterface.getNetworkInterfaces())) {
      for (InetAddress address : Collections.list(nic.getInetAddresses())) {
        if (address instanceof java.net.Inet4Address && !address.isLoopbackAddress() && nic.isUp()) {
          out.add(address.getHostAddress());
        }
      }
    }
    assertNotEquals(0, out.size());
    return out;
  }
}
