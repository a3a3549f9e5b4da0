package io.kith.messaging.service;

import io.kith.accounts.api.AccountsService;
import io.kith.accounts.api.UserSummaries;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Reading a conversation's messages by sequence: from the Redis window when it holds the whole page, else from
 * MongoDB; a page stops before a sequence that may still be being written (see {@link #settled}).
 */
final class History {

  private final MessagingSettings settings;
  private final MessageStore messages;
  private final RecentWindow window;
  private final Conversations access;
  private final AccountsService accounts;

  History(MessagingSettings settings, MessageStore messages, RecentWindow window, Conversations access,
          AccountsService accounts) {
    this.settings = settings;
    this.messages = messages;
    this.window = window;
    this.access = access;
    this.accounts = accounts;
  }

  Future<JsonObject> history(long actor, long conversationId, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = GroupInput.limit(q, "limit", 50, 100);
      Long after = cursor(q, "after_seq");
      Long before = cursor(q, "before_seq");
      if (after != null && before != null) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "after_seq", "give after_seq or before_seq, not both");
      }
      return access.mine(actor, conversationId).compose(conv -> {
        long lastSeq = conv.getLong("last_seq", 0L);
        Future<List<JsonObject>> page = after != null
            ? afterPage(conversationId, after, limit, lastSeq)
            : beforePage(conversationId, before, limit, lastSeq);
        // each message carries its sender's summary, so a chat screen needs no profile read per sender
        return page.compose(items -> UserSummaries.attach(accounts, actor, settled(items, after), "sender",
                "sender_summary"))
            .map(items -> new JsonObject().put("items", new JsonArray(items)).put("last_seq", lastSeq));
      });
    });
  }

  private Future<List<JsonObject>> afterPage(long conversation, long after, int limit, long lastSeq) {
    return window.after(conversation, after, limit).otherwise(List.of()).compose(hot -> {
      boolean complete = !hot.isEmpty() && hot.get(0).getLong("seq") == after + 1 && contiguous(hot)
          && (hot.size() == limit || hot.get(hot.size() - 1).getLong("seq") >= lastSeq);
      if (complete) {
        return Future.succeededFuture(hot);
      }
      return messages.range(conversation, after, null, limit, true).map(Conversations::views);
    });
  }

  private Future<List<JsonObject>> beforePage(long conversation, Long before, int limit, long lastSeq) {
    return window.before(conversation, before, limit).otherwise(List.of()).compose(hot -> {
      List<JsonObject> asc = new ArrayList<>(hot);
      Collections.reverse(asc);
      long top = before == null ? lastSeq : Math.min(before - 1, lastSeq);
      boolean complete = !asc.isEmpty() && contiguous(asc) && asc.get(asc.size() - 1).getLong("seq") >= top
          && (asc.size() == limit || asc.get(0).getLong("seq") == 1);
      if (complete) {
        return Future.succeededFuture(asc);
      }
      return messages.range(conversation, null, before, limit, false).map(docs -> {
        List<JsonObject> views = Conversations.views(docs);
        Collections.reverse(views);
        return views;
      });
    });
  }

  private static boolean contiguous(List<JsonObject> asc) {
    for (int i = 1; i < asc.size(); i++) {
      if (asc.get(i).getLong("seq") != asc.get(i - 1).getLong("seq") + 1) {
        return false;
      }
    }
    return true;
  }

  /**
   * Cuts an ascending page before the first missing sequence whose next message is younger than the settle time:
   * that sequence may still be being written, and a client continuing after the page must not step over it.
   */
  private List<JsonObject> settled(List<JsonObject> asc, Long after) {
    long now = System.currentTimeMillis();
    long expected = after == null ? (asc.isEmpty() ? 0 : asc.get(0).getLong("seq")) : after + 1;
    List<JsonObject> out = new ArrayList<>();
    for (JsonObject m : asc) {
      long seq = m.getLong("seq");
      if (seq != expected && now - m.getLong("created", 0L) < settings.settleMillis()) {
        break;
      }
      out.add(m);
      expected = seq + 1;
    }
    return out;
  }

  private static Long cursor(JsonObject q, String name) {
    Object raw = q.getValue(name);
    if (raw == null) {
      return null;
    }
    if (!(raw instanceof Number) || ((Number) raw).longValue() < 0) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, name, name + " must be a sequence number (0 or more)");
    }
    return ((Number) raw).longValue();
  }
}
