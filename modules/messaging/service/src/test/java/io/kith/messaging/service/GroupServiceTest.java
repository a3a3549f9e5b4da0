package io.kith.messaging.service;

import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingEvents;
import io.kith.platform.bus.Addresses;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Groups through the service proxy")
class GroupServiceTest extends GroupTestBase {

  private JsonObject conversationOf(long user, long conversation) throws Exception {
    for (Object item : await(messaging.conversations(user, PageRequest.first(100))
        .map(Page::toJson)).getJsonArray("items")) {
      if (((JsonObject) item).getLong("id") == conversation) {
        return (JsonObject) item;
      }
    }
    return null;
  }

  @Test
  @DisplayName("a topic group is found by its topic or a word of its name, anyone joins it, and it chats like a "
      + "direct conversation: sequences, history, read markers and unread counts")
  void topicGroup() throws Exception {
    List<Long> u = newUsers(3);
    long owner = u.get(0);
    String tag = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    JsonObject g = topicGroup(owner, "Sunday " + tag + " Walkers", "Hiking " + tag);
    long id = g.getLong("id");
    assertEquals("topic", g.getString("kind"));
    assertEquals("owner", g.getString("role"));
    assertEquals(1L, g.getLong("member_count"));
    assertEquals(500, g.getInteger("member_cap"));
    assertEquals("Hiking " + tag, g.getString("topic"));

    // a stranger sees it and finds it, by the topic or by the start of a name word, ignoring case
    JsonObject seen = await(messaging.group(u.get(1), id));
    assertNull(seen.getString("role"));
    for (String q : List.of(tag.toUpperCase(), "sund " + tag.substring(0, 6), "hiking " + tag)) {
      JsonArray found = await(messaging.searchGroups(u.get(1), new JsonObject().put("q", q), TestPages.FIRST)
          .map(Page::toJson)).getJsonArray("items");
      assertEquals(1, found.size(), q + ": " + found.encode());
      assertEquals(id, found.getJsonObject(0).getLong("id"));
    }
    assertEquals(0, await(messaging.searchGroups(u.get(1), new JsonObject().put("q", tag + " nothing"),
        TestPages.FIRST).map(Page::toJson))
        .getJsonArray("items").size());
    failsWith("validation_failed", "q", messaging.searchGroups(u.get(1), new JsonObject().put("q", " "),
        TestPages.FIRST));
    failsWith("validation_failed", "limit", messaging.searchGroups(u.get(1), new JsonObject().put("q", tag),
        PageRequest.first(51)));

    JsonObject joined = await(messaging.joinGroup(u.get(1), id));
    assertEquals("member", joined.getString("role"));
    assertEquals(2L, joined.getLong("member_count"));
    // joining again answers the group as it is
    assertEquals(2L, await(messaging.joinGroup(u.get(1), id)).getLong("member_count"));
    await(messaging.joinGroup(u.get(2), id));

    JsonObject m1 = groupSend(owner, id, "welcome");
    JsonObject m2 = groupSend(u.get(1), id, "thanks");
    JsonObject m3 = groupSend(u.get(2), id, "hi all");
    assertEquals(List.of(1L, 2L, 3L), List.of(m1.getLong("seq"), m2.getLong("seq"), m3.getLong("seq")));
    assertEquals(id, m1.getLong("conversation"));
    assertEquals(id, m1.getLong("group"));
    assertFalse(m1.containsKey("to"));
    assertEquals(List.of(1L, 2L, 3L), seqs(await(messaging.history(u.get(2), id, new JsonObject(), TestPages.FIRST)
        .map(Page::toJson))));
    assertEquals(List.of(3L), seqs(await(messaging.history(u.get(2), id, new JsonObject(),
        new PageRequest(null, 0, 0, "2")).map(Page::toJson))));

    JsonObject conv = conversationOf(u.get(1), id);
    assertEquals("group", conv.getString("kind"));
    assertEquals(id, conv.getJsonObject("group").getLong("id"));
    assertEquals("member", conv.getJsonObject("group").getString("role"));
    assertFalse(conv.containsKey("peer"));
    assertEquals(2L, conv.getLong("unread"), conv.encode());
    assertEquals("hi all", conv.getJsonObject("last_message").getString("text"));
    JsonObject read = await(messaging.markRead(u.get(1), id, 3));
    assertEquals(0L, read.getLong("unread"));
    assertEquals("group", await(messaging.conversation(owner, id)).getString("kind"));

    // the members list: oldest first, with roles, paged
    JsonObject first = await(messaging.groupMembers(u.get(2), id, PageRequest.first(2)).map(Page::toJson));
    assertEquals(List.of(owner, u.get(1)), memberIds(first));
    assertEquals("owner", first.getJsonArray("items").getJsonObject(0).getString("role"));
    assertTrue(first.getJsonArray("items").getJsonObject(0).getJsonObject("user").containsKey("username"));
    JsonObject rest = await(messaging.groupMembers(u.get(2), id, new PageRequest(2, 0, 0, first.getString("next")))
        .map(Page::toJson));
    assertEquals(List.of(u.get(2)), memberIds(rest));
    assertNull(rest.getString("next"));
  }

