package io.kith.notifications.service;

import io.kith.messaging.api.MessagingEvents;
import io.kith.notifications.api.Notifications;
import io.kith.platform.page.Page;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Notifications made from messaging events: messages while offline, chat mentions, group invitations, kicks")
class MessagingNotificationsTest extends NotificationsTestBase {

  private static final String DOMAIN = MessagingEvents.DOMAIN;

  /** A fresh id for a message, conversation or group. */
  private static long fresh() {
    return KithTestKit.newUserId();
  }

  /** The {@code MessageSent} payload of a direct message, as messaging documents it. */
  private static JsonObject direct(long message, long conversation, long from, long to, String preview) {
    return new JsonObject().put("message", message).put("conversation", conversation).put("seq", 1)
        .put("kind", "direct").put("from", from).put("to", new JsonArray().add(to)).put("mentions", new JsonArray())
        .put("preview", preview);
  }

  /** The {@code MessageSent} payload of a group message. */
  private static JsonObject groupMessage(long message, long group, long from, List<Long> to, List<Long> mentions,
                                         String preview) {
    return new JsonObject().put("message", message).put("conversation", group).put("seq", 1).put("kind", "group")
        .put("from", from).put("to", new JsonArray(List.copyOf(to))).put("group", group)
        .put("group_name", "Climbers").put("mentions", new JsonArray(List.copyOf(mentions))).put("preview", preview);
  }

  private void sent(JsonObject payload) throws Exception {
    event(DOMAIN, MessagingEvents.MESSAGE_SENT, payload);
  }

  @Test
  @DisplayName("a direct message tells its recipient when offline, not when online; an invisible but connected "
      + "recipient is online to themselves; the state counts at handling time")
  void offlineOnly() throws Exception {
    List<Long> u = newUsers(4);
    long alice = u.get(0);
    long bob = u.get(1);
    long carol = u.get(2);
    long dave = u.get(3);
    String carolsConnection = "conn-" + UUID.randomUUID();
    await(accountsInternal.connectionChanged(carol, carolsConnection, true));
    await(accounts.setPresenceMode(dave, "invisible"));
    await(accountsInternal.connectionChanged(dave, "conn-" + UUID.randomUUID(), true));
    // the premise: others see dave offline, dave sees himself online
    assertFalse(await(accounts.presence(alice, List.of(dave))).getJsonObject(Long.toString(dave)).getBoolean("online"));
    assertTrue(await(accounts.presence(dave, List.of(dave))).getJsonObject(Long.toString(dave)).getBoolean("online"));

    long toBob = fresh();
    long message = fresh();
    sent(direct(message, toBob, alice, bob, "are you there?"));
    sent(direct(fresh(), fresh(), alice, carol, "hi carol"));
    sent(direct(fresh(), fresh(), alice, dave, "hi dave"));
    drainStream(DOMAIN, bob);
    drainStream(DOMAIN, carol);
    drainStream(DOMAIN, dave);

    List<JsonObject> bobs = all(bob);
    assertEquals(1, bobs.size(), bobs.toString());
    JsonObject n = bobs.get(0);
    assertEquals(Notifications.MESSAGE, n.getString("type"));
    assertEquals(alice, n.getLong("from_user"));
    assertEquals(alice, n.getJsonObject("actor").getLong("id"), "the sender's summary: " + n.encode());
    assertEquals(toBob, n.getLong("conversation"));
    assertEquals(message, n.getLong("message"));
    assertEquals("are you there?", n.getString("preview"));
    assertEquals(1L, n.getLong("count"));
    assertTrue(n.getBoolean("unread"));
    assertEquals(List.of(), all(carol), "carol is online");
    assertEquals(List.of(), all(dave), "dave is invisible but connected");

    // carol closes her connection: the next message finds her offline
    await(accountsInternal.connectionChanged(carol, carolsConnection, false));
    sent(direct(fresh(), fresh(), alice, carol, "gone?"));
    List<JsonObject> carols = awaitNotifications(carol, "carol's message once offline", items -> items.size() == 1);
    assertEquals("gone?", carols.get(0).getString("preview"));
    assertEquals(1L, await(notifications.unreadCounts(carol)).getLong("total"));
  }

