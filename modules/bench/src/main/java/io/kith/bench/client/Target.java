package io.kith.bench.client;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Locale;

/**
 * Where the bench sends its load.
 *
 * @param host          HTTP host
 * @param port          HTTP port (also serves the SockJS bridge)
 * @param ssl           whether to use TLS
 * @param tcpBridgePort TCP event-bus bridge port on the same host, 0 when unknown or off
 */
public record Target(String host, int port, boolean ssl, int tcpBridgePort) {

  /** The base URL, e.g. {@code http://127.0.0.1:8080}. */
  public String baseUrl() {
    return (ssl ? "https" : "http") + "://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }

  /** This target with another TCP bridge port. */
  public Target withTcpBridgePort(int port) {
    return new Target(host, this.port, ssl, port);
  }

  /**
   * Parses {@code http://host[:port]} or {@code https://host[:port]} (a trailing slash is allowed, a path is not).
   *
   * @throws IllegalArgumentException with a message a user can act on
   */
  public static Target parse(String url) {
    URI uri;
    try {
      uri = new URI(url.strip());
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("target '" + url + "' is not a URL; expected http://host:port");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw new IllegalArgumentException("target '" + url + "' must start with http:// or https://");
    }
    String host = uri.getHost();
    if (host == null || host.isBlank()) {
      throw new IllegalArgumentException("target '" + url + "' has no host; expected http://host:port");
    }
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    }
    String path = uri.getRawPath();
    if ((path != null && !path.isEmpty() && !path.equals("/")) || uri.getRawQuery() != null) {
      throw new IllegalArgumentException("target '" + url + "' must not have a path; give only http://host:port");
    }
    boolean ssl = scheme.equals("https");
    int port = uri.getPort() < 0 ? (ssl ? 443 : 80) : uri.getPort();
    return new Target(host, port, ssl, 0);
  }
}
