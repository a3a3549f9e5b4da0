package io.kith.messaging.service;

import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingEvents;
import io.kith.platform.bus.Addresses;
import io.kith.platform.page.Page;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Messaging's moderation operations: messageSeenBy, removeByModerator and contentForModerator")
class ModeratorRemovalsTest extends GroupTestBase {

  private static JsonObject removal(long moderator) {
    return new JsonObject().put("by", moderator).put("reason", "rules").put("report_id", 7L)
        .put("at", System.currentTimeMillis());
  }

  private JsonArray history(long reader, long conversation) throws Exception {
    return await(messaging.history(reader, conversation, new JsonObject(), TestPages.FIRST).map(Page::toJson))
        .getJsonArray("items");
  }

  @Test
  @DisplayName("messageSeenBy answers the sender and conversation to its members only; a removed message keeps its "
      + "seq without content in both parties' history, both are told, and the moderators' view keeps the text")
  void message() throws Exception {
    List<Long> u = newUsers(3);
    long alice = u.get(0);
    long bob = u.get(1);
    send(alice, bob, "one");
    JsonObject bad = send(alice, bob, "two");
    send(alice, bob, "three");
    long id = bad.getLong("id");
    long conversation = bad.getLong("conversation");

    JsonObject seen = await(messagingInternal.messageSeenBy(bob, id));
    assertEquals(alice, seen.getLong("sender"));
    assertEquals(conversation, seen.getLong("conversation"));
    failsWith("message_not_found", messagingInternal.messageSeenBy(u.get(2), id));
    failsWith("message_not_found", messagingInternal.messageSeenBy(bob, id + 1_000_000));

    Inbox pushes = listen(Addresses.user(bob));
    assertEquals(alice, await(messagingInternal.removeByModerator("message", id, removal(u.get(2)))).getLong("owner"));
    pushes.await("bob told of the removal", p -> Messaging.PUSH_MESSAGE_REMOVED.equals(p.getString("kind"))
        && p.getLong("id") == id);
    for (long reader : List.of(alice, bob)) {
      JsonArray items = history(reader, conversation);
      assertEquals(List.of(1L, 2L, 3L), items.stream().map(m -> ((JsonObject) m).getLong("seq")).toList());
      JsonObject removed = items.getJsonObject(1);
      assertTrue(removed.getBoolean("removed"));
      assertFalse(removed.containsKey("text"));
      assertFalse(removed.containsKey("removal"), "the moderators' record stays with them");
    }
    failsWith("message_not_found", messagingInternal.messageSeenBy(bob, id));
    assertEquals("two", await(messagingInternal.contentForModerator("message", id)).getJsonObject("removal")
        .getString("text"));
    // again: the same answer, nothing else changes
    assertEquals(alice, await(messagingInternal.removeByModerator("message", id, removal(u.get(2)))).getLong("owner"));
  }

  @Test
  @DisplayName("a removed group is dissolved for its members (group_not_found, GroupDissolved) and kept for the "
      + "moderators' view")
  void group() throws Exception {
    List<Long> u = newUsers(3);
    long owner = u.get(0);
    long member = u.get(1);
    long group = topicGroup(owner, "Bad club", "hate").getLong("id");
    await(messaging.joinGroup(member, group));
    Inbox events = events();

    assertEquals(owner, await(messagingInternal.removeByModerator("group", group, removal(u.get(2)))).getLong("owner"));
    failsWith("group_not_found", messaging.group(member, group));
    failsWith("group_not_found", messaging.group(owner, group));
    events.await("GroupDissolved", event(MessagingEvents.GROUP_DISSOLVED, group));
    JsonObject review = await(messagingInternal.contentForModerator("group", group));
    assertEquals("Bad club", review.getString("name"));
    assertEquals(u.get(2), review.getJsonObject("removed").getLong("by"));
    assertEquals(owner, await(messagingInternal.removeByModerator("group", group, removal(u.get(2)))).getLong("owner"));
  }

  @Test
  @DisplayName("refusals: a missing message or group, a group dissolved by its owner, an unknown type")
  void refusals() throws Exception {
    List<Long> u = newUsers(2);
    long group = topicGroup(u.get(0), "Short", "life").getLong("id");
    await(messaging.dissolveGroup(u.get(0), group));
    failsWith("group_not_found", messagingInternal.removeByModerator("group", group, removal(u.get(1))));
    failsWith("group_not_found", messagingInternal.removeByModerator("group", group + 1_000_000, removal(u.get(1))));
    failsWith("message_not_found", messagingInternal.removeByModerator("message", group + 1_000_000,
        removal(u.get(1))));
    failsWith("message_not_found", messagingInternal.contentForModerator("message", group + 1_000_000));
    failsWith("validation_failed", messagingInternal.removeByModerator("board", group, removal(u.get(1))));
  }
}
