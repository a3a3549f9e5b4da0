package io.kith.messaging.service;

import io.kith.messaging.api.MessagingEvents;
import io.kith.platform.testkit.Poll;
import io.kith.platform.page.Page;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Group invitations expire")
class GroupInvitationExpiryTest extends GroupTestBase {

  private static final long DAY = 86_400_000L;
  private static final int DAYS = 30;

  @Override
  protected JsonObject messagingConfig() {
    // the default lifetime; every node of this class sweeps each second
    return new JsonObject().put(MessagingSettings.INVITATION_DAYS, DAYS)
        .put(MessagingSettings.INVITATION_SWEEP_SECONDS, 1);
  }

  /** Makes the stored invitation of {@code user} to {@code group} as old as {@code ageMillis}. */
  private void age(long group, long user, long ageMillis) throws Exception {
    var r = await(platform.mongo().updateCollection(GroupStore.INVITATIONS,
        new JsonObject().put("_id", ConversationStore.memberId(group, user)),
        new JsonObject().put("$set", new JsonObject().put("created", System.currentTimeMillis() - ageMillis))));
    assertEquals(1L, r.getDocMatched(), "the invitation to age");
  }

  private JsonObject stored(long group, long user) throws Exception {
    return await(platform.mongo().findOne(GroupStore.INVITATIONS,
        new JsonObject().put("_id", ConversationStore.memberId(group, user)), null));
  }

  private JsonArray pending(long user) throws Exception {
    return await(messaging.groupInvitations(user, TestPages.FIRST).map(Page::toJson)).getJsonArray("items");
  }

  @Test
  @DisplayName("past its lifetime an invitation is not listed, no longer shows the friend group nor lets the invitee "
      + "join; the sweep removes it and tells; an invitation just inside its lifetime is untouched; inviting again "
      + "works")
  void expired() throws Exception {
    List<Long> u = newUsers(4);
    long owner = u.get(0);
    long late = u.get(1);
    long timely = u.get(2);
    long later = u.get(3);
    befriend(owner, late);
    befriend(owner, timely);
    befriend(owner, later);
    long id = friendGroup(owner, "Old plans", List.of()).getLong("id");
    assertEquals(new JsonArray().add(late).add(timely).add(later),
        await(messaging.inviteToGroup(owner, id, List.of(late, timely, later))).getJsonArray("invited"));
    assertEquals(1, pending(late).size());

    Inbox events = events();
    age(id, late, DAYS * DAY + 60_000L);
    age(id, timely, DAYS * DAY - 3_600_000L);

    // whether or not the sweep has run yet, the expired one is gone for every read
    assertEquals(0, pending(late).size());
    failsWith("group_not_found", null, messaging.group(late, id));
    failsWith("group_not_found", null, messaging.joinGroup(late, id));
    JsonObject event = events.await("InvitationExpired", event(MessagingEvents.INVITATION_EXPIRED, id));
    assertEquals(late, event.getJsonObject("payload").getLong("user"));
    long expiredAt = event.getJsonObject("payload").getLong("expired_at");
    assertTrue(expiredAt < System.currentTimeMillis() && expiredAt > System.currentTimeMillis() - 120_000L,
        "when it expired: " + expiredAt);
    await(Poll.until(vertx, WAIT, "the expired invitation removed", () -> platform.mongo().findOne(
        GroupStore.INVITATIONS, new JsonObject().put("_id", ConversationStore.memberId(id, late)), null)
        .map(doc -> doc == null)));

    // the one inside its lifetime stays: once a later sweep has removed another that expired since, it still has not
    // been told as expired
    age(id, later, DAYS * DAY + 1);
    events.await("the later InvitationExpired", e -> event(MessagingEvents.INVITATION_EXPIRED, id).test(e)
        && e.getJsonObject("payload").getLong("user") == later);
    assertNotNull(stored(id, timely));
    assertEquals(1, pending(timely).size());
    assertTrue(await(messaging.group(timely, id)).getBoolean("invited"));
    assertEquals(0, events.items.stream().filter(event(MessagingEvents.INVITATION_EXPIRED, id))
        .filter(e -> e.getJsonObject("payload").getLong("user") == timely).count());

    // invited again, the late friend sees the group and joins
    assertEquals(new JsonArray().add(late),
        await(messaging.inviteToGroup(owner, id, List.of(late))).getJsonArray("invited"));
    assertTrue(await(messaging.group(late, id)).getBoolean("invited"));
    assertEquals("member", await(messaging.joinGroup(late, id)).getString("role"));
  }

  @Test
  @DisplayName("a new invitation replaces an expired one not yet swept, and the sweep then leaves the renewed one")
  void renewed() throws Exception {
    GroupStore store = new GroupStore(platform.mongo(), DAYS * DAY);
    long group = System.nanoTime();
    long user = 7;
    long now = System.currentTimeMillis();
    JsonObject old = new JsonObject().put("_id", ConversationStore.memberId(group, user)).put("group", group)
        .put("user", user).put("by", 1L).put("created", now - DAYS * DAY - 1);
    await(platform.mongo().insert(GroupStore.INVITATIONS, old));
    assertNull(await(store.invitation(group, user)), "an expired invitation is no invitation");
    assertEquals(List.of(), await(store.invitationsTo(user, List.of(group))));

    assertTrue(await(store.invite(group, user, 2L, now)), "replacing an expired invitation is a new one");
    assertFalse(await(store.invite(group, user, 3L, now)), "a valid one is not repeated");
    JsonObject renewed = stored(group, user);
    assertEquals(2L, renewed.getLong("by"));
    assertEquals(now, renewed.getLong("created"));
    assertNotNull(await(store.invitation(group, user)));

    // a sweeper that found the old one before the renewal removes nothing
    assertFalse(await(store.dropExpired(old)));
    assertNotNull(stored(group, user));
    await(platform.mongo().removeDocument(GroupStore.INVITATIONS, new JsonObject().put("_id", old.getString("_id"))));
  }

  @Test
  @DisplayName("the lifetime and the sweep period are bounded settings")
  void bounds() {
    for (JsonObject bad : List.of(new JsonObject().put(MessagingSettings.INVITATION_DAYS, 0),
        new JsonObject().put(MessagingSettings.INVITATION_DAYS, 366),
        new JsonObject().put(MessagingSettings.INVITATION_SWEEP_SECONDS, 0),
        new JsonObject().put(MessagingSettings.INVITATION_SWEEP_SECONDS, 86_401))) {
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MessagingSettings.from(bad));
      assertTrue(e.getMessage().contains(bad.fieldNames().iterator().next()), e.getMessage());
    }
    MessagingSettings defaults = MessagingSettings.from(new JsonObject());
    assertEquals(30L * DAY, defaults.invitationMillis());
    assertEquals(3_600, defaults.invitationSweepSeconds());
  }
}