  @Test
  @DisplayName("offline messages of one conversation make one notification with the latest preview and a count, "
      + "replaced and pushed as they come; each conversation has its own; after reading, the next one starts over")
  void onePerConversation() throws Exception {
    long bob = fresh();
    long alice = fresh();
    long carol = fresh();
    long withAlice = fresh();
    long withCarol = fresh();
    List<JsonObject> pushed = pushes(bob);
    long m1 = fresh();
    long m2 = fresh();
    long m3 = fresh();
    sent(direct(m1, withAlice, alice, bob, "first"));
    drainStream(DOMAIN, bob);
    JsonObject firstNotification = ofType(all(bob), Notifications.MESSAGE).get(0);
    sent(direct(m2, withAlice, alice, bob, "second"));
    sent(direct(m3, withAlice, alice, bob, "third"));
    sent(direct(fresh(), withCarol, carol, bob, "hello from carol"));
    drainStream(DOMAIN, bob);

    List<JsonObject> messages = ofType(all(bob), Notifications.MESSAGE);
    assertEquals(2, messages.size(), messages.toString());
    JsonObject fromAlice = messages.stream().filter(n -> n.getLong("conversation") == withAlice).findFirst()
        .orElseThrow();
    assertEquals("third", fromAlice.getString("preview"));
    assertEquals(m3, fromAlice.getLong("message"));
    assertEquals(3L, fromAlice.getLong("count"));
    JsonObject fromCarol = messages.stream().filter(n -> n.getLong("conversation") == withCarol).findFirst()
        .orElseThrow();
    assertEquals(1L, fromCarol.getLong("count"));
    assertEquals(carol, fromCarol.getLong("from_user"));
    assertEquals("hello from carol", messages.get(0).getString("preview"), "the newest conversation first");
    assertEquals(2L, await(notifications.unreadCounts(bob)).getJsonObject("by_type").getLong(Notifications.MESSAGE));
    // the new types and fields work in queries
    JsonObject page = await(notifications.list(bob, filters(types(Notifications.MESSAGE)
        .put("where", new JsonObject().put("conversation", withAlice))), pageOf(types(Notifications.MESSAGE)
        .put("where", new JsonObject().put("conversation", withAlice)))).map(Page::toJson));
    assertEquals(1, page.getJsonArray("items").size(), page.encode());

    // pushed: each new one with the id it replaces, then the counts
    await(Poll.until(vertx, WAIT, "the pushes", () -> Future.succeededFuture(pushed.stream()
        .anyMatch(p -> "notification".equals(p.getString("kind"))
            && p.getJsonObject("notification").getLong("id").equals(fromAlice.getLong("id"))))));
    List<JsonObject> aliceNotices = pushed.stream().filter(p -> "notification".equals(p.getString("kind"))
        && Long.valueOf(withAlice).equals(p.getJsonObject("notification").getLong("conversation"))).toList();
    assertEquals(3, aliceNotices.size(), pushed.toString());
    assertNull(aliceNotices.get(0).getJsonArray("replaces"));
    assertEquals(new JsonArray().add(firstNotification.getLong("id")), aliceNotices.get(1).getJsonArray("replaces"));
    assertEquals(2L, aliceNotices.get(1).getJsonObject("notification").getLong("count"));
    assertEquals(aliceNotices.get(1).getJsonObject("notification").getLong("id"),
        aliceNotices.get(2).getJsonArray("replaces").getLong(0));
    assertEquals(3L, aliceNotices.get(2).getJsonObject("notification").getLong("count"));
    JsonObject lastCounts = pushed.stream().filter(p -> "unread".equals(p.getString("kind"))).reduce((a, b) -> b)
        .orElseThrow();
    assertEquals(2L, lastCounts.getJsonObject("counts").getJsonObject("by_type").getLong(Notifications.MESSAGE));

    // the same message appended again (another event id) counts once
    sent(direct(m3, withAlice, alice, bob, "third"));
    drainStream(DOMAIN, bob);
    assertEquals(3L, await(notifications.list(bob, filters(where("conversation", withAlice)),
        pageOf(where("conversation", withAlice))).map(Page::toJson)).getJsonArray("items")
        .getJsonObject(0).getLong("count"));

    // read: the next message makes a fresh one (count 1), still one for the conversation
    await(notifications.markRead(bob, List.of(fromAlice.getLong("id"))));
    sent(direct(fresh(), withAlice, alice, bob, "fourth"));
    drainStream(DOMAIN, bob);
    List<JsonObject> again = all(bob, where("conversation", withAlice));
    assertEquals(1, again.size(), again.toString());
    assertEquals(1L, again.get(0).getLong("count"));
    assertEquals("fourth", again.get(0).getString("preview"));
    assertTrue(again.get(0).getBoolean("unread"));
    assertCountersMatchScan(bob);

    // Redis loses bob's side: a message made meanwhile goes to the record, and the rebuild keeps one per conversation
    await(platform.redisApi().del(List.of(HotStore.countersKey(bob))));
    // (a preview beyond 100 code points is cut there; non-ASCII text survives the record and the rebuild)
    String long150 = "fünf 🎉 " + "x".repeat(142);
    sent(direct(fresh(), withAlice, alice, bob, long150));
    drainStream(DOMAIN, bob);
    List<JsonObject> rebuilt = all(bob, where("conversation", withAlice));
    assertEquals(1, rebuilt.size(), rebuilt.toString());
    assertEquals(long150.substring(0, long150.offsetByCodePoints(0, 100)), rebuilt.get(0).getString("preview"));
    assertEquals(2L, rebuilt.get(0).getLong("count"));
    assertEquals(2, ofType(all(bob), Notifications.MESSAGE).size());
    assertCountersMatchScan(bob);
  }

