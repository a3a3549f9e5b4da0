package io.kith.relations.service;

import io.kith.relations.api.RelationsEvents;
import io.kith.relations.api.events.FollowRequestAccepted;
import io.kith.relations.api.events.FollowRequested;
import io.kith.relations.api.events.FriendshipEnded;
import io.kith.relations.api.events.FriendshipFormed;
import io.kith.relations.api.events.RelationsEvent;
import io.kith.relations.api.events.UserBlocked;
import io.kith.relations.api.events.UserFollowed;
import io.kith.relations.api.events.UserUnblocked;
import io.kith.relations.api.events.UserUnfollowed;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The typed relations events write and read the payloads the stream has always held. */
class RelationsEventRecordsTest {

  @Test
  @DisplayName("every relations event writes {from, to} byte for byte as before and reads back to an equal record")
  void roundTrip() {
    List<RelationsEvent> all = List.of(new UserFollowed(1, 2), new UserUnfollowed(3, 4), new FollowRequested(5, 6),
        new FollowRequestAccepted(7, 8), new FriendshipFormed(9, 10), new FriendshipEnded(11, 12),
        new UserBlocked(13, 14), new UserUnblocked(9007199254740991L, 15));
    List<String> types = List.of(RelationsEvents.USER_FOLLOWED, RelationsEvents.USER_UNFOLLOWED,
        RelationsEvents.FOLLOW_REQUESTED, RelationsEvents.FOLLOW_REQUEST_ACCEPTED, RelationsEvents.FRIENDSHIP_FORMED,
        RelationsEvents.FRIENDSHIP_ENDED, RelationsEvents.USER_BLOCKED, RelationsEvents.USER_UNBLOCKED);
    for (int i = 0; i < all.size(); i++) {
      RelationsEvent event = all.get(i);
      assertEquals(types.get(i), event.eventType());
      // what the emitter wrote before the records: new JsonObject().put("from", from).put("to", to)
      String before = new JsonObject().put("from", event.from()).put("to", event.to()).encode();
      assertEquals(before, event.toJson().encode());
      assertEquals(event, RelationsEvent.fromJson(event.eventType(), new JsonObject(before)));
    }
  }

  @Test
  @DisplayName("a stored entry with small ids, missing members or an unknown type is read as consumers read it")
  void readsStoredEntries() {
    assertEquals(new UserFollowed(4, 5), RelationsEvent.fromJson("UserFollowed", new JsonObject("{\"from\":4,\"to\":5}")));
    assertEquals(new UserBlocked(0, 0), RelationsEvent.fromJson("UserBlocked", new JsonObject()));
    assertNull(RelationsEvent.fromJson("UserWaved", new JsonObject("{\"from\":4,\"to\":5}")));
  }
}
