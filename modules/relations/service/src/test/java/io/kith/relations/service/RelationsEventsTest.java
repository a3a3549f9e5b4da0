package io.kith.relations.service;

import io.kith.platform.events.DomainEvent;
import io.kith.relations.api.RelationsEvents;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The domain events relations appends to {@code events:relations}, each with {@code {from, to}}. */
class RelationsEventsTest extends RelationsTestBase {

  @Test
  @DisplayName("follow, mutual follow and unfollow append UserFollowed, FriendshipFormed, UserUnfollowed, FriendshipEnded")
  void followEvents() throws Exception {
    List<Long> users = newUsers(2);
    long a = users.get(0);
    long b = users.get(1);
    try (EventRecorder events = recordEvents()) {
      await(relations.follow(a, b));
      DomainEvent followed = events.awaitEvent(RelationsEvents.USER_FOLLOWED, a, b);
      assertEquals(RelationsEvents.DOMAIN, followed.domain());
      assertEquals(new JsonObject().put("from", a).put("to", b), followed.payload());
      assertTrue(followed.id() > 0 && followed.time() > 0);

      await(relations.follow(b, a));
      events.awaitEvent(RelationsEvents.USER_FOLLOWED, b, a);
      awaitBetween(events, RelationsEvents.FRIENDSHIP_FORMED, a, b);

      await(relations.unfollow(a, b));
      events.awaitEvent(RelationsEvents.USER_UNFOLLOWED, a, b);
      awaitBetween(events, RelationsEvents.FRIENDSHIP_ENDED, a, b);

      // repeats change nothing and append nothing
      await(relations.unfollow(a, b));
      await(relations.follow(b, a));
      await(relations.block(b, a));
      events.awaitEvent(RelationsEvents.USER_BLOCKED, b, a);
      assertEquals(1, events.of(RelationsEvents.USER_FOLLOWED, a, b).size());
      assertEquals(1, events.of(RelationsEvents.USER_FOLLOWED, b, a).size());
      assertEquals(1, events.of(RelationsEvents.USER_UNFOLLOWED, a, b).size());
      assertEquals(1, events.between(RelationsEvents.FRIENDSHIP_FORMED, a, b).size());
      assertEquals(1, events.between(RelationsEvents.FRIENDSHIP_ENDED, a, b).size());
    }
  }

  @Test
  @DisplayName("a request and its acceptance append FollowRequested, FollowRequestAccepted and UserFollowed")
  void requestEvents() throws Exception {
    long owner = newPrivateUser();
    long fan = newUser();
    try (EventRecorder events = recordEvents()) {
      await(relations.follow(fan, owner));
      DomainEvent requested = events.awaitEvent(RelationsEvents.FOLLOW_REQUESTED, fan, owner);
      assertEquals(new JsonObject().put("from", fan).put("to", owner), requested.payload());

      await(relations.acceptRequest(owner, fan));
      DomainEvent accepted = events.awaitEvent(RelationsEvents.FOLLOW_REQUEST_ACCEPTED, owner, fan);
      assertEquals(new JsonObject().put("from", owner).put("to", fan), accepted.payload());
      events.awaitEvent(RelationsEvents.USER_FOLLOWED, fan, owner);
    }
  }

  @Test
  @DisplayName("a block appends UserBlocked and the UserUnfollowed / FriendshipEnded it caused; an unblock appends UserUnblocked")
  void blockEvents() throws Exception {
    List<Long> users = newUsers(2);
    long me = users.get(0);
    long them = users.get(1);
    try (EventRecorder events = recordEvents()) {
      befriend(me, them);
      awaitBetween(events, RelationsEvents.FRIENDSHIP_FORMED, me, them);
      await(relations.block(me, them));
      DomainEvent blocked = events.awaitEvent(RelationsEvents.USER_BLOCKED, me, them);
      assertEquals(new JsonObject().put("from", me).put("to", them), blocked.payload());
      events.awaitEvent(RelationsEvents.USER_UNFOLLOWED, me, them);
      events.awaitEvent(RelationsEvents.USER_UNFOLLOWED, them, me);
      awaitBetween(events, RelationsEvents.FRIENDSHIP_ENDED, me, them);

      // the blocked user's refused follow appends nothing
      failsWith("user_not_found", relations.follow(them, me));
      await(relations.unblock(me, them));
      DomainEvent unblocked = events.awaitEvent(RelationsEvents.USER_UNBLOCKED, me, them);
      assertEquals(new JsonObject().put("from", me).put("to", them), unblocked.payload());
      assertEquals(Set.of(RelationsEvents.USER_FOLLOWED, RelationsEvents.FRIENDSHIP_FORMED,
              RelationsEvents.USER_BLOCKED, RelationsEvents.USER_UNFOLLOWED, RelationsEvents.FRIENDSHIP_ENDED,
              RelationsEvents.USER_UNBLOCKED),
          Set.copyOf(events.involving(me).stream().map(DomainEvent::type).toList()));
      // followed twice, formed, blocked, unfollowed twice, ended, unblocked: nothing for the refused follow
      assertEquals(8, events.involving(me).size(), "events: " + events.involving(me));
    }
  }

  @Test
  @DisplayName("mutes, hides, tags, groups and rejected requests append no relations event")
  void quietChanges() throws Exception {
    List<Long> users = newUsers(3);
    long me = users.get(0);
    long them = users.get(1);
    long fan = users.get(2);
    await(accounts.updateProfile(me, new JsonObject().put("settings", new JsonObject().put("follow_approval", true))));
    try (EventRecorder events = recordEvents()) {
      await(relations.mute(me, them));
      await(relations.hide(me, them));
      await(relations.unmute(me, them));
      await(relations.unhide(me, them));
      await(relations.tagUser(me, them, "quiet"));
      await(relations.createGroup(me, "quiet"));
      await(relations.follow(fan, me));
      events.awaitEvent(RelationsEvents.FOLLOW_REQUESTED, fan, me);
      await(relations.rejectRequest(me, fan));
      // a marker appended after everything above
      await(relations.block(me, them));
      events.awaitEvent(RelationsEvents.USER_BLOCKED, me, them);
      assertEquals(List.of(RelationsEvents.FOLLOW_REQUESTED, RelationsEvents.USER_BLOCKED),
          events.involving(me).stream().map(DomainEvent::type).toList());
    }
  }

  private void awaitBetween(EventRecorder events, String type, long a, long b) throws Exception {
    pollUntil(type + " between " + a + " and " + b,
        () -> io.vertx.core.Future.succeededFuture(!events.between(type, a, b).isEmpty()));
  }
}