  @Test
  @DisplayName("a group message tells only the members it mentions, never the sender nor a non-member, and no "
      + "offline member otherwise")
  void mentionsOnly() throws Exception {
    long alice = fresh();
    long bob = fresh();
    long carol = fresh();
    long erin = fresh();
    long group = fresh();
    long message = fresh();
    sent(groupMessage(message, group, alice, List.of(bob, carol), List.of(bob, alice, erin), "hey @bob"));
    for (long user : List.of(alice, bob, carol, erin)) {
      drainStream(DOMAIN, user);
    }
    List<JsonObject> bobs = all(bob);
    assertEquals(1, bobs.size(), bobs.toString());
    JsonObject n = bobs.get(0);
    assertEquals(Notifications.CHAT_MENTION, n.getString("type"));
    assertEquals(alice, n.getLong("from_user"));
    assertEquals(group, n.getLong("group"));
    assertEquals(group, n.getLong("conversation"));
    assertEquals(message, n.getLong("message"));
    assertEquals("Climbers", n.getString("title"));
    assertEquals("hey @bob", n.getString("preview"));
    assertEquals(List.of(), all(carol), "carol is offline but not mentioned");
    assertEquals(List.of(), all(erin), "erin is not a member");
    assertEquals(List.of(), all(alice), "the sender");
    assertEquals(0L, await(notifications.unreadCounts(bob)).getJsonObject("by_type").getLong(Notifications.MENTION));
  }

  @Test
  @DisplayName("muted chat types and muted senders produce nothing; a block either way stops messages, mentions "
      + "and invitations")
  void preferencesAndBlocks() throws Exception {
    long alice = fresh();
    long bob = fresh();
    long carol = fresh();
    long dave = fresh();
    await(notifications.setPreferences(bob, new JsonObject().put("muted_types",
        new JsonArray().add(Notifications.CHAT_MENTION).add(Notifications.MESSAGE))));
    await(notifications.muteUser(carol, alice));
    long group = fresh();
    sent(groupMessage(fresh(), group, alice, List.of(bob, carol, dave), List.of(bob, carol, dave), "all of you"));
    sent(direct(fresh(), fresh(), alice, bob, "muted type"));
    sent(direct(fresh(), fresh(), alice, carol, "muted sender"));
    sent(direct(fresh(), fresh(), dave, carol, "from dave"));
    for (long user : List.of(bob, carol, dave)) {
      drainStream(DOMAIN, user);
    }
    assertEquals(List.of(), all(bob));
    List<JsonObject> carols = all(carol);
    assertEquals(1, carols.size(), carols.toString());
    assertEquals(dave, carols.get(0).getLong("from_user"));
    assertEquals(1, count(all(dave), Notifications.CHAT_MENTION), "dave muted nothing");

    List<Long> u = newUsers(3);
    long erin = u.get(0);
    long frank = u.get(1);
    long gina = u.get(2);
    await(relations.block(frank, erin));
    await(relations.block(erin, gina));
    // erin -> frank (frank blocked erin), erin -> gina (erin blocked gina), both ways each kind
    sent(direct(fresh(), fresh(), erin, frank, "blocked"));
    sent(direct(fresh(), fresh(), gina, erin, "blocked"));
    sent(groupMessage(fresh(), fresh(), erin, List.of(frank, gina), List.of(frank, gina), "blocked"));
    event(DOMAIN, MessagingEvents.GROUP_INVITED, new JsonObject().put("group", fresh()).put("name", "g")
        .put("kind", "friends").put("by", erin).put("invited", new JsonArray().add(frank).add(gina)));
    // the control: no block between gina and frank
    sent(direct(fresh(), fresh(), gina, frank, "not blocked"));
    for (long user : List.of(erin, frank, gina)) {
      drainStream(DOMAIN, user);
    }
    assertEquals(List.of(), all(erin));
    assertEquals(List.of(), all(gina));
    List<JsonObject> franks = all(frank);
    assertEquals(1, franks.size(), franks.toString());
    assertEquals(gina, franks.get(0).getLong("from_user"));
  }

