package io.kith.messaging.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
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

@DisplayName("Group membership races: the members array is the authority, never a member document left behind")
class GroupMembershipRaceTest extends GroupTestBase {

  /** What a kick racing a join's member-document rewrite leaves: the user out of members, their document kept. */
  private void pullKeepingDocument(long group, long user) throws Exception {
    await(platform.mongo().updateCollection(ConversationStore.CONVERSATIONS,
        new JsonObject().put("_id", group).put("members", user),
        new JsonObject().put("$pull", new JsonObject().put("members", user))
            .put("$inc", new JsonObject().put("member_count", -1))));
    JsonObject doc = await(platform.mongo().findOne(ConversationStore.MEMBERS,
        new JsonObject().put("_id", ConversationStore.memberId(group, user)), null));
    assertTrue(doc != null, "the member document stays, as after the race");
  }

  private boolean listed(long user, long group) throws Exception {
    for (Object item : await(messaging.conversations(user, PageRequest.first(100)).map(Page::toJson))
        .getJsonArray("items")) {
      if (((JsonObject) item).getLong("id") == group) {
        return true;
      }
    }
    return false;
  }

  @Test
  @DisplayName("a user out of members with a member document left: not listed, not a member, never the successor")
  void leftoverDocumentIsIgnored() throws Exception {
    List<Long> u = newUsers(3);
    long owner = u.get(0);
    long ghost = u.get(1);
    long other = u.get(2);
    String tag = "race" + UUID.randomUUID().toString().replace("-", "").substring(0, 8);
    long id = topicGroup(owner, "Race " + tag, tag).getLong("id");
    await(messaging.joinGroup(ghost, id));
    await(messaging.joinGroup(other, id));
    // the ghost is the oldest admin: before the fix the successor of a leaving owner
    await(messaging.setMemberRole(owner, id, ghost, "admin"));
    groupSend(owner, id, "hello");
    assertTrue(listed(ghost, id));

    pullKeepingDocument(id, ghost);

    assertFalse(listed(ghost, id), "the conversations list drops a group the user is not in");
    failsWith("conversation_not_found", null, messaging.conversation(ghost, id));
    assertFalse(memberIds(await(messaging.groupMembers(owner, id, TestPages.FIRST).map(Page::toJson))).contains(ghost));
    JsonArray found = await(messaging.searchGroups(ghost, new JsonObject().put("q", tag), TestPages.FIRST)
        .map(Page::toJson)).getJsonArray("items");
    assertEquals(1, found.size());
    assertNull(found.getJsonObject(0).getString("role"), "search shows no role for a non-member");
    failsWith("member_not_found", null, messaging.setMemberRole(owner, id, ghost, "owner"));

    await(messaging.leaveGroup(owner, id));
    JsonObject after = await(messaging.group(other, id));
    assertEquals(other, after.getLong("owner"), "the hand-over skips the user outside members");
    assertEquals("owner", after.getString("role"));
  }

  @Test
  @DisplayName("a read marker moved while the member document is gone (a kick between the checks): not found, no 500")
  void markReadWithoutMemberDocument() throws Exception {
    List<Long> u = newUsers(2);
    long id = topicGroup(u.get(0), "Read race", "readrace").getLong("id");
    await(messaging.joinGroup(u.get(1), id));
    groupSend(u.get(0), id, "one");
    await(platform.mongo().removeDocument(ConversationStore.MEMBERS,
        new JsonObject().put("_id", ConversationStore.memberId(id, u.get(1)))));
    failsWith("conversation_not_found", null, messaging.markRead(u.get(1), id, 1));
  }
}
