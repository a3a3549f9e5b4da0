package io.kith.messaging.service;

import io.kith.accounts.api.UserSummaries;
import io.kith.accounts.api.AccountsService;
import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingErrors;
import io.kith.messaging.api.MessagingEvents;
import io.kith.messaging.api.events.ConversationRead;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Read markers and what others see of them: moving one's marker, who read a message one sent, and the peers' markers
 * a conversation view shows. A reader who turned {@code read_receipts} off, or who is in a block with the one asking
 * either way, is neither shown nor counted.
 */
final class Receipts {

  private static final Logger LOG = LoggerFactory.getLogger(Receipts.class);

  private final Platform platform;
  private final MessagingSettings settings;
  private final ConversationStore conversations;
  private final MessageStore messages;
  private final AccountsService accounts;
  private final RelationsInternal relations;
  private final RateLimiter limiter;
  private final Conversations access;
  private final Preferences preferences;

  Receipts(Platform platform, MessagingSettings settings, ConversationStore conversations, MessageStore messages,
           AccountsService accounts, RelationsInternal relations, RateLimiter limiter, Conversations access,
           Preferences preferences) {
    this.platform = platform;
    this.settings = settings;
    this.conversations = conversations;
    this.messages = messages;
    this.accounts = accounts;
    this.relations = relations;
    this.limiter = limiter;
    this.access = access;
    this.preferences = preferences;
  }

  /** A marker moved: the conversation, the reader and where their marker stands now. */
  private record Read(JsonObject conv, long conversationId, long actor, long readSeq) {
  }

  /** A message and its conversation, as its sender sees them. */
  private record Sent(JsonObject doc, JsonObject conv) {
  }

  // ------------------------------------------------------------------ marking read

