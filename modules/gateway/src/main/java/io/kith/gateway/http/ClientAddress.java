package io.kith.gateway.http;

import io.netty.util.NetUtil;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

import java.util.Set;
import java.util.stream.Collectors;

/**
 * The client's network address for limits and throttles. {@code X-Forwarded-For} is believed only when the direct
 * peer is one of {@code http.trusted-proxies}; then the address is the right-most entry that is not itself a trusted
 * proxy (entries further left are whatever the client chose to send).
 *
 * <p>Addresses are compared in one canonical form, so that {@code ::1} in the configuration matches a peer the socket
 * reports as {@code 0:0:0:0:0:0:0:1}, and an entry with a port ({@code 203.0.113.7:51234}, {@code [2001:db8::1]:443},
 * as some load balancers write them) counts as its address, not as a new one per source port.
 */
public final class ClientAddress {

  private static final String HEADER = "X-Forwarded-For";
  private static final int MAX_LENGTH = 64;

  private final Set<String> trustedProxies;

  /** Creates the resolver over the configured trusted proxies. */
  public ClientAddress(Set<String> trustedProxies) {
    this.trustedProxies = trustedProxies.stream().map(ClientAddress::canonical).collect(Collectors.toUnmodifiableSet());
  }

  /** The client address of a request. */
  public String of(RoutingContext rc) {
    SocketAddress remote = rc.request().remoteAddress();
    String peer = remote == null || remote.host() == null ? "unknown" : canonical(remote.host());
    if (!trustedProxies.contains(peer)) {
      return peer;
    }
    // several header lines are one list, in order (RFC 9110, 5.3): a proxy that adds a line of its own instead of
    // extending the client's puts the address it saw last, so reading only the first line would believe the client
    String forwarded = String.join(",", rc.request().headers().getAll(HEADER));
    if (forwarded.isBlank()) {
      return peer;
    }
    String[] hops = forwarded.split(",");
    for (int i = hops.length - 1; i >= 0; i--) {
      String hop = canonical(hops[i]);
      if (!hop.isEmpty() && !trustedProxies.contains(hop)) {
        return hop.length() > MAX_LENGTH ? hop.substring(0, MAX_LENGTH) : hop;
      }
    }
    return peer;
  }

  /**
   * An IP address in one form (IPv4 dotted, IPv6 as RFC 5952, IPv4-mapped IPv6 as IPv4), without brackets or port;
   * anything that is not an IP address (a host name, "unknown") trimmed and otherwise as given.
   */
  static String canonical(String raw) {
    String s = raw.trim();
    if (s.startsWith("[")) {
      int end = s.indexOf(']');
      if (end > 0) {
        s = s.substring(1, end);
      }
    } else if (s.indexOf(':') > 0 && s.indexOf(':') == s.lastIndexOf(':')) {
      // a single colon is never IPv6: an IPv4 address (or a name) with a port
      s = s.substring(0, s.indexOf(':'));
    }
    byte[] bytes = NetUtil.createByteArrayFromIpAddressString(s);
    if (bytes == null) {
      return s;
    }
    if (bytes.length == 16 && isIpv4Mapped(bytes)) {
      bytes = java.util.Arrays.copyOfRange(bytes, 12, 16);
    }
    return NetUtil.bytesToIpAddress(bytes);
  }

  private static boolean isIpv4Mapped(byte[] v6) {
    for (int i = 0; i < 10; i++) {
      if (v6[i] != 0) {
        return false;
      }
    }
    return v6[10] == (byte) 0xff && v6[11] == (byte) 0xff;
  }
}
