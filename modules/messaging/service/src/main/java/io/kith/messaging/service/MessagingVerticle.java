package io.kith.messaging.service;

import io.kith.accounts.api.AccountsService;
import io.kith.messaging.api.MessagingService;
import io.kith.platform.Platform;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceBinder;

/**
 * Wires the messaging stores and service, binds the service on {@link MessagingService#ADDRESS} and the bridge
 * inbound addresses.
 */
public final class MessagingVerticle extends VerticleBase {

  private final Platform platform;
  private MessageConsumer<JsonObject> binding;
  private BridgeInbound inbound;

  /** Creates the verticle on a node's platform. */
  public MessagingVerticle(Platform platform) {
    this.platform = platform;
  }

  @Override
  public Future<?> start() {
    MessagingSettings settings = MessagingSettings.from(platform.config().section("messaging"));
    ConversationStore conversations = new ConversationStore(platform.mongo());
    GroupStore groups = new GroupStore(platform.mongo());
    MessageStore messages = new MessageStore(platform.mongo());
    RecentWindow window = new RecentWindow(platform.redisApi(), settings.windowSize(), settings.windowTtlSeconds());
    MessagingServiceImpl service = new MessagingServiceImpl(platform, settings, conversations, groups, messages, window,
        AccountsService.proxy(vertx), RelationsService.proxy(vertx));
    inbound = new BridgeInbound(vertx, service);
    return conversations.ensureIndexes()
        .compose(v -> groups.ensureIndexes())
        .compose(v -> messages.ensureIndexes())
        .compose(v -> inbound.start())
        .compose(v -> {
          binding = new ServiceBinder(vertx).setAddress(MessagingService.ADDRESS)
              .register(MessagingService.class, service);
          return binding.completion();
        });
  }

  @Override
  public Future<?> stop() {
    Future<Void> bridge = inbound == null ? Future.succeededFuture() : inbound.stop();
    return bridge.compose(v -> binding == null ? Future.succeededFuture() : binding.unregister());
  }
}
