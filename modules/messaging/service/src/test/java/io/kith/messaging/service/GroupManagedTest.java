package io.kith.messaging.service;

import io.kith.messaging.api.MessagingEvents;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Managed groups (another domain's discussion group) through the service proxy")
class GroupManagedTest extends GroupTestBase {

  private static String ref() {
    return "activity:" + UUID.randomUUID();
  }

  @Test
  @DisplayName("one group per ref, even when asked for at once; its owner is its first member")
  void idempotentByRef() throws Exception {
    long owner = newUsers(1).get(0);
    String ref = ref();
    List<Future<JsonObject>> calls = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      calls.add(messagingInternal.managedGroup(owner, ref, new JsonObject().put("name", "Picnic")));
    }
    await(Future.all(calls));
    assertEquals(1, calls.stream().map(f -> f.result().getLong("id")).distinct().count());
    JsonObject g = calls.get(0).result();
    assertEquals("managed", g.getString("kind"));
    assertEquals("owner", g.getString("role"));
    assertEquals(1L, g.getLong("member_count"));
    assertEquals(g.getLong("id"), await(messagingInternal.managedGroup(owner, ref,
        new JsonObject().put("name", "Other")))
        .getLong("id"));
    failsWith("validation_failed", "ref", messagingInternal.managedGroup(owner, "", new JsonObject().put("name", "x")));
    failsWith("validation_failed", "ref", messagingInternal.managedGroup(owner, "r".repeat(101),
        new JsonObject().put("name", "x")));
    failsWith("validation_failed", "name", messagingInternal.managedGroup(owner, ref(), new JsonObject()));
  }

  @Test
  @DisplayName("only the owner sets the members; users cannot join, invite, kick, rename, set roles or dissolve; "
      + "a member may leave and is put back by the next add")
  void rules() throws Exception {
    List<Long> u = newUsers(4);
    long owner = u.get(0);
    long a = u.get(1);
    long b = u.get(2);
    long outsider = u.get(3);
    befriend(a, outsider);
    long id = await(messagingInternal.managedGroup(owner, ref(), new JsonObject().put("name", "Run club")))
        .getLong("id");
    Inbox events = events();

    failsWith("group_permission_denied", null, messagingInternal.setManagedMembers(a, id, List.of(a), List.of()));
    long plain = topicGroup(owner, "Plain", "plain").getLong("id");
    failsWith("group_not_found", null, messagingInternal.setManagedMembers(owner, plain, List.of(a), List.of()));
    failsWith("validation_failed", "remove", messagingInternal.setManagedMembers(owner, id, List.of(a), List.of(a)));

    await(messagingInternal.setManagedMembers(owner, id, List.of(a, b), List.of()));
    // adding members again changes nothing
    await(messagingInternal.setManagedMembers(owner, id, List.of(a, b), List.of()));
    assertEquals(3L, await(messaging.group(owner, id)).getLong("member_count"));
    assertEquals("group", await(messaging.conversation(a, id)).getString("kind"));
    groupSend(a, id, "see you at the start");

    failsWith("group_not_found", null, messaging.joinGroup(outsider, id));
    failsWith("group_not_found", null, messaging.group(outsider, id));
    failsWith("group_managed", null, messaging.inviteToGroup(a, id, List.of(outsider)));
    failsWith("group_managed", null, messaging.kickMember(owner, id, a));
    failsWith("group_managed", null, messaging.updateGroup(owner, id, new JsonObject().put("name", "mine")));
    failsWith("group_managed", null, messaging.setMemberRole(owner, id, a, "admin"));
    failsWith("group_managed", null, messaging.dissolveGroup(owner, id));

    // a member mutes the chat by leaving; the owner leaving does not hand the group over
    await(messaging.leaveGroup(b, id));
    assertFalse(await(messagingInternal.mayListen(b, "g" + id)));
    await(messaging.leaveGroup(owner, id));
    assertEquals(owner, await(messaging.group(a, id)).getLong("owner"));
    await(messagingInternal.setManagedMembers(owner, id, List.of(b, owner), List.of()));
    assertTrue(await(messagingInternal.mayListen(b, "g" + id)));
    assertEquals("owner", await(messaging.group(owner, id)).getString("role"));

    // removal: the room is revoked at once and the member no longer reads
    Inbox revoked = revocations();
    await(messagingInternal.setManagedMembers(owner, id, List.of(), List.of(a, outsider)));
    revoked.await("the room revoked for the removed member", revoked(id, a));
    assertFalse(revoked.any(n -> n.getJsonArray("users").contains(outsider)), "a non-member is not revoked");
    assertFalse(await(messagingInternal.mayListen(a, "g" + id)));
    failsWith("conversation_not_found", null, messaging.history(a, id, new JsonObject(), TestPages.FIRST));
    failsWith("group_not_found", null, messaging.sendToGroup(a, id, text("still here?")));

    events.await("GroupLeft of the removed member", e -> MessagingEvents.GROUP_LEFT.equals(e.getString("type"))
        && e.getJsonObject("payload").getLong("group") == id && e.getJsonObject("payload").getLong("user") == a);
    JsonObject joined = events.await("GroupJoined of a", e -> MessagingEvents.GROUP_JOINED.equals(e.getString("type"))
        && e.getJsonObject("payload").getLong("group") == id && e.getJsonObject("payload").getLong("user") == a)
        .getJsonObject("payload");
    assertEquals("managed", joined.getString("via"));
    assertEquals("managed", joined.getString("kind"));
    assertEquals("Run club", joined.getString("name"));
    assertEquals(1, events.items.stream().filter(e -> MessagingEvents.GROUP_JOINED.equals(e.getString("type"))
        && e.getJsonObject("payload").getLong("user") == a).count(), "adding again appended nothing");
  }
}
