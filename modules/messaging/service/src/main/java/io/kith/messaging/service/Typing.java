package io.kith.messaging.service;

import io.kith.messaging.api.Messaging;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** Typing indicators: pushed to the peer of a direct conversation or to a group's room, never stored. */
final class Typing {

  private final Platform platform;
  private final MessagingSettings settings;
  private final RateLimiter limiter;
  private final Conversations access;

  Typing(Platform platform, MessagingSettings settings, RateLimiter limiter, Conversations access) {
    this.platform = platform;
    this.settings = settings;
    this.limiter = limiter;
    this.access = access;
  }

  Future<Void> typing(long actor, long conversationId) {
    // one indicator per user and conversation per typing-interval-millis: more are dropped silently (typing is
    // ephemeral: the one delivered says as much), so a client need not handle an error for them
    return access.mine(actor, conversationId).compose(conv -> limiter.hit("rl:messaging:typing:" + actor + ":"
        + conversationId, settings.typingIntervalMillis()).map(w -> w.count() > 1 ? null : conv)).map(conv -> {
      if (conv == null) {
        return null;
      }
      JsonObject push = new JsonObject().put("kind", Messaging.PUSH_TYPING).put("conversation", conversationId)
          .put("user", actor);
      platform.vertx().eventBus().publish(Conversations.isGroup(conv)
          ? Addresses.room(Messaging.groupRoom(conversationId))
          : Addresses.user(Conversations.peerOf(conv, actor)), push);
      return null;
    });
  }
}