  @Test
  @DisplayName("an invitation tells each invited user until they join; a kick tells the removed user and takes their "
      + "mentions of the group; dissolving takes the rest")
  void invitationsAndKicks() throws Exception {
    long alice = fresh();
    long bob = fresh();
    long carol = fresh();
    long group = fresh();
    event(DOMAIN, MessagingEvents.GROUP_INVITED, new JsonObject().put("group", group).put("name", "Climbers")
        .put("kind", "friends").put("by", alice).put("invited", new JsonArray().add(bob).add(carol)));
    for (long user : List.of(bob, carol)) {
      List<JsonObject> got = awaitNotifications(user, "the invitation", items ->
          count(items, Notifications.GROUP_INVITATION) == 1);
      JsonObject n = got.get(0);
      assertEquals(alice, n.getLong("from_user"));
      assertEquals(group, n.getLong("group"));
      assertEquals("Climbers", n.getString("title"));
    }
    // the same invitation again (another event id) changes nothing
    event(DOMAIN, MessagingEvents.GROUP_INVITED, new JsonObject().put("group", group).put("name", "Climbers")
        .put("kind", "friends").put("by", alice).put("invited", new JsonArray().add(bob)));
    drainStream(DOMAIN, bob);
    assertEquals(1, all(bob).size());
    event(DOMAIN, MessagingEvents.GROUP_JOINED, new JsonObject().put("group", group).put("name", "Climbers")
        .put("kind", "friends").put("user", bob).put("via", "invitation"));
    drainStream(DOMAIN, bob);
    assertEquals(List.of(), all(bob), "the invitation is answered");

    sent(groupMessage(fresh(), group, alice, List.of(bob), List.of(bob), "@bob"));
    awaitNotifications(bob, "the mention", items -> count(items, Notifications.CHAT_MENTION) == 1);
    event(DOMAIN, MessagingEvents.MEMBER_KICKED, new JsonObject().put("group", group).put("name", "Climbers")
        .put("kind", "friends").put("by", alice).put("user", bob));
    List<JsonObject> bobs = awaitNotifications(bob, "the kick, and the mention gone", items -> items.size() == 1
        && count(items, Notifications.MEMBER_KICKED) == 1);
    assertEquals(alice, bobs.get(0).getLong("from_user"));
    assertEquals(group, bobs.get(0).getLong("group"));
    assertEquals("Climbers", bobs.get(0).getString("title"));
    assertEquals(1, count(all(carol), Notifications.GROUP_INVITATION), "carol's invitation stands");

    event(DOMAIN, MessagingEvents.GROUP_DISSOLVED, new JsonObject().put("group", group).put("name", "Climbers")
        .put("kind", "friends").put("by", alice).put("members", new JsonArray().add(alice)));
    awaitNotifications(carol, "the dissolved group's invitation gone", List::isEmpty);
    assertEquals(1, count(all(bob), Notifications.MEMBER_KICKED), "the kick stays");
    assertCountersMatchScan(bob);
    assertCountersMatchScan(carol);
  }

  /** A direct message of {@code conversation} at sequence {@code seq}. */
  private static JsonObject direct(long message, long conversation, long seq, long from, long to, String preview) {
    return direct(message, conversation, from, to, preview).put("seq", seq);
  }

  private void read(long conversation, long user, long seq, String kind) throws Exception {
    event(DOMAIN, MessagingEvents.CONVERSATION_READ, new JsonObject().put("conversation", conversation)
        .put("user", user).put("seq", seq).put("kind", kind));
  }