  @Test
  @DisplayName("group search pages newest first and skips dissolved groups")
  void searchPaging() throws Exception {
    List<Long> u = newUsers(2);
    String tag = "p" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      ids.add(topicGroup(u.get(0), "Group " + i, tag).getLong("id"));
    }
    JsonObject page = await(messaging.searchGroups(u.get(1), new JsonObject().put("q", tag), PageRequest.first(2))
        .map(Page::toJson));
    assertEquals(List.of(ids.get(2), ids.get(1)), List.of(page.getJsonArray("items").getJsonObject(0).getLong("id"),
        page.getJsonArray("items").getJsonObject(1).getLong("id")));
    JsonObject next = await(messaging.searchGroups(u.get(1), new JsonObject().put("q", tag),
        PageRequest.after(String.valueOf(page.getLong("next")), 2)).map(Page::toJson));
    assertEquals(1, next.getJsonArray("items").size());
    assertEquals(ids.get(0), next.getJsonArray("items").getJsonObject(0).getLong("id"));
    assertNull(next.getValue("next"));
    await(messaging.dissolveGroup(u.get(0), ids.get(1)));
    JsonArray left = await(messaging.searchGroups(u.get(1), new JsonObject().put("q", tag), TestPages.FIRST)
        .map(Page::toJson)).getJsonArray("items");
    assertEquals(2, left.size());
    assertTrue(left.stream().noneMatch(g -> ((JsonObject) g).getLong("id").equals(ids.get(1))));
  }

  @Test
  @DisplayName("group fields are validated: kind, name and topic lengths, a topic only on topic groups")
  void validation() throws Exception {
    long a = newUsers(1).get(0);
    failsWith("validation_failed", "kind", messaging.createGroup(a, new JsonObject().put("kind", "secret")
        .put("name", "x")));
    failsWith("validation_failed", "name", messaging.createGroup(a, new JsonObject().put("kind", "topic")
        .put("name", "x".repeat(51)).put("topic", "t")));
    failsWith("validation_failed", "name", messaging.createGroup(a, new JsonObject().put("kind", "topic")
        .put("name", "   ").put("topic", "t")));
    failsWith("validation_failed", "topic", messaging.createGroup(a, new JsonObject().put("kind", "topic")
        .put("name", "no topic")));
    failsWith("validation_failed", "topic", messaging.createGroup(a, new JsonObject().put("kind", "topic")
        .put("name", "long topic").put("topic", "t".repeat(31))));
    failsWith("validation_failed", "topic", messaging.createGroup(a, new JsonObject().put("kind", "friends")
        .put("name", "friends").put("topic", "t")));
    failsWith("validation_failed", "about", messaging.createGroup(a, new JsonObject().put("kind", "friends")
        .put("name", "friends").put("about", "a".repeat(501))));
    failsWith("validation_failed", "colour", messaging.createGroup(a, new JsonObject().put("kind", "friends")
        .put("name", "friends").put("colour", "red")));
    // 50 characters counted as code points: 50 emoji are a valid name
    String emoji = "\uD83C\uDF32".repeat(50);
    assertEquals(emoji, await(messaging.createGroup(a, new JsonObject().put("kind", "friends").put("name", emoji)))
        .getString("name"));
    failsWith("group_not_found", null, messaging.group(a, 12345L));
  }

  @Test
  @DisplayName("a friend group is made with the creator's friends only; strangers do not see it; friends are "
      + "invited, join by the invitation, or decline it; nobody joins without one")
  void friendGroup() throws Exception {
    List<Long> u = newUsers(5);
    long owner = u.get(0);
    long friend = u.get(1);
    long later = u.get(2);
    long stranger = u.get(3);
    long friendOfFriend = u.get(4);
    befriend(owner, friend);
    befriend(owner, later);
    befriend(friend, friendOfFriend);
    await(relations.follow(owner, stranger));

    failsWith("not_friends", "members", messaging.createGroup(owner, new JsonObject().put("kind", "friends")
        .put("name", "close").put("members", new JsonArray().add(friend).add(stranger))));
    JsonObject g = friendGroup(owner, "Close friends", List.of(friend));
    long id = g.getLong("id");
    assertEquals(2L, g.getLong("member_count"));
    assertEquals("member", await(messaging.group(friend, id)).getString("role"));
    assertEquals("group", conversationOf(friend, id).getString("kind"));

    // not a member, not invited: the group does not exist for them, and joining it is refused the same way
    failsWith("group_not_found", null, messaging.group(stranger, id));
    failsWith("group_not_found", null, messaging.joinGroup(stranger, id));
    failsWith("group_not_found", null, messaging.joinGroup(later, id));
    failsWith("group_not_found", null, messaging.sendToGroup(stranger, id, text("let me in")));

    failsWith("not_friends", "users", messaging.inviteToGroup(owner, id, List.of(later, stranger)));
    failsWith("validation_failed", "users", messaging.inviteToGroup(owner, id, List.of(owner)));
    JsonObject invited = await(messaging.inviteToGroup(owner, id, List.of(later, friend)));
    // a member is not invited; an invitation already pending is not counted again
    assertEquals(new JsonArray().add(later), invited.getJsonArray("invited"));
    assertEquals(new JsonArray(), await(messaging.inviteToGroup(owner, id, List.of(later))).getJsonArray("invited"));

    JsonObject asInvitee = await(messaging.group(later, id));
    assertTrue(asInvitee.getBoolean("invited"));
    assertNull(asInvitee.getString("role"));
    JsonArray pending = await(messaging.groupInvitations(later, TestPages.FIRST)
        .map(Page::toJson)).getJsonArray("items");
    assertEquals(1, pending.size());
    assertEquals(id, pending.getJsonObject(0).getJsonObject("group").getLong("id"));
    assertEquals(owner, pending.getJsonObject(0).getJsonObject("by").getLong("id"));
    failsWith("not_group_member", null, messaging.sendToGroup(later, id, text("not yet")));

    JsonObject joined = await(messaging.joinGroup(later, id));
    assertEquals("member", joined.getString("role"));
    assertEquals(3L, joined.getLong("member_count"));
    assertEquals(0, await(messaging.groupInvitations(later, TestPages.FIRST)
        .map(Page::toJson)).getJsonArray("items").size());

    // a member invites their own friend, who declines: the group disappears for them again
    assertEquals(new JsonArray().add(friendOfFriend), await(messaging.inviteToGroup(friend, id,
        List.of(friendOfFriend))).getJsonArray("invited"));
    assertTrue(await(messaging.group(friendOfFriend, id)).getBoolean("invited"));
    Inbox events = events();
    await(messaging.declineInvitation(friendOfFriend, id));
    failsWith("group_not_found", null, messaging.joinGroup(friendOfFriend, id));
    failsWith("group_not_found", null, messaging.group(friendOfFriend, id));
    // the decline is an event (notifications drop the invitation's notification); declining again is not
    JsonObject declined = events.await("InvitationDeclined", event(MessagingEvents.INVITATION_DECLINED, id));
    assertEquals(friendOfFriend, declined.getJsonObject("payload").getLong("user"));
    await(messaging.declineInvitation(friendOfFriend, id));
    await(messaging.declineInvitation(stranger, id));
    await(messaging.sendToGroup(owner, id, text("marker")));
    events.await("the marker", e -> MessagingEvents.MESSAGE_SENT.equals(e.getString("type"))
        && e.getJsonObject("payload").getLong("conversation") == id);
    assertEquals(1, events.items.stream().filter(event(MessagingEvents.INVITATION_DECLINED, id)).count(),
        events.items.toString());
  }

  @Test
  @DisplayName("roles: members cannot kick or rename, admins rename and kick members but not admins or the owner, "
      + "only the owner sets roles and hands the group over")
  void roles() throws Exception {
    List<Long> u = newUsers(5);
    long owner = u.get(0);
    long admin = u.get(1);
    long admin2 = u.get(2);
    long member = u.get(3);
    long member2 = u.get(4);
    long id = topicGroup(owner, "Roles", "roles").getLong("id");
    for (long user : List.of(admin, admin2, member, member2)) {
      await(messaging.joinGroup(user, id));
    }
    failsWith("group_permission_denied", null, messaging.setMemberRole(admin, id, member, "admin"));
    assertEquals("admin", await(messaging.setMemberRole(owner, id, admin, "admin")).getString("role"));
    await(messaging.setMemberRole(owner, id, admin2, "admin"));
    failsWith("validation_failed", "role", messaging.setMemberRole(owner, id, admin, "king"));
    failsWith("member_not_found", null, messaging.setMemberRole(owner, id, newUsers(1).get(0), "admin"));

    failsWith("group_permission_denied", null, messaging.kickMember(member, id, member2));
    failsWith("group_permission_denied", null, messaging.kickMember(admin, id, admin2));
    failsWith("group_permission_denied", null, messaging.kickMember(admin, id, owner));
    failsWith("group_permission_denied", null, messaging.updateGroup(member, id, new JsonObject().put("name", "mine")));
    failsWith("group_permission_denied", null, messaging.dissolveGroup(admin, id));
    failsWith("validation_failed", "userId", messaging.kickMember(owner, id, owner));

    JsonObject renamed = await(messaging.updateGroup(admin, id, new JsonObject().put("name", "Renamed roles")
        .put("about", "we test roles")));
    assertEquals("Renamed roles", renamed.getString("name"));
    assertEquals("we test roles", renamed.getString("about"));
    assertEquals(1, await(messaging.searchGroups(member, new JsonObject().put("q", "renamed roles"), TestPages.FIRST)
        .map(Page::toJson))
        .getJsonArray("items").stream().filter(g -> ((JsonObject) g).getLong("id") == id).count());

    await(messaging.kickMember(admin, id, member2));
    await(messaging.kickMember(owner, id, admin2));
    failsWith("member_not_found", null, messaging.kickMember(owner, id, admin2));
    assertEquals(List.of(owner, admin, member), memberIds(await(messaging.groupMembers(owner, id, TestPages.FIRST)
        .map(Page::toJson))));

    // the owner hands the group over and becomes an admin
    assertEquals("owner", await(messaging.setMemberRole(owner, id, member, "owner")).getString("role"));
    assertEquals("admin", await(messaging.group(owner, id)).getString("role"));
    JsonObject now = await(messaging.group(member, id));
    assertEquals("owner", now.getString("role"));
    assertEquals(member, now.getLong("owner"));
    await(messaging.kickMember(member, id, owner));
  }

  @Test
  @DisplayName("a kicked member can neither send, read the history, mark it read, type in it nor listen on its room")
  void kicked() throws Exception {
    List<Long> u = newUsers(3);
    long owner = u.get(0);
    long kicked = u.get(1);
    long stays = u.get(2);
    long id = topicGroup(owner, "Kick", "kick").getLong("id");
    await(messaging.joinGroup(kicked, id));
    await(messaging.joinGroup(stays, id));
    JsonObject before = groupSend(kicked, id, "before the kick");
    assertTrue(await(messagingInternal.mayListen(kicked, "g" + id)));
    Inbox revoked = revocations();

    await(messaging.kickMember(owner, id, kicked));
    revoked.await("the room revoked for the kicked member", revoked(id, kicked));
    assertFalse(await(messagingInternal.mayListen(kicked, "g" + id)));
    assertTrue(await(messagingInternal.mayListen(stays, "g" + id)));
    failsWith("not_group_member", null, messaging.sendToGroup(kicked, id, text("after the kick")));
    failsWith("conversation_not_found", null, messaging.history(kicked, id, new JsonObject(), TestPages.FIRST));
    failsWith("conversation_not_found", null, messaging.markRead(kicked, id, 1));
    failsWith("conversation_not_found", null, messaging.typing(kicked, id));
    failsWith("conversation_not_found", null, messaging.conversation(kicked, id));
    failsWith("message_not_found", null, messaging.recall(kicked, before.getLong("id")));
    failsWith("not_group_member", null, messaging.groupMembers(kicked, id, TestPages.FIRST));
    assertNull(conversationOf(kicked, id), "the group left the kicked member's conversations");
    // others go on
    assertEquals(2L, groupSend(stays, id, "still here").getLong("seq"));
    // kicked means banned: no joining again until the owner or an admin invites them back (which lifts the ban)
    failsWith("banned_from_group", null, messaging.joinGroup(kicked, id));
    befriend(owner, kicked);
    await(messaging.inviteToGroup(owner, id, List.of(kicked)));
    JsonObject back = await(messaging.joinGroup(kicked, id));
    assertEquals("member", back.getString("role"));
    assertEquals(0L, await(messaging.conversation(kicked, id)).getLong("unread"), "unread starts at the join");

    // kicked from a friend group, the group is gone for them altogether
    long friends = friendGroup(owner, "Friends kick", List.of(kicked)).getLong("id");
    await(messaging.kickMember(owner, friends, kicked));
    failsWith("group_not_found", null, messaging.sendToGroup(kicked, friends, text("hello?")));
    failsWith("conversation_not_found", null, messaging.history(kicked, friends, new JsonObject(), TestPages.FIRST));
  }

  @Test
  @DisplayName("leaving: an owner hands over to the oldest admin, else the oldest member; the last one out dissolves")
  void leave() throws Exception {
    List<Long> u = newUsers(4);
    long owner = u.get(0);
    long id = topicGroup(owner, "Leave", "leave").getLong("id");
    for (long user : u.subList(1, 4)) {
      await(messaging.joinGroup(user, id));
    }
    await(messaging.setMemberRole(owner, id, u.get(2), "admin"));
    Inbox revoked = revocations();
    await(messaging.leaveGroup(owner, id));
    revoked.await("the room revoked for the owner who left", revoked(id, owner));
    JsonObject g = await(messaging.group(u.get(1), id));
    assertEquals(u.get(2), g.getLong("owner"), "the oldest admin owns it now, not the oldest member");
    assertEquals("owner", await(messaging.group(u.get(2), id)).getString("role"));
    failsWith("not_group_member", null, messaging.leaveGroup(owner, id));

    await(messaging.leaveGroup(u.get(2), id));
    assertEquals(u.get(1), await(messaging.group(u.get(1), id)).getLong("owner"), "no admin: the oldest member");
    await(messaging.leaveGroup(u.get(1), id));
    await(messaging.leaveGroup(u.get(3), id));
    failsWith("group_not_found", null, messaging.group(u.get(3), id));
    failsWith("group_not_found", null, messaging.joinGroup(u.get(3), id));
  }

  @Test
  @DisplayName("dissolving: only the owner; every member loses the group and its room at once")
  void dissolve() throws Exception {
    List<Long> u = newUsers(3);
    long owner = u.get(0);
    befriend(owner, u.get(1));
    befriend(owner, u.get(2));
    long id = friendGroup(owner, "Dissolve", List.of(u.get(1))).getLong("id");
    await(messaging.inviteToGroup(owner, id, List.of(u.get(2))));
    groupSend(u.get(1), id, "soon gone");
    Inbox revoked = revocations();
    Inbox removed = listen(Addresses.user(u.get(1)));
    failsWith("group_permission_denied", null, messaging.dissolveGroup(u.get(1), id));
    await(messaging.dissolveGroup(owner, id));
    JsonObject notice = revoked.await("the room revoked for every member", revoked(id, owner));
    assertTrue(notice.getJsonArray("users").contains(u.get(1)));
    removed.await("the member told", p -> Messaging.PUSH_GROUP_REMOVED.equals(p.getString("kind"))
        && p.getLong("group") == id && "dissolved".equals(p.getString("reason")));
    for (long user : List.of(owner, u.get(1))) {
      assertFalse(await(messagingInternal.mayListen(user, "g" + id)));
      failsWith("conversation_not_found", null, messaging.history(user, id, new JsonObject(), TestPages.FIRST));
      failsWith("group_not_found", null, messaging.group(user, id));
      assertNull(conversationOf(user, id));
    }
    // the pending invitation went with it
    assertEquals(0, await(messaging.groupInvitations(u.get(2), TestPages.FIRST)
        .map(Page::toJson)).getJsonArray("items").size());
    failsWith("group_not_found", null, messaging.joinGroup(u.get(2), id));
  }

  @Test
  @DisplayName("a group message is delivered to the room, idempotent by client id, mentions only members, and "
      + "oversize text is refused")
  void groupMessages() throws Exception {
    List<Long> u = newUsers(4);
    long owner = u.get(0);
    long id = topicGroup(owner, "Messages", "messages").getLong("id");
    await(messaging.joinGroup(u.get(1), id));
    await(messaging.joinGroup(u.get(2), id));
    Inbox room = room(id);
    Inbox events = events();

    JsonObject body = text("hello @" + u.get(1)).put("mentions", new JsonArray().add(u.get(1)).add(u.get(3))
        .add(owner).add(u.get(1)));
    JsonObject sent = await(messaging.sendToGroup(owner, id, body));
    JsonObject m = sent.getJsonObject("message");
    assertEquals(new JsonArray().add(u.get(1)), m.getJsonArray("mentions"), "not a member, the sender: dropped");
    JsonObject again = await(messaging.sendToGroup(owner, id, body.copy().put("text", "changed")));
    assertTrue(again.getBoolean("duplicate"));
    assertEquals(m.getLong("id"), again.getJsonObject("message").getLong("id"));

    JsonObject pushed = room.await("the message on the room", p -> Messaging.PUSH_MESSAGE.equals(p.getString("kind"))
        && p.getJsonObject("message").getLong("id").equals(m.getLong("id")));
    assertEquals(owner, pushed.getJsonObject("message").getLong("sender"));

    JsonObject e = events.await("MessageSent", x -> MessagingEvents.MESSAGE_SENT.equals(x.getString("type"))
        && x.getJsonObject("payload").getLong("message").equals(m.getLong("id"))).getJsonObject("payload");
    assertEquals("group", e.getString("kind"));
    assertEquals(id, e.getLong("group"));
    assertEquals(id, e.getLong("conversation"));
    assertEquals("Messages", e.getString("group_name"));
    assertEquals(owner, e.getLong("from"));
    assertEquals(new JsonArray().add(u.get(1)).add(u.get(2)), e.getJsonArray("to"));
    assertEquals(new JsonArray().add(u.get(1)), e.getJsonArray("mentions"));
    assertEquals(m.getLong("seq"), e.getLong("seq"));
    assertTrue(e.getString("preview").startsWith("hello @"));

    failsWith("validation_failed", "text", messaging.sendToGroup(owner, id, text("x".repeat(Messaging.MAX_TEXT + 1))));
    JsonArray many = new JsonArray();
    for (int i = 1; i <= 51; i++) {
      many.add(i);
    }
    failsWith("validation_failed", "mentions", messaging.sendToGroup(owner, id,
        text("everyone").put("mentions", many)));
    failsWith("not_group_member", null, messaging.sendToGroup(u.get(3), id, text("outsider")));

    // typing and recall go to the room
    await(messaging.typing(u.get(1), id));
    room.await("typing on the room", p -> Messaging.PUSH_TYPING.equals(p.getString("kind"))
        && u.get(1).equals(p.getLong("user")));
    await(messaging.recall(owner, m.getLong("id")));
    room.await("the recall on the room", p -> Messaging.PUSH_RECALLED.equals(p.getString("kind"))
        && p.getLong("id").equals(m.getLong("id")));
  }

  @Test
  @DisplayName("group changes append GroupJoined, GroupInvited, MemberKicked, GroupLeft and GroupDissolved with "
      + "their documented payloads")
  void groupEvents() throws Exception {
    List<Long> u = newUsers(4);
    long owner = u.get(0);
    befriend(owner, u.get(1));
    befriend(owner, u.get(2));
    befriend(owner, u.get(3));
    Inbox events = events();
    long id = friendGroup(owner, "Events", List.of(u.get(1), u.get(2))).getLong("id");
    await(messaging.inviteToGroup(owner, id, List.of(u.get(3))));
    await(messaging.joinGroup(u.get(3), id));
    await(messaging.kickMember(owner, id, u.get(1)));
    await(messaging.leaveGroup(u.get(2), id));
    await(messaging.dissolveGroup(owner, id));

    events.await("GroupDissolved", event(MessagingEvents.GROUP_DISSOLVED, id));
    List<JsonObject> mine = events.items.stream().filter(x -> x.getJsonObject("payload").getLong("group", 0L) == id)
        .toList();
    List<JsonObject> joined = mine.stream().filter(x -> MessagingEvents.GROUP_JOINED.equals(x.getString("type")))
        .map(x -> x.getJsonObject("payload")).toList();
    assertEquals(4, joined.size(), joined.toString());
    for (JsonObject p : joined) {
      assertEquals("Events", p.getString("name"));
      assertEquals("friends", p.getString("kind"));
      assertEquals(p.getLong("user").equals(u.get(3)) ? "invitation" : "created", p.getString("via"), p.encode());
    }
    JsonObject invited = payload(mine, MessagingEvents.GROUP_INVITED);
    assertEquals(owner, invited.getLong("by"));
    assertEquals(new JsonArray().add(u.get(3)), invited.getJsonArray("invited"));
    assertEquals("Events", invited.getString("name"));
    JsonObject kicked = payload(mine, MessagingEvents.MEMBER_KICKED);
    assertEquals(owner, kicked.getLong("by"));
    assertEquals(u.get(1), kicked.getLong("user"));
    assertEquals("friends", kicked.getString("kind"));
    JsonObject left = payload(mine, MessagingEvents.GROUP_LEFT);
    assertEquals(u.get(2), left.getLong("user"));
    JsonObject dissolved = payload(mine, MessagingEvents.GROUP_DISSOLVED);
    assertEquals(owner, dissolved.getLong("by"));
    assertEquals(new JsonArray().add(owner).add(u.get(3)), dissolved.getJsonArray("members"));
  }

  private static JsonObject payload(List<JsonObject> events, String type) {
    List<JsonObject> found = events.stream().filter(x -> type.equals(x.getString("type")))
        .map(x -> x.getJsonObject("payload")).toList();
    assertEquals(1, found.size(), type + ": " + found);
    return found.get(0);
  }

  @Test
  @DisplayName("mayListen: a member's own group room only; other rooms and malformed ids are closed")
  void mayListen() throws Exception {
    List<Long> u = newUsers(2);
    long id = topicGroup(u.get(0), "Listen", "listen").getLong("id");
    assertTrue(await(messagingInternal.mayListen(u.get(0), "g" + id)));
    assertFalse(await(messagingInternal.mayListen(u.get(1), "g" + id)), "visible is not enough: members only");
    for (String room : List.of("g", "g0", "gabc", "b" + id, "g-" + id, "g" + id + "x", "g0" + id,
        "g99999999999999999999")) {
      assertFalse(await(messagingInternal.mayListen(u.get(0), room)), room);
    }
  }

  @Test
  @DisplayName("the bridge send address takes a group as well as a user, exactly one of them, as the stamped sender")
  void bridgeGroupSend() throws Exception {
    List<Long> u = newUsers(2);
    long id = topicGroup(u.get(0), "Bridge", "bridge").getLong("id");
    DeliveryOptions as = new DeliveryOptions().addHeader(Addresses.SENDER_HEADER, Long.toString(u.get(0)));
    JsonObject sent = (JsonObject) await(vertx.eventBus().request(Messaging.BRIDGE_SEND,
        text("over the bridge").put("group", id).put("sender", u.get(1)), as)).body();
    assertEquals(u.get(0), sent.getJsonObject("message").getLong("sender"));
    assertEquals(id, sent.getJsonObject("message").getLong("group"));
    for (JsonObject bad : List.of(text("both").put("group", id).put("to", u.get(1)), text("neither"),
        text("typed").put("group", String.valueOf(id)))) {
      ExecutionException e = assertThrows(ExecutionException.class, () -> await(vertx.eventBus()
          .request(Messaging.BRIDGE_SEND, bad, as)));
      assertEquals(400, ((ReplyException) e.getCause()).failureCode(), bad.encode());
      assertEquals("validation_failed", e.getCause().getMessage());
    }
    ExecutionException outsider = assertThrows(ExecutionException.class, () -> await(vertx.eventBus()
        .request(Messaging.BRIDGE_SEND, text("outsider").put("group", id),
            new DeliveryOptions().addHeader(Addresses.SENDER_HEADER, Long.toString(u.get(1))))));
    assertEquals(403, ((ReplyException) outsider.getCause()).failureCode());
    assertEquals("not_group_member", outsider.getCause().getMessage());
  }
}
