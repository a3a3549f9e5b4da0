package io.kith.messaging.service;

import io.kith.messaging.api.Messaging;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.kith.platform.error.Failures;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Group limits: the member cap under concurrent joins, creation and invitation rate limits")
class GroupLimitsTest extends GroupTestBase {

  private static final int CAP = 10;

  @Override
  protected JsonObject messagingConfig() {
    return new JsonObject().put("group-member-cap", CAP).put("groups-per-hour", 2)
        .put("group-invitations-per-hour", 2).put("group-joins-per-minute", 4).put("typing-interval-millis", 60_000);
  }

  @Test
  @DisplayName("30 users joining a topic group with a cap of 10 at once: exactly 9 get in, 21 are refused group_full")
  void capUnderConcurrentJoins() throws Exception {
    List<Long> u = newUsers(31);
    long owner = u.get(0);
    long id = topicGroup(owner, "Capped", "capped").getLong("id");
    assertEquals(CAP, await(messaging.group(owner, id)).getInteger("member_cap"));
    List<Future<JsonObject>> joins = new ArrayList<>();
    for (long user : u.subList(1, 31)) {
      joins.add(messaging.joinGroup(user, id));
    }
    await(Future.join(joins).otherwiseEmpty());
    List<Long> in = new ArrayList<>();
    int full = 0;
    for (int i = 0; i < joins.size(); i++) {
      Future<JsonObject> f = joins.get(i);
      if (f.succeeded()) {
        in.add(u.get(i + 1));
      } else {
        assertEquals("group_full", Failures.codeOf(f.cause()), String.valueOf(f.cause()));
        full++;
      }
    }
    assertEquals(CAP - 1, in.size());
    assertEquals(30 - (CAP - 1), full);
    assertEquals((long) CAP, await(messaging.group(owner, id)).getLong("member_count"));
    List<Long> members = memberIds(await(messaging.groupMembers(owner, id, PageRequest.first(100)).map(Page::toJson)));
    assertEquals(CAP, members.size());
    assertTrue(members.containsAll(in));
    for (long user : in) {
      assertTrue(await(messagingInternal.mayListen(user, "g" + id)));
    }
    // one leaves: one more gets in, and the cap holds again
    await(messaging.leaveGroup(in.get(0), id));
    long outside = u.stream().filter(x -> x != owner && !in.contains(x)).findFirst().orElseThrow();
    await(messaging.joinGroup(outside, id));
    failsWith("group_full", null, messaging.joinGroup(in.get(0), id));
  }

  @Test
  @DisplayName("a friend group cannot start with more members than the cap; an invitation does not pass the cap")
  void capOnFriendGroups() throws Exception {
    List<Long> u = newUsers(CAP + 1);
    long owner = u.get(0);
    for (long f : u.subList(1, CAP + 1)) {
      befriend(owner, f);
    }
    failsWith("group_full", null, messaging.createGroup(owner, new JsonObject().put("kind", "friends")
        .put("name", "too many").put("members", new JsonArray(new ArrayList<>(u.subList(1, CAP + 1))))));
    long id = friendGroup(owner, "just full", u.subList(1, CAP - 1)).getLong("id");
    await(messaging.inviteToGroup(owner, id, List.of(u.get(CAP - 1), u.get(CAP))));
    await(messaging.joinGroup(u.get(CAP - 1), id));
    failsWith("group_full", null, messaging.joinGroup(u.get(CAP), id));
  }

  @Test
  @DisplayName("past the hourly limits, creating groups and inviting are refused with rate_limited and retry_after")
  void rateLimits() throws Exception {
    List<Long> u = newUsers(2);
    long a = u.get(0);
    befriend(a, u.get(1));
    topicGroup(a, "one", "limits");
    long id = topicGroup(a, "two", "limits").getLong("id");
    long retry = failsWith("rate_limited", null, messaging.createGroup(a, new JsonObject().put("kind", "topic")
        .put("name", "three").put("topic", "limits"))).getDebugInfo().getJsonObject("extra").getLong("retry_after");
    assertTrue(retry >= 1 && retry <= 3600, "retry_after " + retry);
    await(messaging.inviteToGroup(a, id, List.of(u.get(1))));
    await(messaging.inviteToGroup(a, id, List.of(u.get(1))));
    failsWith("rate_limited", null, messaging.inviteToGroup(a, id, List.of(u.get(1))));
    // managed groups are made by other domains, not counted
    await(messagingInternal.managedGroup(a, "limits:" + id, new JsonObject().put("name", "managed")));
  }

