package io.kith.messaging.service;

import io.kith.accounts.api.AccountsService;
import io.kith.messaging.api.MessagingService;
import io.kith.messaging.api.WhiteboardService;
import io.kith.platform.Platform;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceBinder;

/**
 * Wires the messaging stores and service, binds the service on {@link MessagingService#ADDRESS} and the bridge
 * inbound addresses, and the whiteboards (their service on {@link WhiteboardService#ADDRESS}, their bridge addresses).
 */
public final class MessagingVerticle extends VerticleBase {

  private final Platform platform;
  private MessageConsumer<JsonObject> binding;
  private BridgeInbound inbound;
  private MessageConsumer<JsonObject> boardBinding;
  private WhiteboardInbound boardInbound;
  private MessageConsumer<JsonObject> settingsChanges;

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
    settingsChanges = vertx.eventBus().consumer(SettingsCache.CHANGED, m -> {
      Object user = m.body() == null ? null : m.body().getValue("user");
      if (user instanceof Number n) {
        service.settingsChanged(n.longValue());
      }
    });
    WhiteboardSettings boardSettings = WhiteboardSettings.from(platform.config().section("messaging"));
    WhiteboardStore boards = new WhiteboardStore(platform.mongo());
    WhiteboardServiceImpl whiteboards = new WhiteboardServiceImpl(platform, boardSettings, boards,
        new WhiteboardStrokes(platform.redisApi(), boardSettings.strokes(), boardSettings.strokesTtlSeconds()),
        service, RelationsService.proxy(vertx));
    boardInbound = new WhiteboardInbound(vertx, whiteboards);
    service.onGroupDissolved(whiteboards::groupDissolved);
    return settingsChanges.completion()
        .compose(v -> conversations.ensureIndexes())
        .compose(v -> groups.ensureIndexes())
        .compose(v -> messages.ensureIndexes())
        .compose(v -> boards.ensureIndexes())
        .compose(v -> inbound.start())
        .compose(v -> boardInbound.start())
        .compose(v -> {
          boardBinding = new ServiceBinder(vertx).setAddress(WhiteboardService.ADDRESS)
              .register(WhiteboardService.class, whiteboards);
          return boardBinding.completion();
        })
        .compose(v -> {
          binding = new ServiceBinder(vertx).setAddress(MessagingService.ADDRESS)
              .register(MessagingService.class, service);
          return binding.completion();
        });
  }

  @Override
  public Future<?> stop() {
    Future<Void> bridge = inbound == null ? Future.succeededFuture() : inbound.stop();
    Future<Void> boardBridge = boardInbound == null ? Future.succeededFuture() : boardInbound.stop();
    Future<Void> changes = settingsChanges == null ? Future.succeededFuture() : settingsChanges.unregister();
    return Future.all(bridge, boardBridge, changes)
        .compose(v -> boardBinding == null ? Future.succeededFuture() : boardBinding.unregister())
        .compose(v -> binding == null ? Future.succeededFuture() : binding.unregister());
  }
}
