package io.kith.bench.scenario.push;

import com.eatthepath.pushy.apns.server.MockApnsServer;
import com.eatthepath.pushy.apns.server.MockApnsServerBuilder;
import com.eatthepath.pushy.apns.server.MockApnsServerListener;
import com.eatthepath.pushy.apns.server.RejectionReason;
import io.netty.buffer.ByteBuf;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.handler.codec.http2.Http2Headers;
import io.vertx.core.json.JsonObject;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.io.Writer;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * A local APNs that answers every push at once: Pushy's {@code MockApnsServer} (HTTP/2 over TLS, as Apple's) on a
 * loopback port, with a self-signed certificate for {@code localhost} and a P-256 token-signing key made at start,
 * reporting each accepted push to a {@link PushTally} set later. Its threads are its own, so the scenario can take
 * their CPU out of the bench JVM's ({@link #cpuNanos()}): what is left is Kith's.
 */
final class ApnsStandIn implements AutoCloseable {

  /** The APNs topic (bundle id) Kith is configured with. */
  static final String TOPIC = "io.kith.bench";

  private final Path dir;
  private final Path certFile;
  private final Path signingKey;
  private final List<Thread> threads = new CopyOnWriteArrayList<>();
  private final EventLoopGroup group;
  private final MockApnsServer server;
  private final int port;
  private volatile PushTally tally;

  ApnsStandIn() throws Exception {
    dir = Files.createTempDirectory("kith-bench-apns-");
    certFile = dir.resolve("localhost.pem");
    Path keyFile = dir.resolve("localhost-key.pem");
    KeyPair serverKeys = p256();
    writeSelfSigned(serverKeys, certFile);
    Files.writeString(keyFile, pkcs8(serverKeys));
    signingKey = dir.resolve("AuthKey_BENCH00001.p8");
    Files.writeString(signingKey, pkcs8(p256()));
    // One event loop, as a provider's front end would give one client connection; its threads are counted apart.
    @SuppressWarnings("deprecation")
    EventLoopGroup loops = new NioEventLoopGroup(1, runnable -> {
      Thread thread = new Thread(runnable, "apns-stand-in");
      thread.setDaemon(true);
      threads.add(thread);
      return thread;
    });
    group = loops;
    server = new MockApnsServerBuilder()
        .setServerCredentials(certFile.toFile(), keyFile.toFile(), null)
        .setEventLoopGroup(group)
        .setHandlerFactory(session -> (headers, payload) -> { })
        .setListener(new Listener())
        .build();
    port = server.start(0).get();
    // also removed when the bench is stopped by a signal before close (registered dir first: deleted last)
    for (Path path : List.of(dir, certFile, keyFile, signingKey)) {
      path.toFile().deleteOnExit();
    }
  }

  /** Starts counting accepted pushes into {@code tally} (earlier ones are not counted). */
  void countInto(PushTally tally) {
    this.tally = tally;
  }

  /** The {@code push} settings that send APNs pushes here with token authentication. */
  JsonObject pushSettings() {
    return new JsonObject().put("trust-path", certFile.toString())
        .put("apns", new JsonObject().put("key-path", signingKey.toString()).put("key-id", "BENCH00001")
            .put("team-id", "BENCHTEAM1").put("topic", TOPIC).put("host", "localhost").put("port", port));
  }

  /** CPU time the stand-in's threads used so far, in nanoseconds (-1 where the JVM cannot say). */
  long cpuNanos() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    if (!mx.isThreadCpuTimeSupported()) {
      return -1;
    }
    long sum = 0;
    for (Thread thread : threads) {
      long t = mx.getThreadCpuTime(thread.getId());
      sum += Math.max(0, t);
    }
    return sum;
  }

  @Override
  public void close() throws Exception {
    server.shutdown().get(10, TimeUnit.SECONDS);
    group.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    try (var files = Files.list(dir)) {
      for (Path file : files.toList()) {
        Files.deleteIfExists(file);
      }
    }
    Files.deleteIfExists(dir);
  }

  private final class Listener implements MockApnsServerListener {
    @Override
    public void handlePushNotificationAccepted(Http2Headers headers, ByteBuf payload) {
      long now = System.nanoTime();
      PushTally current = tally;
      if (current != null) {
        String path = headers.path().toString();
        current.arrived(path.substring(path.lastIndexOf('/') + 1), now);
      }
    }

    @Override
    public void handlePushNotificationRejected(Http2Headers headers, ByteBuf payload, RejectionReason reason,
                                               Instant deviceTokenExpiration) {
      // a rejected push is not delivered: the tally counts it as lost unless a retry is accepted
    }
  }

  private static KeyPair p256() throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }

  private static String pkcs8(KeyPair keys) {
    return "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(keys.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
  }

  /** A certificate for {@code localhost} signed by its own key: Kith trusts it through {@code push.trust-path}. */
  private static void writeSelfSigned(KeyPair keys, Path file) throws Exception {
    X500Name subject = new X500Name("CN=localhost");
    Instant now = Instant.now();
    var builder = new JcaX509v3CertificateBuilder(subject, BigInteger.valueOf(now.toEpochMilli()),
        Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(1))), subject,
        keys.getPublic());
    builder.addExtension(Extension.subjectAlternativeName, false,
        new GeneralNames(new GeneralName(GeneralName.dNSName, "localhost")));
    var holder = builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate()));
    try (Writer out = Files.newBufferedWriter(file); JcaPEMWriter pem = new JcaPEMWriter(out)) {
      pem.writeObject(holder);
    } catch (IOException e) {
      throw new IOException("cannot write " + file + ": " + e.getMessage(), e);
    }
  }
}
