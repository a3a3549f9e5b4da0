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
 */
public final class ServiceBindings {

  private final Vertx vertx;
  private final List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();

  /** Bindings on {@code vertx}'s event bus. */
  public ServiceBindings(Vertx vertx) {
    this.vertx = vertx;
  }

  /**
   * Binds {@code service} as {@code type} at {@code address}.
   *
   * @return completes once the consumer is registered (on every node of a cluster)
   */
  public <T> Future<Void> bind(Class<T> type, T service, String address) {
    MessageConsumer<JsonObject> consumer = new ServiceBinder(vertx).setAddress(address).register(type, service);
    consumers.add(consumer);
    return consumer.completion();
  }

  /** Unregisters every binding made so far. */
  public Future<Void> unregister() {
    List<Future<Void>> all = new ArrayList<>();
    consumers.forEach(consumer -> all.add(consumer.unregister()));
    consumers.clear();
    return Future.all(all).mapEmpty();
  }
}
