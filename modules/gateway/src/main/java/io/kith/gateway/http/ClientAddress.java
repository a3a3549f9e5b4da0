package io.kith.gateway.http;

import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;

import java.util.Set;

/**
 * The client's network address for limits and throttles. {@code X-Forwarded-For} is believed only when the direct
 * peer is one of {@code http.trusted-proxies}; then the address is the right-most entry that is not itself a trusted
 * proxy (entries further left are whatever the client chose to send).
 */
public final class ClientAddress {

  private final Set<String> trustedProxies;

  /** Creates the resolver over the configured trusted proxies. */
  public ClientAddress(Set<String> trustedProxies) {
    this.trustedProxies = Set.copyOf(trustedProxies);
  }

  /** The client address of a request. */
  public String of(RoutingContext rc) {
    SocketAddress remote = rc.request().remoteAddress();
    String peer = remote == null || remote.host() == null ? "unknown" : remote.host();
    if (!trustedProxies.contains(peer)) {
      return peer;
    }
    String forwarded = rc.request().getHeader("X-Forwarded-For");
    if (forwarded == null || forwarded.isBlank()) {
      return peer;
    }
    String[] hops = forwarded.split(",");
    for (int i = hops.length - 1; i >= 0; i--) {
      String hop = hops[i].trim();
      if (!hop.isEmpty() && !trustedProxies.contains(hop)) {
        return hop.length() > 64 ? hop.substring(0, 64) : hop;
      }
    }
    return peer;
  }
}
