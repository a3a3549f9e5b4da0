package io.kith.app;

import io.kith.platform.config.Bounds;
import io.kith.platform.config.ConfigException;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.http.ClientAuth;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemKeyCertOptions;
import io.vertx.core.net.PemTrustOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;

/**
 * The clustered event bus between nodes, read from {@code cluster.bus-*} and {@code cluster.tls.*}: where it listens,
 * the address the other members are told to use, and mutual TLS against the cluster CA.
 *
 * <p>Without TLS any host that reaches the bus port can deliver a message to any service as any user (the services
 * trust the sender id a gateway stamped), so a half TLS configuration is refused at start rather than run in clear.
 *
 * @param host       interface the bus listens on
 * @param port       bus port (0: any free port, announced to the members through Hazelcast)
 * @param publicHost host the other members connect to (empty: {@code host})
 * @param publicPort port the other members connect to (0: the bound port)
 * @param tls        key, certificate chain and CA files, or null when TLS is off
 */
record ClusterBus(String host, int port, String publicHost, int publicPort, Tls tls) {

  private static final Logger LOG = LoggerFactory.getLogger(ClusterBus.class);

  /**
   * PEM files of this node's TLS identity and of the cluster CA that every peer's certificate must chain to.
   *
   * @param key  this node's private key (PKCS#8 or PKCS#1)
   * @param cert this node's certificate chain
   * @param ca   the cluster CA certificate(s)
   */
  record Tls(Path key, Path cert, Path ca) {
  }

  /** Reads and checks the {@code cluster} section; a missing TLS file or a wildcard bus host alone is refused. */
  static ClusterBus of(JsonObject cluster) {
    Bounds bounds = Bounds.of("cluster", cluster);
    String host = cluster.getString("bus-host", "");
    if (host.isBlank()) {
      host = cluster.getString("host", "127.0.0.1");
    }
    String publicHost = cluster.getString("bus-public-host", "");
    if (("0.0.0.0".equals(host) || "::".equals(host)) && publicHost.isBlank()) {
      throw new ConfigException("cluster.bus-host " + host + " listens on every interface: set cluster.bus-public-host "
          + "(KITH_CLUSTER_BUS_PUBLIC_HOST) to the address the other members reach this node on");
    }
    return new ClusterBus(host, bounds.within("bus-port", 0, 65535), publicHost,
        bounds.within("bus-public-port", 0, 65535), tls(cluster.getJsonObject("tls", new JsonObject())));
  }

  private static Tls tls(JsonObject tls) {
    Bounds bounds = Bounds.of("cluster.tls", tls);
    if (!bounds.flag("enabled")) {
      if (!tls.getString("key", "").isBlank() || !tls.getString("cert", "").isBlank()) {
        LOG.warn("cluster.tls.key/cert are set but cluster.tls.enabled is false: the event bus between nodes runs "
            + "in clear");
      }
      return null;
    }
    Tls files = new Tls(file(tls, "key", "PEM private key of this node"),
        file(tls, "cert", "PEM certificate chain of this node"),
        file(tls, "ca", "PEM certificate of the cluster CA"));
    // Vert.x reads these only once Hazelcast has joined, and then fails as "cannot join": check them here so the
    // operator reads which file is wrong.
    if (!read(files.key(), "key").contains("PRIVATE KEY-----")) {
      throw new ConfigException("cluster.tls.key " + files.key().toAbsolutePath() + " holds no PEM private key");
    }
    certificates(files.cert(), "cert");
    certificates(files.ca(), "ca");
    return files;
  }

  private static String read(Path file, String key) {
    try {
      return Files.readString(file, StandardCharsets.US_ASCII);
    } catch (IOException e) {
      throw new ConfigException("cluster.tls." + key + " " + file.toAbsolutePath() + " cannot be read: " + e);
    }
  }

  /** Parses the PEM certificates in {@code file}; none, or one out of its validity period, is refused. */
  private static void certificates(Path file, String key) {
    String setting = "cluster.tls." + key + " " + file.toAbsolutePath();
    Collection<? extends Certificate> certs;
    try (InputStream in = Files.newInputStream(file)) {
      certs = CertificateFactory.getInstance("X.509").generateCertificates(in);
    } catch (IOException | CertificateException e) {
      throw new ConfigException(setting + " holds no readable PEM certificate: " + e.getMessage());
    }
    if (certs.isEmpty()) {
      throw new ConfigException(setting + " holds no PEM certificate");
    }
    for (Certificate cert : certs) {
      try {
        ((X509Certificate) cert).checkValidity();
      } catch (CertificateException e) {
        throw new ConfigException(setting + ": certificate " + ((X509Certificate) cert).getSubjectX500Principal()
            + " is not valid now (" + e.getMessage() + ")");
      }
    }
  }

  private static Path file(JsonObject tls, String key, String what) {
    String value = tls.getString(key, "");
    String setting = "cluster.tls." + key + " (KITH_CLUSTER_TLS_" + key.toUpperCase(java.util.Locale.ROOT) + ")";
    if (value.isBlank()) {
      throw new ConfigException("cluster.tls.enabled is true but " + setting + " is empty: set it to the " + what);
    }
    Path path = Path.of(value);
    if (!Files.isRegularFile(path) || !Files.isReadable(path)) {
      throw new ConfigException(setting + " " + path.toAbsolutePath() + " is not a readable file: it must be the "
          + what);
    }
    return path;
  }

  /** Applies these settings to Vert.x's event-bus options (the client side to other nodes shares them). */
  EventBusOptions apply(EventBusOptions bus) {
    bus.setHost(host).setPort(port);
    if (!publicHost.isBlank()) {
      bus.setClusterPublicHost(publicHost);
    }
    if (publicPort > 0) {
      bus.setClusterPublicPort(publicPort);
    }
    if (tls == null) {
      LOG.warn("The event bus between nodes is not encrypted or authenticated: any host that reaches {}:{} can call "
          + "any service as any user. Set cluster.tls.* (see README, Cluster mode)", host, port);
      return bus;
    }
    // The peer's host name is not checked (Vert.x turns it off for the bus): a node is trusted for holding a key
    // the cluster CA signed, which is why that CA must sign nothing else. Vert.x's bus client trusts every server
    // certificate by default (trustAll), so a node would hand its messages to any listener: turn that off.
    return bus.setSsl(true)
        .setTrustAll(false)
        .setKeyCertOptions(new PemKeyCertOptions().setKeyPath(tls.key().toString())
            .setCertPath(tls.cert().toString()))
        .setTrustOptions(new PemTrustOptions().addCertPath(tls.ca().toString()))
        .setClientAuth(ClientAuth.REQUIRED);
  }
}
