package io.kith.messaging.service;

import io.kith.messaging.api.MessagingEvents;
import io.kith.messaging.api.events.ConversationRead;
import io.kith.messaging.api.events.GroupDissolved;
import io.kith.messaging.api.events.GroupInvited;
import io.kith.messaging.api.events.GroupJoined;
import io.kith.messaging.api.events.GroupLeft;
import io.kith.messaging.api.events.InvitationDeclined;
import io.kith.messaging.api.events.InvitationExpired;
import io.kith.messaging.api.events.MemberKicked;
import io.kith.messaging.api.events.MessageSent;
import io.kith.messaging.api.events.MessagingEvent;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The typed messaging events write and read the payloads the stream has always held. */
class EventRecordsTest {

  /** What {@code GroupNotices.event(doc)} wrote first in every group event before the records. */
  private static JsonObject group() {
    return new JsonObject().put("group", 8L).put("name", "Climbers").put("kind", "topic");
  }

  /** What {@code Sends.sentEvent} wrote first in every MessageSent before the records. */
  private static JsonObject sent(String kind, JsonArray to) {
    return new JsonObject().put("message", 30L).put("conversation", 8L).put("seq", 4L).put("kind", kind)
        .put("from", 1L).put("to", to).put("preview", "hi");
  }

  @Test
  @DisplayName("every messaging event writes its payload byte for byte as the emitters wrote it and reads back equal")
  void roundTrip() {
    Map<MessagingEvent, JsonObject> before = new LinkedHashMap<>();
    before.put(new MessageSent(30, 8, 4, "direct", 1, List.of(2L), "hi", null, null, List.of()),
        sent("direct", new JsonArray().add(2L)).put("mentions", new JsonArray()));
    before.put(new MessageSent(30, 8, 4, "group", 1, List.of(2L, 3L), "hi", 8L, "Climbers", List.of(3L)),
        sent("group", new JsonArray().add(2L).add(3L)).put("group", 8L).put("group_name", "Climbers")
            .put("mentions", new JsonArray().add(3L)));
    before.put(new GroupInvited(8, "Climbers", "topic", 1, List.of(5L)),
        group().put("by", 1L).put("invited", new JsonArray().add(5L)));
    before.put(new GroupJoined(8, "Climbers", "topic", 5, "invitation"),
        group().put("user", 5L).put("via", "invitation"));
    before.put(new MemberKicked(8, "Climbers", "topic", 1, 5), group().put("by", 1L).put("user", 5L));
    before.put(new GroupLeft(8, "Climbers", "topic", 5), group().put("user", 5L));
    before.put(new GroupDissolved(8, "Climbers", "topic", 1, List.of(1L, 5L)),
        group().put("by", 1L).put("members", new JsonArray().add(1L).add(5L)));
    before.put(new ConversationRead(8, 5, 4, "group"),
        new JsonObject().put("conversation", 8L).put("user", 5L).put("seq", 4L).put("kind", "group"));
    before.put(new InvitationDeclined(8, 5), new JsonObject().put("group", 8L).put("user", 5L));
    before.put(new InvitationExpired(8, 5, 1000), new JsonObject().put("group", 8L).put("user", 5L)
        .put("expired_at", 1000L));
    before.forEach((event, json) -> {
      assertEquals(json.encode(), event.toJson().encode(), event.eventType());
      assertEquals(event, MessagingEvent.fromJson(event.eventType(), new JsonObject(json.encode())));
    });
    assertEquals(10, before.size());
  }

  @Test
  @DisplayName("a group message whose group has no name still writes group_name; unknown types are skipped")
  void edgePayloads() {
    MessageSent unnamed = new MessageSent(30, 8, 4, "group", 1, List.of(2L), "", 8L, null, List.of());
    assertEquals(sent("group", new JsonArray().add(2L)).put("preview", "").put("group", 8L).put("group_name", null)
        .put("mentions", new JsonArray()).encode(), unnamed.toJson().encode());
    assertEquals(unnamed,
        MessagingEvent.fromJson(MessagingEvents.MESSAGE_SENT, new JsonObject(unnamed.toJson().encode())));
    assertNull(MessagingEvent.fromJson("MessageEdited", new JsonObject()));
  }
}
