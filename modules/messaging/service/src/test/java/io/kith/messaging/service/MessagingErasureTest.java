package io.kith.messaging.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.messaging.api.WhiteboardErrors;
import io.kith.messaging.api.WhiteboardService;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.Erasures;
import io.kith.platform.page.PageRequest;
import io.kith.platform.testkit.Poll;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A deleted account's messaging data is erased when accounts appends {@code AccountDeleted}: what the user held goes,
 * the others' conversations show a deleted user with counts that equal a recount, groups are left as a leave leaves
 * them, and a second delivery changes nothing.
 */
class MessagingErasureTest extends GroupTestBase {

  private WhiteboardService boards;
  private Erasures erasures;

  @BeforeAll
  void proxies() {
    boards = WhiteboardService.proxy(vertx);
    erasures = new Erasures(platform.mongo());
  }

  /** What the deleted user {@code x} had, with others around. */
  private record World(long x, long a, long b, long c, long u, long direct, long g1, long g2, long g3, long g4,
                       long ownBoard, long othersBoard, long unrelatedConversation, long unrelatedBoard,
                       JsonObject aMessageInG1) {
  }

  private World world() throws Exception {
    List<Long> users = newUsers(5);
    long x = users.get(0);
    long a = users.get(1);
    long b = users.get(2);
    befriend(x, a);
    befriend(x, b);
    befriend(a, b);
    // c is invited by x; u only talks with c
    long c = users.get(3);
    long u = users.get(4);
    befriend(x, c);
    // direct: x and a, x's message last; x and b
    send(x, a, "one");
    JsonObject fromA = send(a, x, "two");
    send(x, a, "three");
    send(b, x, "hello");
    send(x, b, "hi b");
    long direct = fromA.getLong("conversation");
    await(messaging.markRead(x, direct, 2));
    await(messaging.updateSettings(x, new JsonObject().put("read_receipts", false)));
    // g1: x's topic group; a joins first, b later and is made admin: b takes it over
    long g1 = topicGroup(x, "erasure one", "tests").getLong("id");
    await(messaging.joinGroup(a, g1));
    await(messaging.joinGroup(b, g1));
    await(messaging.setMemberRole(x, g1, b, "admin"));
    JsonObject aInG1 = groupSend(a, g1, "from a");
    groupSend(x, g1, "from x");
    await(messaging.markRead(x, g1, aInG1.getLong("seq")));
    await(messaging.inviteToGroup(x, g1, List.of(c)));
    // g2: a's group x joined; x's message last
    long g2 = topicGroup(a, "erasure two", "tests").getLong("id");
    await(messaging.joinGroup(x, g2));
    groupSend(a, g2, "a in g2");
    groupSend(x, g2, "x in g2");
    // g3: x alone: it dissolves when x leaves; g4: a's friend group x is invited to
    long g3 = friendGroup(x, "erasure three", List.of()).getLong("id");
    long g4 = friendGroup(a, "erasure four", List.of(b)).getLong("id");
    await(messaging.inviteToGroup(a, g4, List.of(x)));
    // boards: x's with a; a's with x and b, where x draws
    long ownBoard = await(boards.create(x, new JsonObject().put("title", "x's").put("members",
        new JsonArray().add(a)))).getLong("id");
    long othersBoard = await(boards.create(a, new JsonObject().put("title", "a's").put("members",
        new JsonArray().add(x).add(b)))).getLong("id");
    await(boards.draw(x, othersBoard, new JsonObject().put("tool", "pen").put("color", "#000000").put("width", 2)
        .put("points", new JsonArray().add(new JsonArray().add(1).add(2)).add(new JsonArray().add(3).add(4)))));
    // unrelated: c and u talk, u has a board
    long unrelated = send(u, c, "not about x").getLong("conversation");
    long unrelatedBoard = await(boards.create(u, new JsonObject().put("title", "u's"))).getLong("id");
    return new World(x, a, b, c, u, direct, g1, g2, g3, g4, ownBoard, othersBoard, unrelated, unrelatedBoard, aInG1);
  }

  /**
   * Appends {@code AccountDeleted} as accounts does and waits until messaging handled that event (its consumer group's
   * processed-id guard is written after the handler succeeded); answers the report then.
   */
  private JsonObject erase(long user) throws Exception {
    DomainEvent event = await(platform.events().publisher(AccountsEvents.DOMAIN)
        .append(new AccountDeleted(user, System.currentTimeMillis())));
    String done = "events:done:{" + Erasure.GROUP + "}:" + event.id();
    await(Poll.until(vertx, WAIT, "messaging handled the deletion of " + user, () ->
        platform.redisApi().exists(List.of(done)).map(r -> r.toLong() == 1L)));
    JsonObject report = await(erasures.report(Erasure.DOMAIN, user));
    assertNotNull(report.getValue("finished_at"));
    return report;
  }

