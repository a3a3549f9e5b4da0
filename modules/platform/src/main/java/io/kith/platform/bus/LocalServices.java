package io.kith.platform.bus;

import io.vertx.core.Vertx;
import io.vertx.core.shareddata.LocalMap;

/**
 * The service addresses this node serves itself, one registry per Vert.x instance: {@link ServiceBindings} adds an
 * address once its node-local binding is registered and withdraws it before unbinding; {@link ServiceProxies} sends a
 * call to the node-local binding while its address is here, else to the cluster address. Every node runs every
 * service in the usual deployment, and the event bus would otherwise spread calls round-robin over all nodes, sending
 * most of them to another node that does the same work at the cost of two network hops.
 */
final class LocalServices {

  /** Appended to a service address for its node-local binding (outside every bridge's permitted addresses). */
  static final String LOCAL_SUFFIX = ":local";
  private static final String REGISTRY = "kith.platform.local-services";

  /** Address to live local bindings of it (a verticle deployed twice binds its address twice). */
  private final LocalMap<String, Integer> bound;

  private LocalServices(LocalMap<String, Integer> bound) {
    this.bound = bound;
  }

  /** The registry of {@code vertx}'s node. */
  static LocalServices of(Vertx vertx) {
    return new LocalServices(vertx.sharedData().getLocalMap(REGISTRY));
  }

  /** The node-local address of the service at {@code address}. */
  static String localAddress(String address) {
    return address + LOCAL_SUFFIX;
  }

  /** Whether this node has a live binding of {@code address} that calls should prefer. */
  boolean serves(String address) {
    return bound.containsKey(address);
  }

  /** Records one more live local binding of {@code address}. */
  void bound(String address) {
    bound.merge(address, 1, Integer::sum);
  }

  /** Withdraws one local binding of {@code address}; the address stays preferred while another binding lives. */
  void unbound(String address) {
    bound.computeIfPresent(address, (a, n) -> n > 1 ? n - 1 : null);
  }
}
