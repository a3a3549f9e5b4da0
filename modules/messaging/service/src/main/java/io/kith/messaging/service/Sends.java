package io.kith.messaging.service;

import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.feeds.api.MediaClient;
import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingErrors;
import io.kith.messaging.api.MessagingEvents;
import io.kith.messaging.api.events.MessageSent;
import io.kith.platform.media.MediaAttachments;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.events.Event;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.metrics.KithMetrics;
import io.kith.platform.store.MongoErrors;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Sending a message, direct or to a group. A direct send checks the recipient's rules (blocks either way,
 * friends-only setting), finds or makes the conversation, and goes to MongoDB with the other direct sends of the
 * moment ({@link DirectCommits}: sequence, insert, derived writes). A group send checks membership, reserves the next
 * sequence (an atomic increment on the conversation, only while the sender is a member), stores the message, then
 * updates the Redis window, the conversation's last message and the members' activity. Both store under the unique
 * {@code (conversation, seq)} and {@code (sender, client_id)} indexes and answer only after the derived writes; the
 * pushes and the {@code MessageSent} event follow.
 *
 * <p>Group sends of one conversation on this node run one after the other, so that sequences are stored in order and
 * a retried client id finds its first message instead of reserving a sequence it would not use (direct sends get the
 * same from their batches' order). Across nodes, two
 * sends may store their sequences out of order for a moment: history therefore stops before a missing sequence that
 * has a younger neighbour (see {@link MessagingSettings#settleMillis()}), so a reader never steps over a message that
 * is still being written.
 */
final class Sends {

  private static final int PREVIEW = 100;
  private static final int DIRECT_IDS = 50_000;

  private final Platform platform;
  private final MessagingSettings settings;
  private final ConversationStore conversations;
  private final MessageStore messages;
  private final RecentWindow window;
  private final AccountsService accounts;
  private final AccountsInternal limits;
  private final RelationsInternal relations;
  private final RateLimiter limiter;
  private final Groups groups;
  private final Preferences preferences;
  private final DirectCommits commits;
  private final MessageMediaViews mediaViews;
  /** The tail of each conversation's chain of sends on this node (touched on the verticle's event loop only). */
  private final Map<Long, Future<?>> sending = new HashMap<>();
  /** Direct conversations by pair ({@link ConversationStore#pair}): one is never deleted nor given another id. */
  private final Map<String, Long> directIds = new LinkedHashMap<>(256, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
      return size() > DIRECT_IDS;
    }
  };

  Sends(Platform platform, MessagingSettings settings, ConversationStore conversations, MessageStore messages,
        RecentWindow window, AccountsService accounts, RelationsInternal relations, RateLimiter limiter, Groups groups,
        Preferences preferences) {
    this.platform = platform;
    this.settings = settings;
    this.conversations = conversations;
    this.messages = messages;
    this.window = window;
    this.accounts = accounts;
    this.limits = AccountsInternal.proxy(platform.vertx());
    this.relations = relations;
    this.limiter = limiter;
    this.groups = groups;
    this.preferences = preferences;
    this.commits = new DirectCommits(conversations, messages, window, settings.directWaitingMax());
    this.mediaViews = new MessageMediaViews(messages, conversations, window, MediaClient.create(platform.vertx()));
  }

  /** What a stored message needs for its answer and delivery: the document and the reserved conversation. */
  private record Stored(JsonObject doc, JsonObject conv, boolean group) {
  }

  Future<JsonObject> send(long actor, long to, JsonObject message) {
    return Failures.guard(() -> {
      JsonObject content = MessageInput.content(message);
      String clientId = content.getString("client_id");
      if (to <= 0) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "to", "to must be a user id");
      }
      if (to == actor) {
        return Failures.failField(MessagingErrors.SELF_MESSAGE, "to", "you cannot message yourself");
      }
      // no lookup of the client id first: a retry meets the unique (sender, client_id) index at the insert, and a
      // retry that is refused on the way there (rate, block) is answered with the stored message if there is one
      return throttle(actor)
          .compose(v -> allowed(actor, to))
          .compose(v -> directOf(actor, to))
          .compose(conv -> withMedia(actor, conv, content).compose(stored -> commit(actor, to, conv, stored)),
              refused -> retried(actor, clientId, refused));
    });
  }

  Future<JsonObject> sendToGroup(long actor, long groupId, JsonObject message) {
    return Failures.guard(() -> {
      JsonObject content = MessageInput.content(message);
      content.put("mentions", MessageInput.mentions(message.getValue("mentions")));
      // the friendly refusal (not found, not a member); the reservation checks membership again, atomically
      return throttle(actor)
          .compose(v -> groups.asMember(actor, groupId))
          .compose(seen -> withMedia(actor, groupId, content)
                  .compose(stored -> serially(groupId, () -> store(actor, null, groupId, stored))),
              refused -> retried(actor, content.getString("client_id"), refused));
    });
  }

  /**
   * The answer to a send refused before its conversation's chain: a send whose client id is stored already is a retry
   * of a message that went through (before the limit was reached or a block was made), answered as the duplicate it
   * is; any other keeps its refusal.
   */
  private Future<JsonObject> retried(long actor, String clientId, Throwable refused) {
    return messages.byClientId(actor, clientId).otherwiseEmpty().compose(existing -> existing == null
        ? Future.failedFuture(refused) : duplicate(existing));
  }

  /**
   * The content with its media (an upload's id) attached to the conversation and replaced by its descriptor
   * {@code {id, kind, content_type, size}} (with its state and variants once processed, see {@code MediaAttachments}):
   * from then on the conversation's members may read it. Fails with
   * {@code invalid_media} (400) when the media does not exist or is not the sender's. A send refused after this
   * leaves the attachment, which lets members read nothing they are not sent.
   */
  private Future<JsonObject> withMedia(long actor, long conversation, JsonObject content) {
    Long media = content.getLong("media");
    if (media == null) {
      return Future.succeededFuture(content);
    }
    return MediaAttachments.attach(platform.vertx(), actor, media, MediaAttachments.CONVERSATION, conversation)
        .map(descriptor -> content.copy().put("media", descriptor));
  }

  /** Counts a new send of {@code actor}; fails with {@code rate_limited} past the per-minute limit. */
  private Future<Void> throttle(long actor) {
    return limiter.enforce("rl:messaging:send:" + actor, 60_000L, settings.sendsPerMinute(),
        "too many messages; at most " + settings.sendsPerMinute() + " per minute");
  }

  /**
   * Fails unless {@code to} exists and takes messages from {@code actor}; a limited sender (moderation's limit, held
   * by accounts) reaches only their followers.
   */
  private Future<Void> allowed(long actor, long to) {
    Future<JsonObject> exists = accounts.summaries(actor, List.of(to));
    Future<JsonObject> ties = relations.ties(to, List.of(actor));
    Future<JsonObject> prefs = preferences.cached(to);
    Future<JsonObject> limited = limits.limitedAmong(List.of(actor));
    return Future.all(exists, ties, prefs, limited).compose(v -> {
      JsonObject tie = ties.result().getJsonObject(Long.toString(actor), new JsonObject());
      // across a block either way the other user is an account that does not exist, as their profile is (a refusal
      // of another kind would tell the sender of the block)
      if (!exists.result().containsKey(Long.toString(to)) || Conversations.blockedEitherWay(tie)) {
        return Failures.failField(MessagingErrors.USER_NOT_FOUND, "to", "no such user");
      }
      boolean friendsOnly = "friends".equals(prefs.result().getString("messages_from"));
      if (friendsOnly && !tie.getBoolean("friend", false)) {
        return Failures.fail(MessagingErrors.NOT_ALLOWED, "this user does not accept messages from you");
      }
      if (limited.result().containsKey(Long.toString(actor)) && !tie.getBoolean("following", false)) {
        return Failures.fail(MessagingErrors.SENDER_LIMITED,
            "your account is limited: you can message only people who follow you");
      }
      return Future.succeededFuture();
    });
  }

  /** The id of the direct conversation of two users, made when there is none. */
  private Future<Long> directOf(long actor, long to) {
    String pair = ConversationStore.pair(actor, to);
    Long known = directIds.get(pair);
    if (known != null) {
      return Future.succeededFuture(known);
    }
    return conversations.directOf(actor, to, platform.ids().next(), System.currentTimeMillis()).map(conv -> {
      long id = conv.getLong("_id");
      directIds.put(pair, id);
      return id;
    });
  }

  /**
   * Stores a direct message of {@code actor} to {@code to} with the next batch of this node ({@link DirectCommits}:
   * the sequence, the insert and the derived writes), then answers it and delivers it (or, for a retry, answers the
   * first one).
   */
  private Future<JsonObject> commit(long actor, long to, long conversation, JsonObject content) {
    return commits.commit(new DirectCommits.Send(conversation, actor, content.getString("client_id"),
            seq -> document(actor, to, conversation, content, new JsonObject().put("seq", seq))))
        .compose(outcome -> {
          if (outcome.duplicate()) {
            return duplicate(outcome.doc());
          }
          JsonObject view = Conversations.view(outcome.doc());
          mediaViews.afterStore(view);
          deliver(view);
          return Future.succeededFuture(new JsonObject().put("message", view).put("duplicate", false));
        });
  }

  /** Runs {@code work} after every earlier send of this conversation on this node has finished. */
  private <T> Future<T> serially(long conversation, Supplier<Future<T>> work) {
    Future<?> tail = sending.getOrDefault(conversation, Future.succeededFuture());
    Future<T> mine = tail.transform(ignored -> Failures.guard(work));
    sending.put(conversation, mine);
    mine.onComplete(ar -> sending.remove(conversation, mine));
    return mine;
  }

  /**
   * Stores a message of {@code actor}: to {@code to} in a direct conversation, or (when {@code to} is null) to the
   * group {@code conversation}, whose members at the reservation receive it; {@code content} then holds the mentions.
   * Steps: reserve the sequence, insert the document, then answer it (or, for a retry, the first one).
   */
  private Future<JsonObject> store(long actor, Long to, long conversation, JsonObject content) {
    boolean group = to == null;
    return conversations.reserveSeq(conversation, group ? actor : null).compose(conv -> conv == null
        ? Failures.fail(MessagingErrors.NOT_GROUP_MEMBER, "you are not a member of this group")
        : insert(new Stored(document(actor, to, conversation, content, conv), conv, group)));
  }

  /** The message document at the sequence reserved in {@code conv}; a group's mentions keep its members only. */
  private JsonObject document(long actor, Long to, long conversation, JsonObject content, JsonObject conv) {
    JsonObject doc = content.copy().put("_id", platform.ids().next()).put("conversation", conversation)
        .put("seq", conv.getLong("seq")).put("sender", actor).put("created", System.currentTimeMillis());
    if (to != null) {
      return doc.put("to", to);
    }
    JsonArray members = conv.getJsonArray("members", new JsonArray());
    JsonArray mentioned = new JsonArray();
    content.getJsonArray("mentions").forEach(id -> {
      if (members.contains(id) && ((Number) id).longValue() != actor) {
        mentioned.add(id);
      }
    });
    return doc.put("group", conversation).put("mentions", mentioned);
  }

  private Future<JsonObject> insert(Stored stored) {
    return messages.insert(stored.doc()).transform(inserted -> inserted.succeeded() ? delivered(stored)
        : insertFailed(stored.doc(), inserted.cause()));
  }

  /** A new message stored: the derived writes, then the answer; the pushes and the event follow. */
  private Future<JsonObject> delivered(Stored stored) {
    return afterStore(Conversations.view(stored.doc())).map(view -> {
      mediaViews.afterStore(view);
      if (stored.group()) {
        deliverToGroup(view, stored.conv());
      } else {
        deliver(view);
      }
      return new JsonObject().put("message", view).put("duplicate", false);
    });
  }

  /**
   * A retry (queued behind its first attempt, or racing it from another node): the stored message is the answer, and
   * the sequence goes back unless another send took the next one meanwhile (then it is a hole).
   */
  private Future<JsonObject> insertFailed(JsonObject doc, Throwable e) {
    if (!MongoErrors.isDuplicateKey(e)) {
      return Future.failedFuture(e);
    }
    return conversations.releaseSeq(doc.getLong("conversation"), doc.getLong("seq")).otherwiseEmpty()
        .compose(v -> messages.byClientId(doc.getLong("sender"), doc.getString("client_id")))
        .compose(first -> first == null ? Future.failedFuture(e) : duplicate(first));
  }

  /**
   * The answer to a retry: the first message, with its MongoDB follow-up writes redone (idempotent, and guarded by
   * {@code last_seq}). The Redis window is not written: the view was read before this write, and a recall or a
   * moderator's removal landing in between would be overwritten with the text it took away. A window that misses the
   * message (its first attempt stopped before the derived writes) is not contiguous there, so history reads MongoDB.
   */
  private Future<JsonObject> duplicate(JsonObject existing) {
    JsonObject view = Conversations.view(existing);
    return conversations.stored(view).map(v -> new JsonObject().put("message", view).put("duplicate", true));
  }

  /** The derived writes after a message is stored: the Redis window, the conversation's last message, activity. */
  private Future<JsonObject> afterStore(JsonObject view) {
    return Future.all(window.addOrLeave(view), conversations.stored(view)).map(v -> view);
  }

  /** Pushes a stored message to both users' connections and appends {@code MessageSent}. */
  private void deliver(JsonObject view) {
    JsonObject push = new JsonObject().put("kind", Messaging.PUSH_MESSAGE).put("message", view);
    long sender = view.getLong("sender");
    long to = view.getLong("to");
    platform.vertx().eventBus().publish(Addresses.user(to), push);
    platform.vertx().eventBus().publish(Addresses.user(sender), push);
    sent(view, "direct", List.of(to), null, null, List.of());
  }

  /**
   * Publishes a stored group message to the group's room and appends {@code MessageSent} for the members of the
   * group at the reservation ({@code conv}), but the sender.
   */
  private void deliverToGroup(JsonObject view, JsonObject conv) {
    long sender = view.getLong("sender");
    platform.vertx().eventBus().publish(Addresses.room(Messaging.groupRoom(view.getLong("conversation"))),
        new JsonObject().put("kind", Messaging.PUSH_MESSAGE).put("message", view));
    List<Long> to = new ArrayList<>();
    conv.getJsonArray("members", new JsonArray()).forEach(m -> {
      if (((Number) m).longValue() != sender) {
        to.add(((Number) m).longValue());
      }
    });
    sent(view, "group", to, view.getLong("conversation"), conv.getString("name"),
        Event.longs(view.getJsonArray("mentions")));
  }

  /** Appends {@code MessageSent} for a stored message; never fails (a lost event is logged). */
  private void sent(JsonObject view, String kind, List<Long> to, Long group, String groupName, List<Long> mentions) {
    platform.metrics().counter(KithMetrics.MESSAGES_SENT, "Chat messages stored").increment();
    String text = view.getString("text", "");
    String preview = text.length() > PREVIEW ? text.substring(0, text.offsetByCodePoints(0,
        Math.min(PREVIEW, text.codePointCount(0, text.length())))) : text;
    platform.events().publisher(MessagingEvents.DOMAIN).publish(new MessageSent(view.getLong("id"),
        view.getLong("conversation"), view.getLong("seq"), kind, view.getLong("sender"), to, preview, group, groupName,
        mentions));
  }
}