  Future<JsonObject> markRead(long actor, long conversationId, long seq) {
    if (seq < 0) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "seq", "seq must be a sequence number (0 or more)");
    }
    Future<Void> admitted = limiter.enforce("rl:messaging:read:" + actor, 60_000L, settings.readsPerMinute(),
        "too many read markers; at most " + settings.readsPerMinute() + " per minute");
    return admitted.compose(v -> access.mine(actor, conversationId))
        .compose(conv -> moveMarker(actor, conversationId, conv, seq))
        .compose(this::readAnswer);
  }

  /** Moves the actor's marker up to {@code seq} (never past the last message, never back); appends the event. */
  private Future<Read> moveMarker(long actor, long conversationId, JsonObject conv, long seq) {
    long target = Math.min(seq, conv.getLong("last_seq", 0L));
    return conversations.markRead(conversationId, actor, target).compose(member -> {
      if (member == null) {
        // removed (a kick, a leave) between the membership check and the marker's update
        return Failures.fail(MessagingErrors.CONVERSATION_NOT_FOUND, "no such conversation");
      }
      long before = member.getLong("read_seq", 0L);
      long readSeq = Math.max(before, target);
      if (readSeq > before) {
        platform.events().publisher(MessagingEvents.DOMAIN).publish(new ConversationRead(conversationId, actor,
            readSeq, Conversations.isGroup(conv) ? "group" : "direct"));
      }
      return Future.succeededFuture(new Read(conv, conversationId, actor, readSeq));
    });
  }

  /** The answer with the unread count; the reader's connections, and a direct peer shown receipts, are told. */
  private Future<JsonObject> readAnswer(Read read) {
    return messages.unread(read.conversationId(), read.actor(), read.readSeq()).compose(unread -> {
      JsonObject answer = new JsonObject().put("conversation", read.conversationId()).put("read_seq", read.readSeq())
          .put("unread", unread);
      JsonObject push = new JsonObject().put("kind", Messaging.PUSH_READ).put("conversation", read.conversationId())
          .put("user", read.actor()).put("seq", read.readSeq());
      platform.vertx().eventBus().publish(Addresses.user(read.actor()), push);
      if (Conversations.isGroup(read.conv())) {
        // groups have no read receipts: only the reader's own connections move their marker
        return Future.succeededFuture(answer);
      }
      return preferences.settingsOf(read.actor()).map(mine -> {
        if (mine.getBoolean("read_receipts", true)) {
          platform.vertx().eventBus().publish(Addresses.user(Conversations.peerOf(read.conv(), read.actor())), push);
        }
        return answer;
      });
    });
  }

  // ------------------------------------------------------------------ who read a message

  Future<JsonObject> messageReaders(long actor, long messageId, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = GroupInput.limit(q, "limit", 50, 100);
      Object rawAfter = q.getValue("after");
      if (rawAfter != null && (!(rawAfter instanceof Number n) || n.longValue() < 0)) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "after", "after must be the next of the previous page");
      }
      long after = rawAfter == null ? 0 : ((Number) rawAfter).longValue();
      return messages.byId(messageId).compose(doc -> ownMessage(actor, doc))
          .compose(sent -> shownMembers(actor, sent.conv()).compose(shown -> readersPage(actor, sent.doc(), shown,
              after, limit)));
    });
  }

  /** The message if the actor sent it and is in its conversation: else {@code message_not_found}/not yours. */
  private Future<Sent> ownMessage(long actor, JsonObject doc) {
    if (doc == null) {
      return Failures.fail(MessagingErrors.MESSAGE_NOT_FOUND, "no such message");
    }
    return access.mine(actor, doc.getLong("conversation"))
        .recover(e -> MessagingErrors.CONVERSATION_NOT_FOUND.code().equals(Failures.codeOf(e))
            ? Failures.fail(MessagingErrors.MESSAGE_NOT_FOUND, "no such message") : Future.failedFuture(e))
        .compose(conv -> doc.getLong("sender") != actor
            ? Failures.fail(MessagingErrors.NOT_YOUR_MESSAGE, "only its sender sees who read a message")
            : Future.succeededFuture(new Sent(doc, conv)));
  }

  /** The other members whose reading the actor may see. */
  private Future<List<Long>> shownMembers(long actor, JsonObject conv) {
    List<Long> others = new ArrayList<>();
    conv.getJsonArray("members", new JsonArray()).forEach(m -> {
      if (((Number) m).longValue() != actor) {
        others.add(((Number) m).longValue());
      }
    });
    if (others.isEmpty()) {
      return Future.succeededFuture(List.<Long>of());
    }
    // neither listed nor counted: who turned receipts off, and who is in a block with the sender either way
    return receiptsShown(actor, others).map(shown -> others.stream().filter(shown::contains).toList());
  }

  /** The count of readers among {@code shown} and one page of them, after {@code after}. */
  private Future<JsonObject> readersPage(long actor, JsonObject doc, List<Long> shown, long after, int limit) {
    if (shown.isEmpty()) {
      return Future.succeededFuture(new JsonObject().put("read_count", 0L).put("items", new JsonArray())
          .putNull("next"));
    }
    long conversation = doc.getLong("conversation");
    long seq = doc.getLong("seq");
    // a member who joined after the message was sent never saw it, whatever their marker says
    long sent = doc.getLong("created");
    Future<Long> count = conversations.readerCount(conversation, seq, sent, shown);
    Future<List<Long>> page = conversations.readers(conversation, seq, sent, shown, after, limit + 1);
    return Future.all(count, page).compose(v -> {
      boolean more = page.result().size() > limit;
      List<Long> ids = more ? page.result().subList(0, limit) : page.result();
      Future<JsonObject> people = UserSummaries.lookup(accounts, actor, ids);
      return people.map(found -> {
        JsonArray items = new JsonArray();
        ids.forEach(id -> items.add(new JsonObject().put("user", UserSummaries.of(found, id))));
        return new JsonObject().put("read_count", count.result()).put("items", items)
            .put("next", more ? ids.get(ids.size() - 1) : null);
      });
    });
  }

  // ------------------------------------------------------------------ what the actor may see

  /**
   * The read markers of the peers of these direct conversations (conversation id to peer), as the actor may see them:
   * none for a peer who turned read receipts off or who is in a block with the actor either way
   * ({@link #receiptsShown}, as for {@link #messageReaders}). One query for the markers. None at all when they cannot
   * be read (logged): the view still answers.
   */
  Future<Map<Long, Long>> peerReads(long actor, Map<Long, Long> peerOfConversation) {
    if (peerOfConversation.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    List<Long> peers = peerOfConversation.values().stream().distinct().toList();
    List<String> memberIds = new ArrayList<>();
    peerOfConversation.forEach((conv, peer) -> memberIds.add(ConversationStore.memberId(conv, peer)));
    Future<List<JsonObject>> markers = conversations.membersById(memberIds);
    Future<Set<Long>> shown = receiptsShown(actor, peers);
    return Future.all(markers, shown).map(v -> {
      Map<Long, Long> out = new HashMap<>();
      for (JsonObject m : markers.result()) {
        if (shown.result().contains(m.getLong("user"))) {
          out.put(m.getLong("conversation"), m.getLong("read_seq", 0L));
        }
      }
      return out;
    }).recover(e -> {
      // the markers are extra: the conversations still answer, without them, while relations or a store is out
      LOG.warn("Peer read markers for {} unavailable: {}", actor, e.toString());
      return Future.succeededFuture(Map.<Long, Long>of());
    });
  }

  /**
   * Which of {@code users} let {@code actor} see their read receipts: their {@code read_receipts} is on and no block
   * stands between them and the actor either way. One settings query and one {@code ties} call.
   */
  private Future<Set<Long>> receiptsShown(long actor, List<Long> users) {
    Future<Set<Long>> off = conversations.receiptsOff(users);
    Future<JsonObject> ties = relations.ties(actor, users);
    return Future.all(off, ties).map(v -> {
      Set<Long> shown = new HashSet<>();
      for (long u : users) {
        if (!off.result().contains(u)
            && !Conversations.blockedEitherWay(ties.result().getJsonObject(Long.toString(u), new JsonObject()))) {
          shown.add(u);
        }
      }
      return shown;
    });
  }
}
