package io.kith.relations.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Follow requests to accounts that approve their followers. */
class RequestsTest extends RelationsTestBase {

  @Test
  @DisplayName("the requester cancels a pending request by unfollowing, and the target can no longer accept it")
  void requesterCancels() throws Exception {
    long owner = newPrivateUser();
    long fan = newUser();
    assertEquals("requested", await(relations.follow(fan, owner)).getString("state"));
    assertEquals("requested", await(relations.follow(fan, owner)).getString("state"), "asking twice is one request");
    assertEquals(List.of(fan), userIds(await(relations.incomingRequests(owner, PageRequest.first(10))
        .map(Page::toJson))));

    await(relations.unfollow(fan, owner));

    assertTrue(await(relations.incomingRequests(owner, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.outgoingRequests(fan, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    failsWith("request_not_found", relations.acceptRequest(owner, fan));
    failsWith("request_not_found", relations.rejectRequest(owner, fan));
    JsonObject counts = await(relationsInternal.counts(owner));
    assertEquals(0, counts.getLong("follower_count"));
  }

  @Test
  @DisplayName("only the target can accept or reject a request: anyone else, the requester included, gets request_not_found")
  void notYourRequest() throws Exception {
    long owner = newPrivateUser();
    long otherOwner = newPrivateUser();
    long fan = newUser();
    long stranger = newUser();
    await(relations.follow(fan, owner));

    failsWith("request_not_found", relations.acceptRequest(stranger, fan));
    failsWith("request_not_found", relations.rejectRequest(stranger, fan));
    failsWith("request_not_found", relations.acceptRequest(otherOwner, fan));
    failsWith("request_not_found", relations.acceptRequest(fan, owner));
    failsWith("request_not_found", relations.rejectRequest(fan, owner));
    failsWith("request_not_found", relations.acceptRequest(owner, stranger));

    // the request is untouched and still the target's to decide
    assertEquals(List.of(fan), userIds(await(relations.incomingRequests(owner, PageRequest.first(10))
        .map(Page::toJson))));
    assertEquals(List.of(owner), userIds(await(relations.outgoingRequests(fan, PageRequest.first(10))
        .map(Page::toJson))));
    assertEquals(0, await(relationsInternal.counts(owner)).getLong("follower_count"));
    assertEquals(0, await(relationsInternal.counts(stranger)).getLong("following_count"));
    await(relations.acceptRequest(owner, fan));
    assertTrue(relation(fan, owner).getBoolean("following"));
  }

  @Test
  @DisplayName("accepting turns the request into a follow; rejecting drops it silently and the requester may ask again")
  void acceptAndReject() throws Exception {
    long owner = newPrivateUser();
    List<Long> fans = newUsers(2);
    long accepted = fans.get(0);
    long rejected = fans.get(1);
    await(relations.follow(accepted, owner));
    await(relations.follow(rejected, owner));

    await(relations.acceptRequest(owner, accepted));
    JsonObject rel = relation(accepted, owner);
    assertTrue(rel.getBoolean("following"));
    assertFalse(rel.getBoolean("requested"));
    assertEquals(List.of(accepted), userIds(await(relations.followers(owner, owner, PageRequest.first(10))
        .map(Page::toJson))));
    assertEquals(1, await(relationsInternal.counts(owner)).getLong("follower_count"));
    assertEquals(1, await(relationsInternal.counts(accepted)).getLong("following_count"));
    assertEquals("following", await(relations.follow(accepted, owner)).getString("state"));

    await(relations.rejectRequest(owner, rejected));
    JsonObject rej = relation(rejected, owner);
    assertFalse(rej.getBoolean("following"));
    assertFalse(rej.getBoolean("requested"));
    assertTrue(await(relations.outgoingRequests(rejected, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    assertEquals(List.of(), userIds(await(relations.incomingRequests(owner, PageRequest.first(10)).map(Page::toJson))));
    assertEquals("requested", await(relations.follow(rejected, owner)).getString("state"));
    assertEquals(List.of(rejected), userIds(await(relations.incomingRequests(owner, PageRequest.first(10))
        .map(Page::toJson))));
  }

  @Test
  @DisplayName("pending requests page newest first both ways, incoming for the target and outgoing for the requester")
  void pendingListsPaged() throws Exception {
    List<Long> owners = newPrivateUsers(3);
    List<Long> fans = newUsers(3);
    long fan = fans.get(0);
    for (long owner : owners) {
      await(relations.follow(fan, owner));
    }
    long owner = owners.get(0);
    for (int i = 1; i < fans.size(); i++) {
      await(relations.follow(fans.get(i), owner));
    }

    JsonObject out1 = await(relations.outgoingRequests(fan, PageRequest.first(2)).map(Page::toJson));
    assertEquals(List.of(owners.get(2), owners.get(1)), userIds(out1));
    assertNotNull(out1.getString("next"));
    JsonObject out2 = await(relations.outgoingRequests(fan, PageRequest.after(out1.getString("next"), 2))
        .map(Page::toJson));
    assertEquals(List.of(owners.get(0)), userIds(out2));
    assertNull(out2.getString("next"));

    assertEquals(List.of(fans.get(2), fans.get(1), fans.get(0)),
        allPages((limit, cursor) -> relations.incomingRequests(owner, PageRequest.after(cursor, limit))
            .map(Page::toJson), 2));
    JsonObject item = await(relations.incomingRequests(owner, PageRequest.first(1))
        .map(Page::toJson)).getJsonArray("items").getJsonObject(0);
    assertEquals(fans.get(2), item.getJsonObject("user").getLong("id"));
    assertTrue(item.getLong("since") > 0);
    // neither list shows up on the other side
    assertTrue(await(relations.incomingRequests(fan, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.outgoingRequests(owner, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    failsWith("validation_failed", relations.incomingRequests(owner, PageRequest.after("not-a-cursor", 2))
        .map(Page::toJson));
  }

  @Test
  @DisplayName("requests to yourself or to nobody are refused")
  void refusals() throws Exception {
    long owner = newPrivateUser();
    failsWith("self_relation", relations.follow(owner, owner));
    failsWith("user_not_found", relations.follow(owner, 8_999_999_999_998L));
    failsWith("request_not_found", relations.acceptRequest(owner, owner));
  }

  private JsonObject relation(long viewer, long other) throws Exception {
    return await(relations.relationships(viewer, List.of(other))).getJsonObject(Long.toString(other));
  }
}
