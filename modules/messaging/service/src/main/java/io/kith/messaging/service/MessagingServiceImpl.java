package io.kith.messaging.service;

import io.kith.accounts.api.AccountsService;
import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingErrors;
import io.kith.messaging.api.MessagingEvents;
import io.kith.messaging.api.MessagingService;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.text.UserText;
import io.kith.platform.store.MongoErrors;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Direct and group messaging. A direct send checks the recipient's rules (blocks either way, friends-only setting),
 * finds or makes the conversation; a group send checks membership. Both then reserve the next sequence (an atomic
 * increment on the conversation, for a group only while the sender is a member), store the message (unique
 * {@code (conversation, seq)} and {@code (sender, client_id)}), then updates the Redis window, the conversation's
 * last message and the members' activity, and only then answers; the pushes and the {@code MessageSent} event follow.
 *
 * <p>Sends of one conversation on this node run one after the other, so that sequences are stored in order and a
 * retried client id finds its first message instead of reserving a sequence it would not use. Across nodes, two
 * sends may store their sequences out of order for a moment: history therefore stops before a missing sequence that
 * has a younger neighbour (see {@link MessagingSettings#settleMillis()}), so a reader never steps over a message that
 * is still being written.
 *
 * <p>Group membership, roles, invitations and managed groups are decided by {@link Groups}.
 */
final class MessagingServiceImpl implements MessagingService {

  private static final Logger LOG = LoggerFactory.getLogger(MessagingServiceImpl.class);
  private static final Set<String> SETTINGS_FIELDS = Set.of("messages_from", "read_receipts");
  private static final Set<String> MESSAGES_FROM = Set.of("everyone", "friends");
  private static final int PREVIEW = 100;
  private static final int DIRECT_IDS = 50_000;

  private final Platform platform;
  private final MessagingSettings settings;
  private final ConversationStore conversations;
  private final MessageStore messages;
  private final RecentWindow window;
  private final AccountsService accounts;
  private final RelationsService relations;
  private final RateLimiter limiter;
  private final Groups groups;
  /** The tail of each conversation's chain of sends on this node (touched on the verticle's event loop only). */
  private final Map<Long, Future<?>> sending = new HashMap<>();
  /** Direct conversations by pair ({@link ConversationStore#pair}): one is never deleted nor given another id. */
  private final Map<String, Long> directIds = new LinkedHashMap<>(256, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Long> eldest) {
      return size() > DIRECT_IDS;
    }
  };
  /** The recipients' settings each direct send checks. */
  private final SettingsCache settingsCache;

  MessagingServiceImpl(Platform platform, MessagingSettings settings, ConversationStore conversations,
                       GroupStore groupStore, MessageStore messages, RecentWindow window, AccountsService accounts,
                       RelationsService relations) {
    this.platform = platform;
    this.settings = settings;
    this.conversations = conversations;
    this.messages = messages;
    this.window = window;
    this.accounts = accounts;
    this.relations = relations;
    this.limiter = new RateLimiter(platform.redis());
    this.settingsCache = new SettingsCache(this::settingsOf);
    this.groups = new Groups(platform, settings, conversations, groupStore, accounts, relations, limiter);
  }

  // ------------------------------------------------------------------ send

  @Override
  public Future<JsonObject> send(long actor, long to, JsonObject message) {
    return Failures.guard(() -> {
      JsonObject content = content(message);
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
          .compose(conv -> serially(conv, () -> store(actor, to, conv, content)),
              refused -> retried(actor, clientId, refused));
    });
  }

  @Override
  public Future<JsonObject> sendToGroup(long actor, long groupId, JsonObject message) {
    return Failures.guard(() -> {
      JsonObject content = content(message);
      content.put("mentions", mentions(message.getValue("mentions")));
      // the friendly refusal (not found, not a member); the reservation checks membership again, atomically
      return throttle(actor)
          .compose(v -> groups.asMember(actor, groupId))
          .compose(seen -> serially(groupId, () -> store(actor, null, groupId, content)),
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

  /** Validates mentions: up to {@value Messaging#MAX_MENTIONS} user ids, repeats dropped. */
  private static JsonArray mentions(Object raw) {
    JsonArray out = new JsonArray();
    if (raw == null) {
      return out;
    }
    if (!(raw instanceof JsonArray) || ((JsonArray) raw).size() > Messaging.MAX_MENTIONS) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "mentions", "mentions must be a list of at most "
          + Messaging.MAX_MENTIONS + " user ids");
    }
    for (Object v : (JsonArray) raw) {
      if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.longValue() <= 0) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "mentions", "mentions must hold user ids");
      }
      if (!out.contains(n.longValue())) {
        out.add(n.longValue());
      }
    }
    return out;
  }

  /** Validates a message body: {@code {client_id, text?, media?}}; answers the stored members. */
  private static JsonObject content(JsonObject message) {
    if (message == null) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "client_id", "a message needs a client_id and text or media");
    }
    Object clientId = message.getValue("client_id");
    if (!(clientId instanceof String) || ((String) clientId).isBlank()
        || ((String) clientId).length() > Messaging.MAX_CLIENT_ID) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "client_id",
          "client_id must be a string of 1 to " + Messaging.MAX_CLIENT_ID + " characters");
    }
    JsonObject out = new JsonObject().put("client_id", clientId);
    Object text = message.getValue("text");
    if (text != null) {
      if (!(text instanceof String) || ((String) text).isBlank()) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "text", "text must be a non-blank string");
      }
      String s = (String) text;
      if (s.codePointCount(0, s.length()) > Messaging.MAX_TEXT) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "text",
            "text must be at most " + Messaging.MAX_TEXT + " characters");
      }
      out.put("text", UserText.lines("text", s));
    }
    Object media = message.getValue("media");
    if (media != null) {
      if (!(media instanceof String) || ((String) media).isBlank() || ((String) media).length() > Messaging.MAX_MEDIA) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "media",
            "media must be a reference of 1 to " + Messaging.MAX_MEDIA + " characters");
      }
      out.put("media", media);
    }
    if (text == null && media == null) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "text", "a message needs text or media");
    }
    return out;
  }

  /** Counts a new send of {@code actor}; fails with {@code rate_limited} past the per-minute limit. */
  private Future<Void> throttle(long actor) {
    return limiter.enforce("rl:messaging:send:" + actor, 60_000L, settings.sendsPerMinute(),
        "too many messages; at most " + settings.sendsPerMinute() + " per minute");
  }

  /** Fails unless {@code to} exists and takes messages from {@code actor}. */
  private Future<Void> allowed(long actor, long to) {
    Future<JsonObject> exists = accounts.summaries(actor, List.of(to));
    Future<JsonObject> ties = relations.ties(to, List.of(actor));
    Future<JsonObject> prefs = settingsCache.get(to);
    return Future.all(exists, ties, prefs).compose(v -> {
      JsonObject tie = ties.result().getJsonObject(Long.toString(actor), new JsonObject());
      // across a block either way the other user is an account that does not exist, as their profile is (a refusal
      // of another kind would tell the sender of the block)
      if (!exists.result().containsKey(Long.toString(to)) || blockedEitherWay(tie)) {
        return Failures.failField(MessagingErrors.USER_NOT_FOUND, "to", "no such user");
      }
      boolean friendsOnly = "friends".equals(prefs.result().getString("messages_from"));
      if (friendsOnly && !tie.getBoolean("friend", false)) {
        return Failures.fail(MessagingErrors.NOT_ALLOWED, "this user does not accept messages from you");
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

  /** Called with a group's id once it is dissolved on this node. */
  void onGroupDissolved(Consumer<Long> hook) {
    groups.onDissolved(hook);
  }

  /** A user's settings changed on some node: this node's copy goes. */
  void settingsChanged(long user) {
    settingsCache.changed(user);
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
   */
  private Future<JsonObject> store(long actor, Long to, long conversation, JsonObject content) {
    String clientId = content.getString("client_id");
    boolean group = to == null;
    return conversations.reserveSeq(conversation, group ? actor : null).compose(conv -> {
      if (conv == null) {
        return Failures.fail(MessagingErrors.NOT_GROUP_MEMBER, "you are not a member of this group");
      }
      long seq = conv.getLong("seq");
      JsonObject doc = content.copy().put("_id", platform.ids().next()).put("conversation", conversation)
          .put("seq", seq).put("sender", actor).put("created", System.currentTimeMillis());
      if (group) {
        JsonArray members = conv.getJsonArray("members", new JsonArray());
        JsonArray mentioned = new JsonArray();
        content.getJsonArray("mentions").forEach(id -> {
          if (members.contains(id) && ((Number) id).longValue() != actor) {
            mentioned.add(id);
          }
        });
        doc.put("group", conversation).put("mentions", mentioned);
      } else {
        doc.put("to", to);
      }
      return messages.insert(doc).transform(inserted -> {
        if (inserted.succeeded()) {
          return afterStore(view(doc)).map(view -> {
            if (group) {
              deliverToGroup(view, conv);
            } else {
              deliver(view);
            }
            return new JsonObject().put("message", view).put("duplicate", false);
          });
        }
        Throwable e = inserted.cause();
        if (!MongoErrors.isDuplicateKey(e)) {
          return Future.failedFuture(e);
        }
        // a retry (queued behind its first attempt, or racing it from another node): the stored message is the
        // answer, and the sequence goes back unless another send took the next one meanwhile (then it is a hole)
        return conversations.releaseSeq(conversation, seq).otherwiseEmpty()
            .compose(v -> messages.byClientId(actor, clientId))
            .compose(first -> first == null ? Future.failedFuture(e) : duplicate(first));
      });
    });
  }

  /** The answer to a retry: the first message, with the follow-up writes redone (they are idempotent). */
  private Future<JsonObject> duplicate(JsonObject existing) {
    return afterStore(view(existing)).map(view -> new JsonObject().put("message", view).put("duplicate", true));
  }

  /** The derived writes after a message is stored: the Redis window, the conversation's last message, activity. */
  private Future<JsonObject> afterStore(JsonObject view) {
    Future<Void> hot = window.add(view).recover(e -> {
      // the window is derived: a read that finds it incomplete reads MongoDB
      LOG.warn("Cannot add message {} to the Redis window: {}", view.getLong("id"), e.getMessage());
      return Future.succeededFuture();
    });
    return Future.all(hot, conversations.stored(view)).map(v -> view);
  }

  /** Pushes a stored message to both users' connections and appends {@code MessageSent}. */
  private void deliver(JsonObject view) {
    JsonObject push = new JsonObject().put("kind", Messaging.PUSH_MESSAGE).put("message", view);
    long sender = view.getLong("sender");
    long to = view.getLong("to");
    platform.vertx().eventBus().publish(Addresses.user(to), push);
    platform.vertx().eventBus().publish(Addresses.user(sender), push);
    appendSent(view, sentEvent(view, "direct", new JsonArray().add(to)).put("mentions", new JsonArray()));
  }

  /**
   * Publishes a stored group message to the group's room and appends {@code MessageSent} for the members of the
   * group at the reservation ({@code conv}), but the sender.
   */
  private void deliverToGroup(JsonObject view, JsonObject conv) {
    long sender = view.getLong("sender");
    platform.vertx().eventBus().publish(Addresses.room(Messaging.groupRoom(view.getLong("conversation"))),
        new JsonObject().put("kind", Messaging.PUSH_MESSAGE).put("message", view));
    JsonArray to = new JsonArray();
    conv.getJsonArray("members", new JsonArray()).forEach(m -> {
      if (((Number) m).longValue() != sender) {
        to.add(m);
      }
    });
    appendSent(view, sentEvent(view, "group", to).put("group", view.getLong("conversation"))
        .put("group_name", conv.getString("name")).put("mentions", view.getJsonArray("mentions").copy()));
  }

  private static JsonObject sentEvent(JsonObject view, String kind, JsonArray to) {
    String text = view.getString("text", "");
    return new JsonObject().put("message", view.getLong("id")).put("conversation", view.getLong("conversation"))
        .put("seq", view.getLong("seq")).put("kind", kind).put("from", view.getLong("sender")).put("to", to)
        .put("preview", text.length() > PREVIEW ? text.substring(0, text.offsetByCodePoints(0,
            Math.min(PREVIEW, text.codePointCount(0, text.length())))) : text);
  }

  private void appendSent(JsonObject view, JsonObject event) {
    platform.events().append(MessagingEvents.DOMAIN, MessagingEvents.MESSAGE_SENT, event)
        .onFailure(e -> LOG.error("Message {} is stored but MessageSent could not be appended: {}",
            view.getLong("id"), e.getMessage()));
  }

  static JsonObject view(JsonObject doc) {
    JsonObject view = doc.copy();
    view.put("id", view.remove("_id"));
    view.remove("recalled_at");
    return view;
  }

  // ------------------------------------------------------------------ conversations

  /** The conversation if the actor is part of it, else {@code conversation_not_found}. */
  private Future<JsonObject> mine(long actor, long conversation) {
    if (conversation <= 0) {
      return Failures.fail(MessagingErrors.CONVERSATION_NOT_FOUND, "no such conversation");
    }
    return conversations.byId(conversation).compose(conv -> conv != null && conv.getJsonArray("members", new JsonArray())
        .contains(actor) ? Future.succeededFuture(conv)
        : Failures.fail(MessagingErrors.CONVERSATION_NOT_FOUND, "no such conversation"));
  }

  private static long peerOf(JsonObject conv, long actor) {
    for (Object m : conv.getJsonArray("members")) {
      long id = ((Number) m).longValue();
      if (id != actor) {
        return id;
      }
    }
    return actor;
  }

  @Override
  public Future<JsonObject> conversations(long actor, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = limit(q, 20);
      Long beforeUpdated = null;
      Long beforeConversation = null;
      Object before = q.getValue("before");
      if (before != null) {
        // "<updated>_<conversation>"; a dot (the first format) is still read
        String[] parts = String.valueOf(before).split("[._]");
        try {
          if (parts.length != 2) {
            throw new NumberFormatException();
          }
          beforeUpdated = Long.parseLong(parts[0]);
          beforeConversation = Long.parseLong(parts[1]);
        } catch (NumberFormatException e) {
          return Failures.failField(KithErrors.VALIDATION_FAILED, "before", "before must be the next of a previous page");
        }
      }
      return conversations.recent(actor, beforeUpdated, beforeConversation, limit + 1).compose(members -> {
        boolean more = members.size() > limit;
        List<JsonObject> page = more ? members.subList(0, limit) : members;
        if (page.isEmpty()) {
          return Future.succeededFuture(new JsonObject().put("items", new JsonArray()).putNull("next"));
        }
        List<Long> ids = page.stream().map(m -> m.getLong("conversation")).toList();
        List<Long> peers = page.stream().map(m -> m.getLong("peer")).filter(p -> p != null).distinct().toList();
        Future<List<JsonObject>> convs = conversations.byIds(ids);
        Future<JsonObject> summaries = peers.isEmpty() ? Future.succeededFuture(new JsonObject())
            : accounts.summaries(actor, peers);
        Future<Map<Long, Long>> peerReads = peerReads(actor, page.stream().filter(m -> m.getLong("peer") != null)
            .collect(java.util.stream.Collectors.toMap(m -> m.getLong("conversation"), m -> m.getLong("peer"),
                (a, b) -> a)));
        return Future.all(convs, summaries, peerReads).compose(v -> {
          Map<Long, JsonObject> byId = new HashMap<>();
          convs.result().forEach(c -> byId.put(c.getLong("_id"), c));
          List<Future<JsonObject>> items = new ArrayList<>();
          for (JsonObject m : page) {
            JsonObject conv = byId.get(m.getLong("conversation"));
            // the conversation's members array is the authority: a member document left behind by a race (a join
            // rewriting it while a kick removed the user) must not list a group the user is no longer in
            if (conv != null && conv.getJsonArray("members", new JsonArray()).contains(actor)) {
              items.add(conversationView(actor, conv, m, summaries.result(),
                  peerReads.result().get(m.getLong("conversation"))));
            }
          }
          return Future.all(items).map(all -> {
            JsonObject last = page.get(page.size() - 1);
            return new JsonObject().put("items", new JsonArray(all.list()))
                .put("next", more ? last.getLong("updated") + "_" + last.getLong("conversation") : null);
          });
        });
      });
    });
  }

  @Override
  public Future<JsonObject> directConversation(long actor, long userId) {
    return conversations.findDirect(actor, userId).compose(conv -> conv == null || actor == userId
        ? Failures.fail(MessagingErrors.CONVERSATION_NOT_FOUND, "no conversation with this user yet")
        : conversation(actor, conv.getLong("_id")));
  }

  @Override
  public Future<JsonObject> conversation(long actor, long conversationId) {
    return mine(actor, conversationId).compose(conv -> {
      Future<JsonObject> member = conversations.member(conversationId, actor);
      Future<JsonObject> summaries = isGroup(conv) ? Future.succeededFuture(new JsonObject())
          : accounts.summaries(actor, List.of(peerOf(conv, actor)));
      Future<Map<Long, Long>> peerReads = isGroup(conv) ? Future.succeededFuture(Map.of())
          : peerReads(actor, Map.of(conversationId, peerOf(conv, actor)));
      return Future.all(member, summaries, peerReads).compose(v -> conversationView(actor, conv,
          member.result() == null ? new JsonObject() : member.result(), summaries.result(),
          peerReads.result().get(conversationId)));
    });
  }

  private static boolean isGroup(JsonObject conv) {
    return "group".equals(conv.getString("kind"));
  }

  /**
   * The read markers of the peers of these direct conversations (conversation id to peer), as the actor may see them:
   * none for a peer who turned read receipts off or who is in a block with the actor either way
   * ({@link #receiptsShown}, as for {@link #messageReaders}). One query for the markers. None at all when they cannot
   * be read (logged): the view still answers.
   */
  private Future<Map<Long, Long>> peerReads(long actor, Map<Long, Long> peerOfConversation) {
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
            && !blockedEitherWay(ties.result().getJsonObject(Long.toString(u), new JsonObject()))) {
          shown.add(u);
        }
      }
      return shown;
    });
  }

  /** Whether a {@code ties} entry shows a block either way. */
  private static boolean blockedEitherWay(JsonObject tie) {
    return tie.getBoolean("blocking", false) || tie.getBoolean("blocked_by", false);
  }

  private Future<JsonObject> conversationView(long actor, JsonObject conv, JsonObject member, JsonObject summaries,
                                              Long peerReadSeq) {
    long readSeq = member.getLong("read_seq", 0L);
    long id = conv.getLong("_id");
    JsonObject view = new JsonObject().put("id", id).put("kind", conv.getString("kind"));
    if (isGroup(conv)) {
      view.put("group", Groups.summary(conv, member, actor));
    } else {
      long peer = peerOf(conv, actor);
      view.put("peer", summaries.getJsonObject(Long.toString(peer), new JsonObject().put("id", peer)));
      view.put("peer_read_seq", peerReadSeq);
    }
    return messages.unread(id, actor, readSeq).map(unread -> view
        .put("last_message", conv.getJsonObject("last_message"))
        .put("last_seq", conv.getLong("last_seq", 0L))
        .put("read_seq", readSeq)
        .put("unread", unread)
        .put("updated", member.getLong("updated", conv.getLong("updated"))));
  }

  // ------------------------------------------------------------------ history

  @Override
  public Future<JsonObject> history(long actor, long conversationId, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = limit(q, 50);
      Long after = cursor(q, "after_seq");
      Long before = cursor(q, "before_seq");
      if (after != null && before != null) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "after_seq", "give after_seq or before_seq, not both");
      }
      return mine(actor, conversationId).compose(conv -> {
        long lastSeq = conv.getLong("last_seq", 0L);
        Future<List<JsonObject>> page = after != null
            ? afterPage(conversationId, after, limit, lastSeq)
            : beforePage(conversationId, before, limit, lastSeq);
        return page.map(items -> new JsonObject().put("items", new JsonArray(settled(items, after)))
            .put("last_seq", lastSeq));
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
      return messages.range(conversation, after, null, limit, true).map(MessagingServiceImpl::views);
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
        List<JsonObject> views = views(docs);
        Collections.reverse(views);
        return views;
      });
    });
  }

  private static List<JsonObject> views(List<JsonObject> docs) {
    return new ArrayList<>(docs.stream().map(MessagingServiceImpl::view).toList());
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

  private static int limit(JsonObject q, int dflt) {
    Object raw = q.getValue("limit");
    if (raw == null) {
      return dflt;
    }
    if (!(raw instanceof Number) || ((Number) raw).longValue() < 1 || ((Number) raw).longValue() > 100) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "limit", "limit must be between 1 and 100");
    }
    return ((Number) raw).intValue();
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

  // ------------------------------------------------------------------ read markers, recall, typing

  @Override
  public Future<JsonObject> markRead(long actor, long conversationId, long seq) {
    if (seq < 0) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "seq", "seq must be a sequence number (0 or more)");
    }
    Future<Void> admitted = limiter.enforce("rl:messaging:read:" + actor, 60_000L, settings.readsPerMinute(),
        "too many read markers; at most " + settings.readsPerMinute() + " per minute");
    return admitted.compose(v -> mine(actor, conversationId)).compose(conv -> {
      long target = Math.min(seq, conv.getLong("last_seq", 0L));
      return conversations.markRead(conversationId, actor, target).compose(member -> {
        if (member == null) {
          // removed (a kick, a leave) between the membership check and the marker's update
          return Failures.fail(MessagingErrors.CONVERSATION_NOT_FOUND, "no such conversation");
        }
        long before = member.getLong("read_seq", 0L);
        long readSeq = Math.max(before, target);
        if (readSeq > before) {
          platform.events().append(MessagingEvents.DOMAIN, MessagingEvents.CONVERSATION_READ, new JsonObject()
                  .put("conversation", conversationId).put("user", actor).put("seq", readSeq)
                  .put("kind", isGroup(conv) ? "group" : "direct"))
              .onFailure(e -> LOG.warn("Conversation {} read by {} to {}: ConversationRead not appended: {}",
                  conversationId, actor, readSeq, e.getMessage()));
        }
        return messages.unread(conversationId, actor, readSeq).compose(unread -> {
          JsonObject answer = new JsonObject().put("conversation", conversationId).put("read_seq", readSeq)
              .put("unread", unread);
          JsonObject push = new JsonObject().put("kind", Messaging.PUSH_READ).put("conversation", conversationId)
              .put("user", actor).put("seq", readSeq);
          platform.vertx().eventBus().publish(Addresses.user(actor), push);
          if (isGroup(conv)) {
            // groups have no read receipts: only the reader's own connections move their marker
            return Future.succeededFuture(answer);
          }
          return settingsOf(actor).map(mine -> {
            if (mine.getBoolean("read_receipts", true)) {
              platform.vertx().eventBus().publish(Addresses.user(peerOf(conv, actor)), push);
            }
            return answer;
          });
        });
      });
    });
  }

  @Override
  public Future<JsonObject> recall(long actor, long messageId) {
    return messages.byId(messageId).compose(doc -> {
      if (doc == null) {
        return Failures.fail(MessagingErrors.MESSAGE_NOT_FOUND, "no such message");
      }
      return mine(actor, doc.getLong("conversation"))
          .recover(e -> Failures.fail(MessagingErrors.MESSAGE_NOT_FOUND, "no such message"))
          .compose(conv -> {
            if (doc.getLong("sender") != actor) {
              return Failures.fail(MessagingErrors.NOT_YOUR_MESSAGE, "you can recall only your own messages");
            }
            if (doc.getBoolean("recalled", false)) {
              return Future.succeededFuture(view(doc));
            }
            long now = System.currentTimeMillis();
            if (now - doc.getLong("created") > settings.recallSeconds() * 1000L) {
              return Failures.fail(MessagingErrors.RECALL_WINDOW_PASSED,
                  "a message can be recalled within " + settings.recallSeconds() + " seconds of sending");
            }
            return messages.recall(messageId, now).compose(after -> {
              if (after == null) {
                return messages.byId(messageId).map(MessagingServiceImpl::view);
              }
              JsonObject view = view(after);
              return Future.all(window.replace(view).otherwiseEmpty(), conversations.replaceLast(view)).map(v -> {
                JsonObject push = new JsonObject().put("kind", Messaging.PUSH_RECALLED)
                    .put("conversation", view.getLong("conversation")).put("seq", view.getLong("seq"))
                    .put("id", messageId);
                if (isGroup(conv)) {
                  platform.vertx().eventBus().publish(Addresses.room(Messaging.groupRoom(conv.getLong("_id"))), push);
                } else {
                  platform.vertx().eventBus().publish(Addresses.user(view.getLong("to")), push);
                  platform.vertx().eventBus().publish(Addresses.user(actor), push);
                }
                return view;
              });
            });
          });
    });
  }

  @Override
  public Future<JsonObject> messageReaders(long actor, long messageId, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = limit(q, 50);
      Object rawAfter = q.getValue("after");
      if (rawAfter != null && (!(rawAfter instanceof Number n) || n.longValue() < 0)) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "after", "after must be the next of the previous page");
      }
      long after = rawAfter == null ? 0 : ((Number) rawAfter).longValue();
      return messages.byId(messageId).compose(doc -> {
        if (doc == null) {
          return Failures.fail(MessagingErrors.MESSAGE_NOT_FOUND, "no such message");
        }
        long conversation = doc.getLong("conversation");
        return mine(actor, conversation)
            .recover(e -> MessagingErrors.CONVERSATION_NOT_FOUND.code().equals(Failures.codeOf(e))
                ? Failures.fail(MessagingErrors.MESSAGE_NOT_FOUND, "no such message") : Future.failedFuture(e))
            .compose(conv -> {
              if (doc.getLong("sender") != actor) {
                return Failures.fail(MessagingErrors.NOT_YOUR_MESSAGE, "only its sender sees who read a message");
              }
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
            })
            .compose(shown -> {
              if (shown.isEmpty()) {
                return Future.succeededFuture(new JsonObject().put("read_count", 0L).put("items", new JsonArray())
                    .putNull("next"));
              }
              long seq = doc.getLong("seq");
              // a member who joined after the message was sent never saw it, whatever their marker says
              long sent = doc.getLong("created");
              Future<Long> count = conversations.readerCount(conversation, seq, sent, shown);
              Future<List<Long>> page = conversations.readers(conversation, seq, sent, shown, after, limit + 1);
              return Future.all(count, page).compose(v -> {
                boolean more = page.result().size() > limit;
                List<Long> ids = more ? page.result().subList(0, limit) : page.result();
                Future<JsonObject> people = ids.isEmpty() ? Future.succeededFuture(new JsonObject())
                    : accounts.summaries(actor, ids);
                return people.map(found -> {
                  JsonArray items = new JsonArray();
                  ids.forEach(id -> items.add(new JsonObject().put("user",
                      found.getJsonObject(Long.toString(id), new JsonObject().put("id", id)))));
                  return new JsonObject().put("read_count", count.result()).put("items", items)
                      .put("next", more ? ids.get(ids.size() - 1) : null);
                });
              });
            });
      });
    });
  }

  @Override
  public Future<Void> typing(long actor, long conversationId) {
    // one indicator per user and conversation per typing-interval-millis: more are dropped silently (typing is
    // ephemeral: the one delivered says as much), so a client need not handle an error for them
    return mine(actor, conversationId).compose(conv -> limiter.hit("rl:messaging:typing:" + actor + ":"
        + conversationId, settings.typingIntervalMillis()).map(w -> w.count() > 1 ? null : conv)).map(conv -> {
      if (conv == null) {
        return null;
      }
      JsonObject push = new JsonObject().put("kind", Messaging.PUSH_TYPING).put("conversation", conversationId)
          .put("user", actor);
      platform.vertx().eventBus().publish(isGroup(conv) ? Addresses.room(Messaging.groupRoom(conversationId))
          : Addresses.user(peerOf(conv, actor)), push);
      return null;
    });
  }

  // ------------------------------------------------------------------ settings

  private Future<JsonObject> settingsOf(long user) {
    return conversations.settings(user).map(doc -> new JsonObject()
        .put("messages_from", doc == null ? "everyone" : doc.getString("messages_from", "everyone"))
        .put("read_receipts", doc == null || doc.getBoolean("read_receipts", true)));
  }

  @Override
  public Future<JsonObject> settings(long actor) {
    return settingsOf(actor);
  }

  @Override
  public Future<JsonObject> updateSettings(long actor, JsonObject changes) {
    if (changes == null || changes.isEmpty()) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "messages_from",
          "give messages_from and/or read_receipts");
    }
    for (String field : changes.fieldNames()) {
      if (!SETTINGS_FIELDS.contains(field)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, field, "unknown setting " + field);
      }
    }
    Object from = changes.getValue("messages_from");
    if (from != null && !MESSAGES_FROM.contains(String.valueOf(from))) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "messages_from",
          "messages_from must be everyone or friends");
    }
    Object receipts = changes.getValue("read_receipts");
    if (changes.containsKey("read_receipts") && !(receipts instanceof Boolean)) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "read_receipts", "read_receipts must be true or false");
    }
    if (changes.containsKey("messages_from") && from == null) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "messages_from",
          "messages_from must be everyone or friends");
    }
    return conversations.saveSettings(actor, changes.copy()).compose(v -> {
      settingsCache.changed(actor);
      platform.vertx().eventBus().publish(SettingsCache.CHANGED, new JsonObject().put("user", actor));
      return settingsOf(actor);
    });
  }

  // ------------------------------------------------------------------ groups (the rules live in Groups)

  @Override
  public Future<JsonObject> createGroup(long actor, JsonObject spec) {
    return groups.create(actor, spec);
  }

  @Override
  public Future<JsonObject> searchGroups(long actor, JsonObject query) {
    return groups.search(actor, query);
  }

  @Override
  public Future<JsonObject> group(long actor, long groupId) {
    return groups.group(actor, groupId);
  }

  @Override
  public Future<JsonObject> updateGroup(long actor, long groupId, JsonObject changes) {
    return groups.update(actor, groupId, changes);
  }

  @Override
  public Future<Void> dissolveGroup(long actor, long groupId) {
    return groups.dissolve(actor, groupId);
  }

  @Override
  public Future<JsonObject> joinGroup(long actor, long groupId) {
    return groups.join(actor, groupId);
  }

  @Override
  public Future<Void> leaveGroup(long actor, long groupId) {
    return groups.leave(actor, groupId);
  }

  @Override
  public Future<JsonObject> inviteToGroup(long actor, long groupId, List<Long> users) {
    return groups.invite(actor, groupId, users);
  }

  @Override
  public Future<JsonObject> groupMembers(long actor, long groupId, JsonObject query) {
    return groups.members(actor, groupId, query);
  }

  @Override
  public Future<Void> kickMember(long actor, long groupId, long userId) {
    return groups.kick(actor, groupId, userId);
  }

  @Override
  public Future<JsonObject> setMemberRole(long actor, long groupId, long userId, String role) {
    return groups.setRole(actor, groupId, userId, role);
  }

  @Override
  public Future<JsonObject> groupInvitations(long actor, JsonObject query) {
    return groups.invitations(actor, query);
  }

  /** Removes expired group invitations (see {@link Groups#sweepInvitations}); answers how many. */
  Future<Integer> sweepInvitations() {
    return groups.sweepInvitations();
  }

  @Override
  public Future<Void> declineInvitation(long actor, long groupId) {
    return groups.decline(actor, groupId);
  }

  // ------------------------------------------------------------------ rooms and managed groups

  @Override
  public Future<Boolean> mayListen(long userId, String roomId) {
    return groups.mayListen(userId, roomId);
  }

  @Override
  public Future<JsonObject> managedGroup(long owner, String ref, JsonObject spec) {
    return groups.managed(owner, ref, spec);
  }

  @Override
  public Future<Void> setManagedMembers(long owner, long groupId, List<Long> add, List<Long> remove) {
    return groups.setManaged(owner, groupId, add, remove);
  }
}
