package io.kith.messaging.service;

import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingErrors;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Moderation's side of messaging (issue 22): a message looked up as a reporter sees it, and messages and groups
 * removed on a moderator's decision. A removed message keeps its sequence without content (clients keep seq
 * continuity; the content moves into the moderators' {@code removal} record); a removed group is dissolved as by its
 * owner (members lose it with a {@code group_removed} notice, {@code GroupDissolved} cleans up), keeping its record.
 */
final class ModeratorRemovals {

  private final MessageStore messages;
  private final GroupStore groups;
  private final Conversations access;
  private final ConversationStore conversations;
  private final Recalls recalls;
  private final GroupLifecycle lifecycle;

  ModeratorRemovals(MessageStore messages, GroupStore groups, Conversations access, ConversationStore conversations,
                    Recalls recalls, GroupLifecycle lifecycle) {
    this.messages = messages;
    this.groups = groups;
    this.access = access;
    this.conversations = conversations;
    this.recalls = recalls;
    this.lifecycle = lifecycle;
  }

  Future<JsonObject> messageSeenBy(long viewer, long messageId) {
    // only a member of the conversation reads it; a recalled or removed message has nothing left to report
    return messages.byId(messageId).compose(doc -> doc == null || doc.getBoolean("recalled", false)
        || doc.getBoolean("removed", false) ? messageNotFound()
        : access.mine(viewer, doc.getLong("conversation")).recover(e -> messageNotFound()).map(conv -> {
          JsonObject out = new JsonObject().put("sender", doc.getLong("sender"))
              .put("conversation", doc.getLong("conversation"));
          return Conversations.isGroup(conv) ? out.put("group", conv.getLong("_id")) : out;
        }));
  }

  Future<JsonObject> remove(String type, long id, JsonObject removal) {
    return switch (type == null ? "" : type) {
      case "message" -> removeMessage(id, removal);
      case "group" -> removeGroup(id, removal);
      default -> Failures.failField(KithErrors.VALIDATION_FAILED, "type", "messaging removes a message or a group");
    };
  }

  private Future<JsonObject> removeMessage(long id, JsonObject removal) {
    return messages.byId(id).compose(doc -> {
      if (doc == null) {
        return messageNotFound();
      }
      JsonObject owner = new JsonObject().put("owner", doc.getLong("sender"));
      // a repeated removal (after one that stopped before the derived copies) replaces them again: both idempotent
      return messages.remove(doc, removal)
          .compose(after -> after != null ? Future.succeededFuture(after) : messages.byId(id))
          .compose(after -> conversations.byId(after.getLong("conversation")).compose(conv -> conv == null
              ? Future.succeededFuture(owner)
              : recalls.replaced(conv, Conversations.view(after), Messaging.PUSH_MESSAGE_REMOVED).map(owner)));
    });
  }

  private Future<JsonObject> removeGroup(long id, JsonObject removal) {
    return groups.markRemoved(id, removal).compose(marked -> marked == null
        ? groups.byId(id).compose(doc -> doc != null && doc.containsKey("removed")
            ? Future.succeededFuture(new JsonObject().put("owner", doc.getLong("owner"))) : groupNotFound())
        : groups.dissolve(id, null, removal.getLong("at"))
            .compose(before -> before == null ? Future.succeededFuture()
                : lifecycle.dissolved(before, removal.getLong("by", 0L)))
            .map(v -> new JsonObject().put("owner", marked.getLong("owner"))));
  }

  Future<JsonObject> forModerator(String type, long id) {
    boolean message = "message".equals(type);
    if (!message && !"group".equals(type)) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "type", "messaging holds messages and groups");
    }
    return (message ? messages.byId(id) : groups.byId(id)).compose(doc -> {
      if (doc == null || !message && !"group".equals(doc.getString("kind"))) {
        return message ? messageNotFound() : groupNotFound();
      }
      JsonObject view = doc.copy();
      view.put("id", view.remove("_id"));
      return Future.succeededFuture(view);
    });
  }

  private static <T> Future<T> messageNotFound() {
    return Failures.fail(MessagingErrors.MESSAGE_NOT_FOUND, "no such message");
  }

  private static <T> Future<T> groupNotFound() {
    return Failures.fail(MessagingErrors.GROUP_NOT_FOUND, "no such group");
  }
}