  private JsonObject only(long user, JsonObject query) throws Exception {
    List<JsonObject> found = all(user, query);
    assertEquals(1, found.size(), found.toString());
    return found.get(0);
  }

  @Test
  @DisplayName("reading a conversation marks its message notification and its mentions up to the read seq read, "
      + "pushes the counts, and leaves newer messages, other conversations and other users alone")
  void conversationRead() throws Exception {
    long bob = fresh();
    long dave = fresh();
    long alice = fresh();
    long carol = fresh();
    long withAlice = fresh();
    long withCarol = fresh();
    long climbers = fresh();
    long runners = fresh();
    sent(direct(fresh(), withAlice, 1, alice, bob, "one"));
    sent(direct(fresh(), withAlice, 2, alice, bob, "two"));
    sent(direct(fresh(), withAlice, 3, alice, bob, "three"));
    sent(direct(fresh(), withCarol, 7, carol, bob, "from carol"));
    long m4 = fresh();
    long m6 = fresh();
    sent(groupMessage(m4, climbers, alice, List.of(bob, dave), List.of(bob, dave), "@bob @dave").put("seq", 4));
    sent(groupMessage(m6, climbers, alice, List.of(bob, dave), List.of(bob), "@bob again").put("seq", 6));
    sent(groupMessage(fresh(), runners, alice, List.of(bob), List.of(bob), "@bob runs").put("seq", 2));
    drainStream(DOMAIN, bob);
    drainStream(DOMAIN, dave);
    JsonObject counts = await(notifications.unreadCounts(bob));
    assertEquals(5L, counts.getLong("total"), counts.encode());
    assertEquals(3L, only(bob, where("conversation", withAlice)).getLong("seq"), "the latest message's seq");

    // read up to 2: the conversation's notification stands for message 3 too, so it stays unread
    read(withAlice, bob, 2, "direct");
    drainStream(DOMAIN, bob);
    assertTrue(only(bob, where("conversation", withAlice)).getBoolean("unread"));
    List<JsonObject> pushed = pushes(bob);
    read(withAlice, bob, 3, "direct");
    await(Poll.until(vertx, WAIT, "the counts pushed after the read", () -> Future.succeededFuture(pushed.stream()
        .anyMatch(p -> Notifications.PUSH_UNREAD.equals(p.getString("kind"))
            && p.getJsonObject("counts").getLong("total") == 4
            && p.getJsonObject("counts").getJsonObject("by_type").getLong(Notifications.MESSAGE) == 1))));
    drainStream(DOMAIN, bob);
    JsonObject fromAlice = only(bob, where("conversation", withAlice));
    assertFalse(fromAlice.getBoolean("unread"), fromAlice.encode());
    assertEquals(3L, fromAlice.getLong("count"), "read, not replaced");
    assertTrue(only(bob, where("conversation", withCarol)).getBoolean("unread"), "another conversation");

    // a group read up to 5: the mention at 4 is read, the one at 6 and the other group's are not; dave's stays
    read(climbers, bob, 5, "group");
    drainStream(DOMAIN, bob);
    assertFalse(only(bob, where("message", m4)).getBoolean("unread"));
    assertTrue(only(bob, where("message", m6)).getBoolean("unread"));
    assertTrue(only(bob, where("conversation", runners)).getBoolean("unread"));
    assertTrue(only(dave, where("message", m4)).getBoolean("unread"), "another user's mention of the same message");
    counts = await(notifications.unreadCounts(bob));
    assertEquals(3L, counts.getLong("total"), counts.encode());
    assertEquals(1L, counts.getJsonObject("by_type").getLong(Notifications.MESSAGE));
    assertEquals(2L, counts.getJsonObject("by_type").getLong(Notifications.CHAT_MENTION));
    assertEquals(1L, await(notifications.unreadCounts(dave)).getLong("total"));
    assertCountersMatchScan(bob);

    // the same read again changes nothing; a new message starts the conversation's count over
    read(climbers, bob, 5, "group");
    sent(direct(fresh(), withAlice, 4, alice, bob, "four"));
    drainStream(DOMAIN, bob);
    JsonObject again = only(bob, where("conversation", withAlice));
    assertTrue(again.getBoolean("unread"));
    assertEquals(1L, again.getLong("count"));
    assertEquals(4L, await(notifications.unreadCounts(bob)).getLong("total"));

    // Redis lost bob's side: the read rebuilds it and marks in both stores
    await(platform.redisApi().del(List.of(HotStore.countersKey(bob))));
    read(climbers, bob, 6, "group");
    drainStream(DOMAIN, bob);
    assertFalse(only(bob, where("message", m6)).getBoolean("unread"));
    assertEquals(3L, await(notifications.unreadCounts(bob)).getLong("total"));
    assertCountersMatchScan(bob);
    assertCountersMatchScan(dave);
  }

