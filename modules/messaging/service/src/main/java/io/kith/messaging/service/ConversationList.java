package io.kith.messaging.service;

import io.kith.accounts.api.UserSummaries;
import io.kith.accounts.api.AccountsService;
import io.kith.messaging.api.MessagingErrors;
import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The actor's conversations, most recently active first, and one conversation's view: the peer (direct) or the group
 * summary, the last message, the actor's marker and unread count, and the peer's marker where it is shown.
 */
final class ConversationList {

  private final ConversationStore conversations;
  private final MessageStore messages;
  private final AccountsService accounts;
  private final Conversations access;
  private final Receipts receipts;

  ConversationList(ConversationStore conversations, MessageStore messages, AccountsService accounts,
                   Conversations access, Receipts receipts) {
    this.conversations = conversations;
    this.messages = messages;
    this.accounts = accounts;
    this.access = access;
    this.receipts = receipts;
  }

  /** One page of member documents, what it needs looked up, and whether there are more. */
  private record Page(List<JsonObject> members, boolean more, Future<List<JsonObject>> convs,
                      Future<JsonObject> summaries, Future<Map<Long, Long>> peerReads) {
  }

  Future<JsonObject> conversations(long actor, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = GroupInput.limit(q, "limit", 20, 100);
      // "<updated>_<conversation>"; a dot (the first format) is still read
      long[] before = GroupInput.cursor(q, "before");
      return conversations.recent(actor, before == null ? null : before[0], before == null ? null : before[1],
          limit + 1).compose(members -> page(actor, members, limit));
    });
  }

  /** The views of these member documents of {@code actor} (an export's page), in their order. */
  Future<List<JsonObject>> views(long actor, List<JsonObject> members) {
    return page(actor, members, members.size()).map(body -> body.getJsonArray("items").stream()
        .map(JsonObject.class::cast).toList());
  }

  /** Looks up the page's conversations, peers and peer markers at once, then assembles the views. */
  private Future<JsonObject> page(long actor, List<JsonObject> members, int limit) {
    boolean more = members.size() > limit;
    List<JsonObject> page = more ? members.subList(0, limit) : members;
    if (page.isEmpty()) {
      return Future.succeededFuture(new JsonObject().put("items", new JsonArray()).putNull("next"));
    }
    List<Long> ids = page.stream().map(m -> m.getLong("conversation")).toList();
    List<Long> peers = page.stream().map(m -> m.getLong("peer")).filter(p -> p != null).distinct().toList();
    Future<List<JsonObject>> convs = conversations.byIds(ids);
    // one lookup for the page's peers and its last messages' senders, so it waits for the conversations
    Future<JsonObject> summaries = convs.compose(list -> {
      List<Long> people = new ArrayList<>(peers);
      list.forEach(conv -> people.add(lastSender(conv)));
      return UserSummaries.lookup(accounts, actor, people);
    });
    Future<Map<Long, Long>> peerReads = receipts.peerReads(actor, page.stream().filter(m -> m.getLong("peer") != null)
        .collect(Collectors.toMap(m -> m.getLong("conversation"), m -> m.getLong("peer"), (a, b) -> a)));
    Page found = new Page(page, more, convs, summaries, peerReads);
    return Future.all(convs, summaries, peerReads).compose(v -> assemble(actor, found));
  }

  private Future<JsonObject> assemble(long actor, Page found) {
    Map<Long, JsonObject> byId = new HashMap<>();
    found.convs().result().forEach(c -> byId.put(c.getLong("_id"), c));
    List<Future<JsonObject>> items = new ArrayList<>();
    for (JsonObject m : found.members()) {
      JsonObject conv = byId.get(m.getLong("conversation"));
      // the conversation's members array is the authority: a member document left behind by a race (a join
      // rewriting it while a kick removed the user) must not list a group the user is no longer in
      if (conv != null && conv.getJsonArray("members", new JsonArray()).contains(actor)) {
        items.add(conversationView(actor, conv, m, found.summaries().result(),
            found.peerReads().result().get(m.getLong("conversation"))));
      }
    }
    return Future.all(items).map(all -> {
      JsonObject last = found.members().get(found.members().size() - 1);
      return new JsonObject().put("items", new JsonArray(all.list()))
          .put("next", found.more() ? last.getLong("updated") + "_" + last.getLong("conversation") : null);
    });
  }

  Future<JsonObject> directConversation(long actor, long userId) {
    return conversations.findDirect(actor, userId).compose(conv -> conv == null || actor == userId
        ? Failures.fail(MessagingErrors.CONVERSATION_NOT_FOUND, "no conversation with this user yet")
        : conversation(actor, conv.getLong("_id")));
  }

  Future<JsonObject> conversation(long actor, long conversationId) {
    return access.mine(actor, conversationId).compose(conv -> {
      boolean group = Conversations.isGroup(conv);
      Future<JsonObject> member = conversations.member(conversationId, actor);
      List<Long> people = new ArrayList<>();
      people.add(group ? null : Conversations.peerOf(conv, actor));
      people.add(lastSender(conv));
      Future<JsonObject> summaries = UserSummaries.lookup(accounts, actor, people);
      Future<Map<Long, Long>> peerReads = group ? Future.succeededFuture(Map.of())
          : receipts.peerReads(actor, Map.of(conversationId, Conversations.peerOf(conv, actor)));
      return Future.all(member, summaries, peerReads).compose(v -> conversationView(actor, conv,
          member.result() == null ? new JsonObject() : member.result(), summaries.result(),
          peerReads.result().get(conversationId)));
    });
  }

  /** The sender of the conversation's last message, or null when it has none. */
  private static Long lastSender(JsonObject conv) {
    JsonObject last = conv.getJsonObject("last_message");
    return last != null && last.getValue("sender") instanceof Number n ? n.longValue() : null;
  }

  private Future<JsonObject> conversationView(long actor, JsonObject conv, JsonObject member, JsonObject summaries,
                                              Long peerReadSeq) {
    long readSeq = member.getLong("read_seq", 0L);
    long id = conv.getLong("_id");
    JsonObject view = new JsonObject().put("id", id).put("kind", conv.getString("kind"));
    if (Conversations.isGroup(conv)) {
      view.put("group", Groups.summary(conv, member, actor));
    } else {
      long peer = Conversations.peerOf(conv, actor);
      JsonObject summary = UserSummaries.of(summaries, peer);
      // the peer's account was erased (Erasure): its id stays as the conversation's other side, marked deleted
      if (conv.getJsonArray("erased", new JsonArray()).contains(peer)) {
        summary = new JsonObject().put("id", peer).put("deleted", true);
      }
      view.put("peer", summary);
      view.put("peer_read_seq", peerReadSeq);
    }
    JsonObject last = conv.getJsonObject("last_message");
    Long sender = lastSender(conv);
    if (sender != null) {
      last = last.copy().put("sender_summary", UserSummaries.of(summaries, sender));
    }
    JsonObject lastMessage = last;
    return messages.unread(id, actor, readSeq).map(unread -> view
        .put("last_message", lastMessage)
        .put("last_seq", conv.getLong("last_seq", 0L))
        .put("read_seq", readSeq)
        .put("unread", unread)
        .put("updated", member.getLong("updated", conv.getLong("updated"))));
  }
}
