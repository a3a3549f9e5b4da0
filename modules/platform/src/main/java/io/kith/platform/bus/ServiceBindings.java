package io.kith.platform.bus;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceBinder;

import java.util.ArrayList;
import java.util.List;

/**
 * The services one verticle binds on the event bus (a domain's public interface, its internal one, a port it provides
 * to another domain), each on its own address, all unregistered together when the verticle stops.
 *
 * <p>Each service is bound twice: on its address for the whole cluster, and on a node-local address
 * ({@link LocalServices}) that this node's {@link ServiceProxies} prefer while the binding lives, so that a node
 * running a service answers its own calls without crossing to another node.
 */
public final class ServiceBindings {

  private final Vertx vertx;
  private final LocalServices local;
  private final List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();
  /** Addresses this instance made preferred, withdrawn on {@link #unregister}. */
  private final List<String> preferred = new ArrayList<>();

  /** Bindings on {@code vertx}'s event bus. */
  public ServiceBindings(Vertx vertx) {
    this.vertx = vertx;
    this.local = LocalServices.of(vertx);
  }

  /**
   * Binds {@code service} as {@code type} at {@code address}, and at its node-local address.
   *
   * @return completes once both consumers are registered (the cluster one on every node of a cluster); from then on
   *     this node's proxies call this instance
   */
  public <T> Future<Void> bind(Class<T> type, T service, String address) {
    MessageConsumer<JsonObject> cluster = new ServiceBinder(vertx).setAddress(address).register(type, service);
    MessageConsumer<JsonObject> nodeLocal = new ServiceBinder(vertx).setAddress(LocalServices.localAddress(address))
        .registerLocal(type, service);
    consumers.add(cluster);
    consumers.add(nodeLocal);
    return Future.all(cluster.completion(), nodeLocal.completion())
        .onSuccess(v -> {
          // an unregister that came first (it cleared the list) must not leave the address preferred
          if (consumers.contains(nodeLocal)) {
            local.bound(address);
            preferred.add(address);
          }
        })
        .mapEmpty();
  }

  /**
   * Unregisters every binding made so far. This node stops preferring its own instances before any consumer goes, so
   * that its calls meanwhile go to the other nodes that run the services (or fail with {@code NO_HANDLERS} as before
   * where none does).
   */
  public Future<Void> unregister() {
    preferred.forEach(local::unbound);
    preferred.clear();
    List<Future<Void>> all = new ArrayList<>();
    consumers.forEach(consumer -> all.add(consumer.unregister()));
    consumers.clear();
    return Future.all(all).mapEmpty();
  }
}