  @Test
  @DisplayName("a message notification made without a seq is read by any read of its conversation; a mention "
      + "without one is left unread")
  void conversationReadWithoutSeq() throws Exception {
    long bob = fresh();
    long alice = fresh();
    long direct = fresh();
    long group = fresh();
    sent(direct(fresh(), direct, alice, bob, "no seq").putNull("seq"));
    JsonObject mention = groupMessage(fresh(), group, alice, List.of(bob), List.of(bob), "@bob");
    mention.remove("seq");
    sent(mention);
    drainStream(DOMAIN, bob);
    assertNull(only(bob, where("conversation", direct)).getLong("seq"));
    read(direct, bob, 1, "direct");
    read(group, bob, 1_000, "group");
    drainStream(DOMAIN, bob);
    assertFalse(only(bob, where("conversation", direct)).getBoolean("unread"));
    assertTrue(only(bob, where("conversation", group)).getBoolean("unread"), "its position is unknown");
    assertCountersMatchScan(bob);
  }

  @Test
  @DisplayName("declining an invitation, or its expiry, takes it back; the user's other invitations and other "
      + "invitees' stay")
  void invitationDeclined() throws Exception {
    long alice = fresh();
    long bob = fresh();
    long carol = fresh();
    long climbers = fresh();
    long runners = fresh();
    event(DOMAIN, MessagingEvents.GROUP_INVITED, new JsonObject().put("group", climbers).put("name", "Climbers")
        .put("kind", "friends").put("by", alice).put("invited", new JsonArray().add(bob).add(carol)));
    event(DOMAIN, MessagingEvents.GROUP_INVITED, new JsonObject().put("group", runners).put("name", "Runners")
        .put("kind", "friends").put("by", alice).put("invited", new JsonArray().add(bob)));
    awaitNotifications(bob, "both invitations", items -> count(items, Notifications.GROUP_INVITATION) == 2);
    awaitNotifications(carol, "carol's invitation", items -> count(items, Notifications.GROUP_INVITATION) == 1);
    drainStream(DOMAIN, bob);
    List<JsonObject> pushed = pushes(bob);

    event(DOMAIN, MessagingEvents.INVITATION_DECLINED, new JsonObject().put("group", climbers).put("user", bob));
    await(Poll.until(vertx, WAIT, "the counts pushed after declining", () -> Future.succeededFuture(pushed.stream()
        .anyMatch(p -> Notifications.PUSH_UNREAD.equals(p.getString("kind"))
            && p.getJsonObject("counts").getLong("total") == 1))));
    drainStream(DOMAIN, bob);
    JsonObject left = only(bob, new JsonObject());
    assertEquals(runners, left.getLong("group"));
    assertEquals(1L, await(notifications.unreadCounts(bob)).getLong("total"));
    assertEquals(climbers, only(carol, new JsonObject()).getLong("group"), "carol's invitation stands");

    // declined again (a redelivery, or a second decline): nothing else goes
    event(DOMAIN, MessagingEvents.INVITATION_DECLINED, new JsonObject().put("group", climbers).put("user", bob));
    drainStream(DOMAIN, bob);
    assertEquals(runners, only(bob, new JsonObject()).getLong("group"));

    // the other invitation expires: its notification goes too, carol's of the first group stays
    event(DOMAIN, MessagingEvents.INVITATION_EXPIRED, new JsonObject().put("group", runners).put("user", bob)
        .put("expired_at", System.currentTimeMillis()));
    drainStream(DOMAIN, bob);
    assertEquals(List.of(), all(bob));
    assertEquals(0L, await(notifications.unreadCounts(bob)).getLong("total"));
    assertEquals(climbers, only(carol, new JsonObject()).getLong("group"), "carol's invitation stands");

    // invited again: a new notification; an expiry of the older invitation handled after it leaves it alone
    long beforeRenewal = System.currentTimeMillis() - 1;
    event(DOMAIN, MessagingEvents.GROUP_INVITED, new JsonObject().put("group", runners).put("name", "Runners")
        .put("kind", "friends").put("by", alice).put("invited", new JsonArray().add(bob)));
    event(DOMAIN, MessagingEvents.INVITATION_EXPIRED, new JsonObject().put("group", runners).put("user", bob)
        .put("expired_at", beforeRenewal));
    drainStream(DOMAIN, bob);
    assertEquals(runners, only(bob, new JsonObject()).getLong("group"));

    // carol read her invitation, which expired unnoticed; invited again, she gets a new, unread one in its place
    long old = only(carol, new JsonObject()).getLong("id");
    await(notifications.markAllRead(carol));
    event(DOMAIN, MessagingEvents.GROUP_INVITED, new JsonObject().put("group", climbers).put("name", "Climbers")
        .put("kind", "friends").put("by", alice).put("invited", new JsonArray().add(carol)));
    drainStream(DOMAIN, carol);
    JsonObject renewed = only(carol, new JsonObject());
    assertEquals(climbers, renewed.getLong("group"));
    assertTrue(renewed.getLong("id") != old, "a new notification");
    assertTrue(renewed.getBoolean("unread"));
    assertCountersMatchScan(bob);
    assertCountersMatchScan(carol);
  }

