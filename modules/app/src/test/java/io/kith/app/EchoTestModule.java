package io.kith.app;

import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

/**
 * A module that exists only in tests: a service on {@code kith.test.echo} that answers with the sender the bridge
 * stamped and the node it runs on. Found through META-INF/services like a real domain module.
 */
public final class EchoTestModule implements KithModule {

  /** The service address. */
  public static final String ADDRESS = "kith.test.echo";

  @Override
  public String name() {
    return "echo";
  }

  @Override
  public Future<String> deploy(Platform platform) {
    return platform.vertx().deployVerticle(new VerticleBase() {
      private MessageConsumer<Object> consumer;

      @Override
      public Future<?> start() {
        String node = platform.config().getString("kith.node-label", "unnamed");
        consumer = vertx.eventBus().consumer(ADDRESS, msg -> msg.reply(new JsonObject()
            .put("node", node)
            .put("sender", msg.headers().get(Addresses.SENDER_HEADER))
            .put("body", msg.body())));
        return consumer.completion();
      }
    });
  }
}
