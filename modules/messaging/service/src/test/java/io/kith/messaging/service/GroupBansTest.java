package io.kith.messaging.service;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

@DisplayName("Group bans: a kicked user cannot rejoin or be re-invited by a member; the owner or an admin lifts it")
class GroupBansTest extends GroupTestBase {

  @Test
  @DisplayName("topic group: a kicked user's join is banned_from_group until an admin invites them back")
  void topicGroupBan() throws Exception {
    List<Long> u = newUsers(4);
    long owner = u.get(0);
    long admin = u.get(1);
    long kicked = u.get(2);
    long member = u.get(3);
    long id = topicGroup(owner, "Bans", "bans").getLong("id");
    for (long user : List.of(admin, kicked, member)) {
      await(messaging.joinGroup(user, id));
    }
    await(messaging.setMemberRole(owner, id, admin, "admin"));
    await(messaging.kickMember(admin, id, kicked));
    failsWith("banned_from_group", null, messaging.joinGroup(kicked, id));
    // a plain member cannot bring them back
    befriend(member, kicked);
    failsWith("banned_from_group", "users", messaging.inviteToGroup(member, id, List.of(kicked)));
    failsWith("banned_from_group", null, messaging.joinGroup(kicked, id));
    // an admin can: the invitation lifts the ban
    befriend(admin, kicked);
    assertEquals(List.of(kicked), await(messaging.inviteToGroup(admin, id, List.of(kicked)))
        .getJsonArray("invited").getList());
    assertEquals("member", await(messaging.joinGroup(kicked, id)).getString("role"));
    // leaving is not a ban
    await(messaging.leaveGroup(member, id));
    await(messaging.joinGroup(member, id));
  }

  @Test
  @DisplayName("friend group: a member cannot re-invite a kicked friend; the owner can")
  void friendGroupBan() throws Exception {
    List<Long> u = newUsers(3);
    long owner = u.get(0);
    long member = u.get(1);
    long kicked = u.get(2);
    befriend(owner, member);
    befriend(owner, kicked);
    befriend(member, kicked);
    long id = friendGroup(owner, "Friends bans", List.of(member, kicked)).getLong("id");
    await(messaging.kickMember(owner, id, kicked));
    failsWith("banned_from_group", "users", messaging.inviteToGroup(member, id, List.of(kicked)));
    failsWith("group_not_found", null, messaging.joinGroup(kicked, id));
    await(messaging.inviteToGroup(owner, id, List.of(kicked)));
    JsonObject back = await(messaging.joinGroup(kicked, id));
    assertEquals("member", back.getString("role"));
  }
}
