package io.kith.push.service.webhooks;

import io.kith.platform.error.Failures;
import io.kith.push.api.WebhooksErrors;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

/**
 * The SSRF guard of webhook URLs: a URL must be {@code https} and every address its host resolves to must be public,
 * unless the host is allow-listed ({@code push.webhooks.allow-hosts}). It runs at registration and again before each
 * attempt, which then connects to the address checked here rather than resolving the name a second time (a DNS
 * answer that changes between the check and the connection, "DNS rebinding", cannot lead it inside).
 *
 * <p>Refused: the unspecified address ({@code 0.0.0.0/8}, {@code ::}), loopback, RFC 1918 private ranges, carrier
 * NAT ({@code 100.64.0.0/10}), link-local, multicast and broadcast, the IETF, documentation, benchmark and reserved
 * IPv4 ranges, IPv6 unique-local ({@code fc00::/7}) and site-local, and IPv6 forms that carry an IPv4 address
 * (IPv4-mapped and -compatible, NAT64 {@code 64:ff9b::/96}, 6to4 {@code 2002::/16}, Teredo {@code 2001::/32}),
 * whose IPv4 part could be any of the above.
 */
final class AddressGuard {

  /** A URL that passed: where to connect, and the URL's parts for the request. */
  record Target(URI uri, String host, int port, boolean tls, InetAddress address) {
  }

  // IPv4 ranges that are not public, beyond what InetAddress's own predicates tell: {network, prefix length}
  private static final int[][] V4_REFUSED = {
      {0x00000000, 8}, {0x0A000000, 8}, {0x64400000, 10}, {0x7F000000, 8}, {0xA9FE0000, 16}, {0xAC100000, 12},
      {0xC0000000, 24}, {0xC0000200, 24}, {0xC0A80000, 16}, {0xC6120000, 15}, {0xC6336400, 24}, {0xCB007100, 24},
      {0xE0000000, 4}, {0xF0000000, 4}};

  private final Vertx vertx;
  private final List<String> allowHosts;

  AddressGuard(Vertx vertx, List<String> allowHosts) {
    this.vertx = vertx;
    this.allowHosts = allowHosts;
  }

  /** Checks {@code url}: the target to connect to, or {@code webhook_url_refused} naming {@code url}. */
  Future<Target> check(String url) {
    URI uri;
    try {
      uri = new URI(url == null ? "" : url.trim());
    } catch (URISyntaxException e) {
      return refuse("url is not a valid URL");
    }
    String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
    String host = uri.getHost() == null ? null : uri.getHost().toLowerCase(Locale.ROOT);
    if (host == null || !(scheme.equals("https") || scheme.equals("http")) || uri.getUserInfo() != null) {
      return refuse("url must be an absolute https URL without credentials");
    }
    boolean allowed = allowHosts.contains(stripBrackets(host));
    if (!allowed && !scheme.equals("https")) {
      return refuse("url must use https");
    }
    boolean tls = scheme.equals("https");
    int port = uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80;
    String name = stripBrackets(host);
    return vertx.executeBlocking(() -> InetAddress.getAllByName(name), false)
        .recover(e -> refuse("url's host does not resolve: " + name))
        .compose(addresses -> {
          if (!allowed) {
            for (InetAddress a : addresses) {
              if (!isPublic(a)) {
                return refuse("url must resolve to public addresses only (" + name + " is "
                    + a.getHostAddress() + "); an operator may allow-list the host in push.webhooks.allow-hosts");
              }
            }
          }
          return Future.succeededFuture(new Target(uri, name, port, tls, addresses[0]));
        });
  }

  private static String stripBrackets(String host) {
    return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
  }

  private static <T> Future<T> refuse(String detail) {
    return Failures.failField(WebhooksErrors.URL_REFUSED, "url", detail);
  }

  /** Whether an address is a public unicast one (see the class comment for what is not). */
  static boolean isPublic(InetAddress a) {
    if (a.isAnyLocalAddress() || a.isLoopbackAddress() || a.isLinkLocalAddress() || a.isSiteLocalAddress()
        || a.isMulticastAddress()) {
      return false;
    }
    if (a instanceof Inet4Address) {
      return isPublicV4(toInt(a.getAddress(), 0));
    }
    byte[] b = a.getAddress();
    if (a instanceof Inet6Address && b.length == 16) {
      int first = ((b[0] & 0xFF) << 8) | (b[1] & 0xFF);
      boolean zeroPrefix = true;
      for (int i = 0; i < 10; i++) {
        zeroPrefix &= b[i] == 0;
      }
      if (zeroPrefix) { // ::/80 covers ::, ::1, IPv4-compatible and IPv4-mapped (::ffff:a.b.c.d)
        return false;
      }
      return (first & 0xFE00) != 0xFC00 // unique local fc00::/7
          && first != 0x2002 // 6to4
          && !(first == 0x2001 && b[2] == 0 && b[3] == 0) // Teredo 2001::/32
          && !(first == 0x0064 && (b[2] & 0xFF) == 0xFF && (b[3] & 0xFF) == 0x9B) // NAT64 64:ff9b::/96
          && (first & 0xE000) == 0x2000; // only global unicast 2000::/3
    }
    return false;
  }

  private static boolean isPublicV4(int ip) {
    if (ip == 0xFFFFFFFF) {
      return false;
    }
    for (int[] range : V4_REFUSED) {
      int mask = range[1] == 0 ? 0 : -1 << (32 - range[1]);
      if ((ip & mask) == range[0]) {
        return false;
      }
    }
    return true;
  }

  private static int toInt(byte[] b, int from) {
    return ((b[from] & 0xFF) << 24) | ((b[from + 1] & 0xFF) << 16) | ((b[from + 2] & 0xFF) << 8) | (b[from + 3] & 0xFF);
  }
}