  @Test
  @DisplayName("malformed and unknown messaging events are skipped and acknowledged; the consumer goes on")
  void malformed() throws Exception {
    long bob = fresh();
    long alice = fresh();
    String group = MessagingProducers.GROUP;
    List<String> entries = List.of(
        rawEntry(DOMAIN, fresh(), "Nonsense", new JsonObject().put("to", bob).encode()),
        rawEntry(DOMAIN, fresh(), MessagingEvents.MESSAGE_SENT, "{not json"),
        rawEntry(DOMAIN, fresh(), MessagingEvents.MESSAGE_SENT, direct(fresh(), fresh(), alice, bob, "x")
            .put("message", "12").encode()),
        rawEntry(DOMAIN, fresh(), MessagingEvents.MESSAGE_SENT, direct(fresh(), fresh(), alice, bob, "x")
            .put("kind", "broadcast").encode()),
        rawEntry(DOMAIN, fresh(), MessagingEvents.MESSAGE_SENT, direct(fresh(), fresh(), alice, bob, "x")
            .put("to", "everyone").put("preview", 42).encode()),
        rawEntry(DOMAIN, fresh(), MessagingEvents.MESSAGE_SENT, direct(fresh(), -5, alice, bob, "x").encode()),
        rawEntry(DOMAIN, fresh(), MessagingEvents.GROUP_INVITED, new JsonObject().put("group", 1.5).put("by", alice)
            .put("invited", new JsonArray().add(bob)).encode()),
        rawEntry(DOMAIN, fresh(), MessagingEvents.MEMBER_KICKED, new JsonObject().put("group", fresh())
            .put("user", bob).encode()),
        rawEntry(DOMAIN, fresh(), MessagingEvents.GROUP_DISSOLVED, "[]"),
        rawEntry(DOMAIN, fresh(), MessagingEvents.CONVERSATION_READ, new JsonObject().put("conversation", fresh())
            .put("user", bob).put("kind", "direct").encode()),
        rawEntry(DOMAIN, fresh(), MessagingEvents.CONVERSATION_READ, new JsonObject().put("conversation", "x")
            .put("user", bob).put("seq", 3).encode()),
        rawEntry(DOMAIN, fresh(), MessagingEvents.INVITATION_DECLINED, new JsonObject().put("group", fresh())
            .encode()),
        rawEntry(DOMAIN, fresh(), MessagingEvents.INVITATION_EXPIRED, new JsonObject().put("group", fresh())
            .put("user", bob).encode()));
    // junk entries among valid recipients are dropped, the valid ones are told
    sent(direct(fresh(), fresh(), alice, bob, "valid").put("to", new JsonArray().add("bob").add(-1).add(bob)));
    drainStream(DOMAIN, bob);
    List<JsonObject> bobs = all(bob);
    assertEquals(1, bobs.size(), bobs.toString());
    assertEquals("valid", bobs.get(0).getString("preview"));
    for (String entry : entries) {
      assertFalse(pending(DOMAIN, group, entry), "entry " + entry + " acknowledged");
      assertFalse(deadLettered(DOMAIN, group, entry), "entry " + entry + " not dead-lettered");
    }
  }
}
