package io.kith.messaging.service;

import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingErrors;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Recalling one's own message within {@code recall-seconds} of sending it: the stored message keeps its place (its
 * sequence) without its content, the Redis window and the conversation's last message follow, and the conversation's
 * connections are told.
 */
final class Recalls {

  private final Platform platform;
  private final MessagingSettings settings;
  private final ConversationStore conversations;
  private final MessageStore messages;
  private final RecentWindow window;
  private final Conversations access;

  Recalls(Platform platform, MessagingSettings settings, ConversationStore conversations, MessageStore messages,
          RecentWindow window, Conversations access) {
    this.platform = platform;
    this.settings = settings;
    this.conversations = conversations;
    this.messages = messages;
    this.window = window;
    this.access = access;
  }

  Future<JsonObject> recall(long actor, long messageId) {
    return messages.byId(messageId).compose(doc -> doc == null
        ? Failures.fail(MessagingErrors.MESSAGE_NOT_FOUND, "no such message")
        : access.mine(actor, doc.getLong("conversation"))
            .recover(e -> Failures.fail(MessagingErrors.MESSAGE_NOT_FOUND, "no such message"))
            .compose(conv -> recallOwn(actor, doc, conv)));
  }

  /** Recalls a message of a conversation the actor is in: only the sender's, only within the window. */
  private Future<JsonObject> recallOwn(long actor, JsonObject doc, JsonObject conv) {
    if (doc.getLong("sender") != actor) {
      return Failures.fail(MessagingErrors.NOT_YOUR_MESSAGE, "you can recall only your own messages");
    }
    if (doc.getBoolean("recalled", false)) {
      return Future.succeededFuture(Conversations.view(doc));
    }
    long now = System.currentTimeMillis();
    if (now - doc.getLong("created") > settings.recallSeconds() * 1000L) {
      return Failures.fail(MessagingErrors.RECALL_WINDOW_PASSED,
          "a message can be recalled within " + settings.recallSeconds() + " seconds of sending");
    }
    long messageId = doc.getLong("_id");
    return messages.recall(messageId, now).compose(after -> after == null
        ? messages.byId(messageId).map(Conversations::view)
        : replaced(conv, Conversations.view(after), Messaging.PUSH_RECALLED));
  }

  /**
   * After a recall (or a moderator's removal) is stored: the derived copies follow, then the conversation's
   * connections are told with a {@code kind} envelope.
   */
  Future<JsonObject> replaced(JsonObject conv, JsonObject view, String kind) {
    long actor = view.getLong("sender");
    return Future.all(window.replace(view).otherwiseEmpty(), conversations.replaceLast(view)).map(v -> {
      JsonObject push = new JsonObject().put("kind", kind)
          .put("conversation", view.getLong("conversation")).put("seq", view.getLong("seq"))
          .put("id", view.getLong("id"));
      if (Conversations.isGroup(conv)) {
        platform.vertx().eventBus().publish(Addresses.room(Messaging.groupRoom(conv.getLong("_id"))), push);
      } else {
        platform.vertx().eventBus().publish(Addresses.user(view.getLong("to")), push);
        platform.vertx().eventBus().publish(Addresses.user(actor), push);
      }
      return view;
    });
  }
}