  @Test
  @DisplayName("the cap does not apply to managed groups: their domain bounds them")
  void managedBeyondCap() throws Exception {
    List<Long> u = newUsers(CAP + 5);
    long owner = u.get(0);
    long id = await(messagingInternal.managedGroup(owner, "activity:cap-" + u.get(1),
        new JsonObject().put("name", "big")))
        .getLong("id");
    await(messagingInternal.setManagedMembers(owner, id, u.subList(1, CAP + 5), List.of()));
    assertEquals((long) CAP + 5, await(messaging.group(owner, id)).getLong("member_count"));
    assertEquals(null, await(messaging.group(owner, id)).getValue("member_cap"));
  }

  @Test
  @DisplayName("joins and leaves count together per user and minute: past the limit rate_limited with retry_after")
  void joinLeaveRateLimit() throws Exception {
    List<Long> u = newUsers(2);
    long id = topicGroup(u.get(0), "Churn", "churn").getLong("id");
    long b = u.get(1);
    await(messaging.joinGroup(b, id));
    await(messaging.leaveGroup(b, id));
    await(messaging.joinGroup(b, id));
    await(messaging.leaveGroup(b, id));
    long retry = failsWith("rate_limited", null, messaging.joinGroup(b, id)).getDebugInfo().getJsonObject("extra")
        .getLong("retry_after");
    assertTrue(retry >= 1 && retry <= 60, "retry_after " + retry);
    assertTrue(!await(messagingInternal.mayListen(b, "g" + id)));
    // the owner is not affected by another user's churn
    await(messaging.leaveGroup(u.get(0), id));
  }

  @Test
  @DisplayName("typing: one indicator per user and conversation per interval; more are dropped without an error")
  void typingIsThrottled() throws Exception {
    List<Long> u = newUsers(2);
    long id = topicGroup(u.get(0), "Typing", "typing").getLong("id");
    long other = topicGroup(u.get(0), "Typing two", "typing").getLong("id");
    await(messaging.joinGroup(u.get(1), id));
    await(messaging.joinGroup(u.get(1), other));
    Inbox room = room(id);
    Inbox room2 = room(other);
    for (int i = 0; i < 5; i++) {
      await(messaging.typing(u.get(1), id));
    }
    // another conversation has its own interval
    await(messaging.typing(u.get(1), other));
    room2.await("typing in the other group", p -> Messaging.PUSH_TYPING.equals(p.getString("kind")));
    // a marker published after the calls answered: everything they published is delivered before it
    vertx.eventBus().publish(io.kith.platform.bus.Addresses.room(Messaging.groupRoom(id)),
        new JsonObject().put("kind", "marker"));
    room.await("the marker", p -> "marker".equals(p.getString("kind")));
    assertEquals(1, room.items.stream().filter(p -> Messaging.PUSH_TYPING.equals(p.getString("kind"))).count());
    // a non-member is still refused, throttled or not
    failsWith("conversation_not_found", null, messaging.typing(u.get(0) + u.get(1) + 1_000_000, id));
  }

  @Test
  @DisplayName("unread counts stop at 100")
  void unreadIsCapped() throws Exception {
    List<Long> u = newUsers(2);
    long id = topicGroup(u.get(0), "Chatty", "chatty").getLong("id");
    await(messaging.joinGroup(u.get(1), id));
    List<Future<JsonObject>> sends = new ArrayList<>();
    for (int i = 0; i < 105; i++) {
      sends.add(messaging.sendToGroup(u.get(0), id, text("m" + i)));
    }
    await(Future.all(sends));
    assertEquals(100L, await(messaging.conversation(u.get(1), id)).getLong("unread"));
    assertEquals(100L, await(messaging.markRead(u.get(1), id, 2)).getLong("unread"));
    assertEquals(5L, await(messaging.markRead(u.get(1), id, 100)).getLong("unread"));
  }
}