  private long count(String collection, JsonObject query) throws Exception {
    return await(platform.mongo().count(collection, query));
  }

  /** The unread count of {@code user} in a conversation, counted from MongoDB as a recount would. */
  private long recountUnread(long conversation, long user) throws Exception {
    JsonObject member = await(platform.mongo().findOne(ConversationStore.MEMBERS,
        new JsonObject().put("_id", ConversationStore.memberId(conversation, user)), null));
    return count(MessageStore.MESSAGES, new JsonObject().put("conversation", conversation)
        .put("seq", new JsonObject().put("$gt", member.getLong("read_seq")))
        .put("sender", new JsonObject().put("$ne", user)).put("recalled", new JsonObject().put("$ne", true)));
  }

  private JsonObject groupDoc(long group) throws Exception {
    return await(platform.mongo().findOne(ConversationStore.CONVERSATIONS, new JsonObject().put("_id", group), null));
  }

  @Test
  @DisplayName("an erased account leaves nothing of its own in messaging, and the others' conversations show a "
      + "deleted user with exact counts")
  void erasesEverything() throws Exception {
    World w = world();
    Inbox revoked = revocations();
    assertEquals(1L, await(platform.redisApi().exists(List.of(RecentWindow.key(w.direct())))).toLong());
    assertEquals(1L, await(platform.redisApi().exists(List.of("rl:messaging:send:" + w.x()))).toLong());

    JsonObject report = erase(w.x());

    // nothing of x is left, by user id, in any collection
    assertEquals(0, count(MessageStore.MESSAGES, new JsonObject().put("sender", w.x())));
    assertEquals(0, count(ConversationStore.MEMBERS, new JsonObject().put("user", w.x())));
    assertEquals(0, count(ConversationStore.SETTINGS, new JsonObject().put("user", w.x())));
    assertEquals(0, count(GroupStore.INVITATIONS, new JsonObject().put("$or", new JsonArray()
        .add(new JsonObject().put("user", w.x())).add(new JsonObject().put("by", w.x())))));
    assertEquals(0, count(ConversationStore.CONVERSATIONS, new JsonObject().put("kind", "group")
        .put("$or", new JsonArray().add(new JsonObject().put("members", w.x()))
            .add(new JsonObject().put("owner", w.x())))));
    assertEquals(0, count(WhiteboardStore.BOARDS, new JsonObject().put("$or", new JsonArray()
        .add(new JsonObject().put("members", w.x())).add(new JsonObject().put("owner", w.x())))));
    assertEquals(0L, await(platform.redisApi().exists(List.of("rl:messaging:send:" + w.x()))).toLong());
    // the Redis windows that held x's messages are gone (history reads MongoDB until new messages refill them)
    assertEquals(0L, await(platform.redisApi().exists(List.of(RecentWindow.key(w.direct())))).toLong());
    assertEquals(0L, await(platform.redisApi().exists(List.of(RecentWindow.key(w.g1())))).toLong());
    assertEquals(0, await(messaging.conversations(w.x(), PageRequest.first(50))).items().size());

    // a's direct conversation: x is a deleted user, a's own message stays, unread and the last message are exact
    JsonObject view = await(messaging.conversation(w.a(), w.direct()));
    assertEquals(new JsonObject().put("id", w.x()).put("deleted", true), view.getJsonObject("peer"));
    assertEquals(w.a(), view.getJsonObject("last_message").getLong("sender"));
    assertEquals(recountUnread(w.direct(), w.a()), view.getLong("unread"));
    assertEquals(0L, view.getLong("unread"));
    assertNull(view.getValue("peer_read_seq"));
    JsonArray history = await(messaging.history(w.a(), w.direct(), null, PageRequest.first(50))).items();
    assertEquals(1, history.size());
    assertEquals("two", history.getJsonObject(0).getString("text"));

    // b's conversation with x holds only b's message
    JsonObject bView = await(messaging.directConversation(w.b(), w.x()));
    assertTrue(bView.getJsonObject("peer").getBoolean("deleted"));
    assertEquals("hello", bView.getJsonObject("last_message").getString("text"));

    // g1 passed to b (the admin, though a joined first), counted again, x's room revoked
    JsonObject g1 = await(messaging.group(w.a(), w.g1()));
    assertEquals(w.b(), g1.getLong("owner"));
    assertEquals(2L, g1.getLong("member_count"));
    assertEquals(2, groupDoc(w.g1()).getJsonArray("members").size());
    assertEquals(List.of(w.a(), w.b()), memberIds(await(messaging.groupMembers(w.a(), w.g1(),
        PageRequest.first(50))).toJson()));
    revoked.await("x loses g1's room", revoked(w.g1(), w.x()));
    JsonObject g1View = await(messaging.conversation(w.b(), w.g1()));
    assertEquals(recountUnread(w.g1(), w.b()), g1View.getLong("unread"));
    assertEquals("from a", g1View.getJsonObject("last_message").getString("text"));
    // x read a's message in g1: x's receipt went with x
    assertEquals(0L, await(messaging.messageReaders(w.a(), w.aMessageInG1().getLong("id"), PageRequest.first(50)))
        .toJson().getLong("read_count"));

    // g2 keeps a alone; g3 dissolved with x; a's invitation of x to g4 is gone
    JsonObject g2 = await(messaging.group(w.a(), w.g2()));
    assertEquals(1L, g2.getLong("member_count"));
    assertEquals("a in g2", await(messaging.conversation(w.a(), w.g2())).getJsonObject("last_message")
        .getString("text"));
    assertTrue(groupDoc(w.g3()).getBoolean("dissolved"));
    assertEquals(2L, groupDoc(w.g4()).getLong("member_count"));

    // x's board is gone; a's board no longer has x; x's stroke stays there, attributed to the erased id
    failsWith(WhiteboardErrors.BOARD_NOT_FOUND.code(), boards.board(w.a(), w.ownBoard()));
    assertEquals(new JsonArray().add(w.a()).add(w.b()),
        await(boards.board(w.a(), w.othersBoard())).getJsonArray("members"));
    assertEquals(w.x(), await(boards.strokes(w.b(), w.othersBoard(), PageRequest.first(50))).items()
        .getJsonObject(0).getLong("by"));

    // the report counts what x had
    JsonObject counts = report.getJsonObject("counts");
    assertEquals(1L, counts.getLong("boards"));
    assertEquals(1L, counts.getLong("board_memberships"));
    assertEquals(3L, counts.getLong("group_memberships"));
    assertEquals(1L, counts.getLong("dissolved_groups"));
    assertEquals(2L, counts.getLong("invitations"));
    assertEquals(0L, counts.getLong("bans"));
    assertEquals(5L, counts.getLong("messages"));
    assertEquals(2L, counts.getLong("direct_conversations"));
    assertEquals(2L, counts.getLong("member_documents"));
    assertEquals(1L, counts.getLong("settings"));
    assertTrue(counts.getLong("rate_limits") >= 1);

    // the unrelated users keep everything
    assertEquals(1, await(messaging.history(w.c(), w.unrelatedConversation(), null, PageRequest.first(50)))
        .items().size());
    assertEquals("u's", await(boards.board(w.u(), w.unrelatedBoard())).getString("title"));
  }

