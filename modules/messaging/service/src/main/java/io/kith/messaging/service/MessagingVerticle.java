package io.kith.messaging.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.AccountsService;
import io.kith.feeds.api.FeedsEvents;
import io.kith.feeds.api.MediaClient;
import io.kith.messaging.api.MessagingInternal;
import io.kith.messaging.api.MessagingService;
import io.kith.messaging.api.WhiteboardInternal;
import io.kith.messaging.api.WhiteboardService;
import io.kith.platform.media.MediaAttachments;
import io.kith.platform.Platform;
import io.kith.platform.bus.ServiceBindings;
import io.kith.platform.events.EventConsumer;
import io.kith.platform.events.Exports;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Wires the messaging stores and service, binds the service on {@link MessagingService#ADDRESS}, its internal
 * operations on {@link MessagingInternal#ADDRESS} and the bridge inbound addresses, and the whiteboards (their service
 * on {@link WhiteboardService#ADDRESS}, their internal operations on {@link WhiteboardInternal#ADDRESS}, their bridge
 * addresses).
 * Sweeps expired group invitations every {@code messaging.group-invitation-sweep-seconds}. Erases deleted accounts'
 * data ({@link Erasure}) and serves the messaging part of account exports ({@link Export}). Follows the feeds event
 * {@code MediaProcessed} into the messages carrying a chat video that settled ({@link MessageMediaViews}).
 */
public final class MessagingVerticle extends VerticleBase {

  /** The first sweep comes this long at most after starting (or one sweep period, if shorter). */
  private static final long SWEEP_FIRST_MILLIS = 60_000L;
  private static final Logger LOG = LoggerFactory.getLogger(MessagingVerticle.class);

  private final Platform platform;
  private ServiceBindings bindings;
  private BridgeInbound inbound;
  private WhiteboardInbound boardInbound;
  private MessageConsumer<JsonObject> settingsChanges;
  private MessageConsumer<JsonObject> mediaAccess;
  private MessageConsumer<JsonObject> exports;
  private EventConsumer erasures;
  private EventConsumer mediaViews;
  private long sweepTimer = -1;
  private boolean sweeping;

  /** Creates the verticle on a node's platform. */
  public MessagingVerticle(Platform platform) {
    this.platform = platform;
  }

  @Override
  public Future<?> start() {
    MessagingSettings settings = MessagingSettings.from(platform.config().section("messaging"));
    ConversationStore conversations = new ConversationStore(platform.mongo());
    GroupStore groups = new GroupStore(platform.mongo(), settings.invitationMillis());
    MessageStore messages = new MessageStore(platform.mongo());
    RecentWindow window = new RecentWindow(platform.redisApi(), settings.windowSize(), settings.windowTtlSeconds());
    MessagingServiceImpl service = new MessagingServiceImpl(platform, settings, conversations, groups, messages, window,
        AccountsService.proxy(vertx), RelationsInternal.proxy(vertx));
    MessagingInternal internal = service.internal();
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
        internal, RelationsInternal.proxy(vertx));
    boardInbound = new WhiteboardInbound(vertx, whiteboards);
    service.onGroupDissolved(whiteboards::groupDissolved);
    MediaAttachments.registerCodec(vertx);
    return settingsChanges.completion()
        .compose(v -> MediaAttachments.serveAccess(vertx, MediaAttachments.CONVERSATION, service::mayReadMedia))
        .map(consumer -> mediaAccess = consumer)
        .compose(v -> conversations.ensureIndexes())
        .compose(v -> groups.ensureIndexes())
        .compose(v -> messages.ensureIndexes())
        .compose(v -> boards.ensureIndexes())
        .compose(v -> accountLifecycle(service, groups, messages, whiteboards))
        .compose(v -> platform.events().consume(FeedsEvents.DOMAIN, MessageMediaViews.GROUP,
            platform.events().once(MessageMediaViews.GROUP, new MessageMediaViews(messages, conversations, window,
                MediaClient.create(vertx))::handle)))
        .map(consumer -> mediaViews = consumer)
        .compose(v -> inbound.start())
        .compose(v -> boardInbound.start())
        .compose(v -> {
          bindings = new ServiceBindings(vertx);
          return Future.all(bindings.bind(WhiteboardService.class, whiteboards, WhiteboardService.ADDRESS),
              bindings.bind(WhiteboardInternal.class, whiteboards.internal(), WhiteboardInternal.ADDRESS),
              bindings.bind(MessagingService.class, service, MessagingService.ADDRESS),
              bindings.bind(MessagingInternal.class, internal, MessagingInternal.ADDRESS));
        })
        .onSuccess(v -> {
          // every node sweeps (a removal is conditional, so two sweepers never both remove one); the first sweep comes
          // within a minute of starting, at a random moment so that nodes started together do not sweep together
          long every = settings.invitationSweepSeconds() * 1_000L;
          long first = 1 + ThreadLocalRandom.current().nextLong(Math.min(every, SWEEP_FIRST_MILLIS));
          sweepTimer = vertx.setPeriodic(first, every, t -> sweep(service));
        });
  }

  /** Serves the messaging part of account exports and consumes {@code AccountDeleted} to erase deleted accounts. */
  private Future<Void> accountLifecycle(MessagingServiceImpl service, GroupStore groups, MessageStore messages,
                                        WhiteboardServiceImpl whiteboards) {
    AccountDataStore accountData = new AccountDataStore(platform.mongo());
    Erasure erasure = new Erasure(platform, accountData, messages, service, whiteboards);
    exports = Exports.serve(vertx, Erasure.DOMAIN, new Export(accountData, groups, service, AccountsService.proxy(vertx),
        Exports.MAX_RECORDS));
    return exports.completion()
        .compose(v -> platform.events().consume(AccountsEvents.DOMAIN, Erasure.GROUP,
            platform.events().once(Erasure.GROUP, erasure::handle)))
        .map(consumer -> {
          erasures = consumer;
          return null;
        });
  }

  private void sweep(MessagingServiceImpl service) {
    if (sweeping) {
      return;
    }
    sweeping = true;
    service.sweepInvitations().onComplete(ar -> {
      sweeping = false;
      if (ar.failed()) {
        LOG.warn("Sweeping expired group invitations failed (the next sweep retries): {}", ar.cause().getMessage());
      } else if (ar.result() > 0) {
        LOG.info("Removed {} expired group invitations", ar.result());
      }
    });
  }

  @Override
  public Future<?> stop() {
    if (sweepTimer >= 0) {
      vertx.cancelTimer(sweepTimer);
    }
    Future<Void> bridge = inbound == null ? Future.succeededFuture() : inbound.stop();
    Future<Void> boardBridge = boardInbound == null ? Future.succeededFuture() : boardInbound.stop();
    Future<Void> changes = settingsChanges == null ? Future.succeededFuture() : settingsChanges.unregister();
    Future<Void> media = mediaAccess == null ? Future.succeededFuture() : mediaAccess.unregister();
    Future<Void> export = exports == null ? Future.succeededFuture() : exports.unregister();
    Future<Void> erasing = erasures == null ? Future.succeededFuture() : erasures.stop();
    Future<Void> settling = mediaViews == null ? Future.succeededFuture() : mediaViews.stop();
    return Future.all(List.of(bridge, boardBridge, changes, media, export, erasing, settling))
        .compose(v -> bindings == null ? Future.succeededFuture() : bindings.unregister());
  }
}
