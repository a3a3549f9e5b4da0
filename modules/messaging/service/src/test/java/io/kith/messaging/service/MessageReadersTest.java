package io.kith.messaging.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@DisplayName("Who read a message: read receipts for its sender, direct and in groups")
class MessageReadersTest extends GroupTestBase {

  private JsonObject readers(long actor, long message, JsonObject query) throws Exception {
    return await(messaging.messageReaders(actor, message, TestPages.page(query, "after")).map(Page::toJson));
  }

  private static List<Long> ids(JsonObject page) {
    List<Long> out = new ArrayList<>();
    page.getJsonArray("items").forEach(i -> out.add(((JsonObject) i).getJsonObject("user").getLong("id")));
    return out;
  }

  private Long peerReadSeq(long actor, long conversation) throws Exception {
    return await(messaging.conversation(actor, conversation)).getLong("peer_read_seq");
  }

  private void receipts(long user, boolean on) throws Exception {
    await(messaging.updateSettings(user, new JsonObject().put("read_receipts", on)));
  }

  @Test
  @DisplayName("direct: the peer is a reader once their marker reaches the message, and the conversation shows the "
      + "marker, unless the peer turned receipts off or a block stands between the two")
  void direct() throws Exception {
    List<Long> u = newUsers(3);
    long alice = u.get(0);
    long bob = u.get(1);
    long carol = u.get(2);
    JsonObject first = send(alice, bob, "one");
    JsonObject second = send(alice, bob, "two");
    long conversation = first.getLong("conversation");

    JsonObject none = readers(alice, first.getLong("id"), new JsonObject());
    assertEquals(0L, none.getLong("read_count"));
    assertEquals(List.of(), ids(none));
    assertNull(none.getValue("next"));

    assertEquals(0L, peerReadSeq(alice, conversation), "bob has read nothing yet");
    await(messaging.markRead(bob, conversation, first.getLong("seq")));
    assertEquals(first.getLong("seq"), peerReadSeq(alice, conversation), "the conversation shows bob's marker");
    assertEquals(first.getLong("seq"), await(messaging.conversations(alice, TestPages.FIRST)
        .map(Page::toJson)).getJsonArray("items")
        .getJsonObject(0).getLong("peer_read_seq"), "so does the conversations list");
    JsonObject read = readers(alice, first.getLong("id"), new JsonObject());
    assertEquals(1L, read.getLong("read_count"));
    assertEquals(List.of(bob), ids(read));
    assertEquals(0L, readers(alice, second.getLong("id"), new JsonObject()).getLong("read_count"),
        "the marker is below the second message");

    // receipts off: bob is neither listed nor counted; back on, he is again
    receipts(bob, false);
    JsonObject hidden = readers(alice, first.getLong("id"), new JsonObject());
    assertEquals(0L, hidden.getLong("read_count"));
    assertEquals(List.of(), ids(hidden));
    assertNull(peerReadSeq(alice, conversation), "nor is his marker shown");
    assertEquals(0L, peerReadSeq(bob, conversation), "alice's own receipts are on: bob sees her marker");
    receipts(bob, true);
    assertEquals(List.of(bob), ids(readers(alice, first.getLong("id"), new JsonObject())));

    // a block either way hides the reader as well (the history stays theirs to read)
    await(relations.block(bob, alice));
    JsonObject blocked = readers(alice, first.getLong("id"), new JsonObject());
    assertEquals(0L, blocked.getLong("read_count"));
    assertEquals(List.of(), ids(blocked));
    assertNull(peerReadSeq(alice, conversation));
    await(relations.unblock(bob, alice));
    assertEquals(1L, readers(alice, first.getLong("id"), new JsonObject()).getLong("read_count"));

    // only the sender asks; others do not see the message at all
    failsWith("not_your_message", null, messaging.messageReaders(bob, first.getLong("id"), TestPages.FIRST));
    failsWith("message_not_found", null, messaging.messageReaders(carol, first.getLong("id"), TestPages.FIRST));
    failsWith("message_not_found", null, messaging.messageReaders(alice, 424242L, TestPages.FIRST));
    failsWith("validation_failed", "limit", messaging.messageReaders(alice, first.getLong("id"), PageRequest.first(0)));
    failsWith("validation_failed", "limit", messaging.messageReaders(alice, first.getLong("id"),
        PageRequest.first(101)));
    failsWith("validation_failed", "after", messaging.messageReaders(alice, first.getLong("id"),
        new PageRequest(null, 0, 0, "-1")));
    failsWith("validation_failed", "after", messaging.messageReaders(alice, first.getLong("id"),
        new PageRequest(null, 0, 0, "x")));
  }

  @Test
  @DisplayName("group: the members who read it, paged by id and counted; not those with receipts off, not the sender, "
      + "not those who left or joined after it; other members and outsiders cannot ask")
  void group() throws Exception {
    List<Long> u = newUsers(8);
    long owner = u.get(0);
    long outsider = u.get(6);
    long late = u.get(7);
    long id = topicGroup(owner, "Readers", "who read what").getLong("id");
    List<Long> members = u.subList(1, 6);
    for (long m : members) {
      await(messaging.joinGroup(m, id));
    }
    JsonObject message = groupSend(owner, id, "hello all");
    long seq = message.getLong("seq");
    groupSend(members.get(0), id, "hi");
    await(messaging.markRead(owner, id, seq + 1));
    // members 0 to 3 read (0 and 1 past it), member 4 not; member 2 turned receipts off
    await(messaging.markRead(members.get(0), id, seq + 1));
    await(messaging.markRead(members.get(1), id, seq + 1));
    await(messaging.markRead(members.get(2), id, seq));
    await(messaging.markRead(members.get(3), id, seq));
    receipts(members.get(2), false);
    // one who joins afterwards starts with a marker at the end: they never saw the message, so they are no reader
    await(messaging.joinGroup(late, id));
    await(messaging.markRead(late, id, seq + 1));

    List<Long> expected = new ArrayList<>(List.of(members.get(0), members.get(1), members.get(3)));
    expected.sort(null);
    JsonObject first = readers(owner, message.getLong("id"), new JsonObject().put("limit", 2));
    assertEquals(3L, first.getLong("read_count"));
    assertEquals(expected.subList(0, 2), ids(first));
    JsonObject second = readers(owner, message.getLong("id"), new JsonObject().put("limit", 2)
        .put("after", first.getLong("next")));
    assertEquals(expected.subList(2, 3), ids(second));
    assertNull(second.getValue("next"));
    assertEquals(3L, second.getLong("read_count"));

    // one who read it leaves: no longer a reader
    await(messaging.leaveGroup(members.get(3), id));
    JsonObject after = readers(owner, message.getLong("id"), new JsonObject());
    List<Long> stayed = new ArrayList<>(List.of(members.get(0), members.get(1)));
    stayed.sort(null);
    assertEquals(2L, after.getLong("read_count"));
    assertEquals(stayed, ids(after));

    failsWith("not_your_message", null, messaging.messageReaders(members.get(0), message.getLong("id"),
        TestPages.FIRST));
    failsWith("message_not_found", null, messaging.messageReaders(outsider, message.getLong("id"), TestPages.FIRST));
    failsWith("message_not_found", null, messaging.messageReaders(members.get(3), message.getLong("id"),
        TestPages.FIRST));
  }
}