  @Test
  @DisplayName("a second AccountDeleted, and an erasure run again from its first step, change nothing")
  void idempotent() throws Exception {
    World w = world();
    JsonObject first = erase(w.x());
    JsonObject before = await(messaging.conversation(w.a(), w.direct()));
    JsonObject g1Before = await(messaging.group(w.a(), w.g1()));

    // the same event delivered again: every step is recorded, nothing runs, the report stays
    JsonObject second = erase(w.x());
    assertEquals(first, second);

    // a resumed run with no step recorded (a crash before the first record): each step runs and finds nothing more
    await(platform.mongo().removeDocument(Erasures.COLLECTION, new JsonObject().put("_id", "messaging:" + w.x())));
    JsonObject again = erase(w.x());
    assertEquals(0L, again.getJsonObject("counts").getLong("messages"));
    assertEquals(0L, again.getJsonObject("counts").getLong("group_memberships"));
    assertEquals(0L, again.getJsonObject("counts").getLong("member_documents"));
    assertEquals(before, await(messaging.conversation(w.a(), w.direct())));
    assertEquals(g1Before, await(messaging.group(w.a(), w.g1())));
    assertEquals(g1Before.getLong("member_count"),
        (long) groupDoc(w.g1()).getJsonArray("members").size());
  }

  @Test
  @DisplayName("a direct conversation stays while one side is erased and goes once both are")
  void bothErased() throws Exception {
    List<Long> users = newUsers(2);
    long conversation = send(users.get(0), users.get(1), "first").getLong("conversation");
    send(users.get(1), users.get(0), "second");
    erase(users.get(0));
    JsonObject left = await(messaging.conversation(users.get(1), conversation));
    assertEquals(new JsonObject().put("id", users.get(0)).put("deleted", true), left.getJsonObject("peer"));
    erase(users.get(1));
    assertEquals(0, count(ConversationStore.CONVERSATIONS, new JsonObject().put("_id", conversation)));
    assertEquals(0, count(MessageStore.MESSAGES, new JsonObject().put("conversation", conversation)));
  }

  @Test
  @DisplayName("an erasure of a user messaging never knew finishes with nothing counted")
  void unknownUser() throws Exception {
    long nobody = platform.ids().next();
    JsonObject report = erase(nobody);
    assertEquals(0L, report.getJsonObject("counts").getLong("messages"));
    assertEquals(0L, report.getJsonObject("counts").getLong("direct_conversations"));
  }
}
