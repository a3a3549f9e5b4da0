package io.kith.messaging.service;

import io.kith.messaging.api.MessagingErrors;
import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * What every messaging feature asks of a conversation: is the actor part of it, who is the other user of a direct
 * one, is it a group, and how a stored message looks to a client.
 */
final class Conversations {

  private final ConversationStore conversations;

  Conversations(ConversationStore conversations) {
    this.conversations = conversations;
  }

  /** The conversation if the actor is part of it, else {@code conversation_not_found}. */
  Future<JsonObject> mine(long actor, long conversation) {
    if (conversation <= 0) {
      return Failures.fail(MessagingErrors.CONVERSATION_NOT_FOUND, "no such conversation");
    }
    return conversations.byId(conversation).compose(conv -> conv != null
        && conv.getJsonArray("members", new JsonArray()).contains(actor) ? Future.succeededFuture(conv)
        : Failures.fail(MessagingErrors.CONVERSATION_NOT_FOUND, "no such conversation"));
  }

  static long peerOf(JsonObject conv, long actor) {
    for (Object m : conv.getJsonArray("members")) {
      long id = ((Number) m).longValue();
      if (id != actor) {
        return id;
      }
    }
    return actor;
  }

  static boolean isGroup(JsonObject conv) {
    return "group".equals(conv.getString("kind"));
  }

  /** Whether a {@code ties} entry shows a block either way. */
  static boolean blockedEitherWay(JsonObject tie) {
    return tie.getBoolean("blocking", false) || tie.getBoolean("blocked_by", false);
  }

  static JsonObject view(JsonObject doc) {
    if (doc.getBoolean("removed", false)) {
      // removed by a moderator: the place in the sequence stays (clients keep seq continuity), nothing of the content
      JsonObject removed = new JsonObject().put("id", doc.getLong("_id"))
          .put("conversation", doc.getLong("conversation")).put("seq", doc.getLong("seq"))
          .put("sender", doc.getLong("sender")).put("created", doc.getLong("created")).put("removed", true);
      for (String where : List.of("to", "group")) {
        if (doc.containsKey(where)) {
          removed.put(where, doc.getValue(where));
        }
      }
      return removed;
    }
    JsonObject view = doc.copy();
    view.put("id", view.remove("_id"));
    view.remove("recalled_at");
    return view;
  }

  static List<JsonObject> views(List<JsonObject> docs) {
    return new ArrayList<>(docs.stream().map(Conversations::view).toList());
  }
}
