package io.kith.relations.api.events;

import io.kith.platform.events.Event;
import io.kith.relations.api.RelationsEvents;
import io.vertx.core.json.JsonObject;

/**
 * An event of the relations stream: every one is a pair {@code {from, to}}, {@code from} the actor and {@code to} the
 * other user. Consumers read one with {@link #fromJson}, which gives the record of the entry's type.
 */
public sealed interface RelationsEvent extends Event
    permits UserFollowed, UserUnfollowed, FollowRequested, FollowRequestAccepted, FriendshipFormed, FriendshipEnded,
    UserBlocked, UserUnblocked {

  /** The actor. */
  long from();

  /** The other user. */
  long to();

  /** The payload as stored in the stream: {@code {from, to}}. */
  @Override
  default JsonObject toJson() {
    return new JsonObject().put("from", from()).put("to", to());
  }

  /**
   * Reads a stream entry of {@code type} (a constant of {@link RelationsEvents}); a missing member reads as 0. Null
   * for a type this version does not know (a newer node's), which consumers skip.
   */
  static RelationsEvent fromJson(String type, JsonObject json) {
    long from = json.getLong("from", 0L);
    long to = json.getLong("to", 0L);
    return switch (type) {
      case RelationsEvents.USER_FOLLOWED -> new UserFollowed(from, to);
      case RelationsEvents.USER_UNFOLLOWED -> new UserUnfollowed(from, to);
      case RelationsEvents.FOLLOW_REQUESTED -> new FollowRequested(from, to);
      case RelationsEvents.FOLLOW_REQUEST_ACCEPTED -> new FollowRequestAccepted(from, to);
      case RelationsEvents.FRIENDSHIP_FORMED -> new FriendshipFormed(from, to);
      case RelationsEvents.FRIENDSHIP_ENDED -> new FriendshipEnded(from, to);
      case RelationsEvents.USER_BLOCKED -> new UserBlocked(from, to);
      case RelationsEvents.USER_UNBLOCKED -> new UserUnblocked(from, to);
      default -> null;
    };
  }

  /**
   * {@link #fromJson}, or null also when the entry lacks either user: the entry a consumer acts on, since a pair
   * with a missing side (an entry written by a faulty or older producer) names nobody to act for.
   */
  static RelationsEvent ofBoth(String type, JsonObject json) {
    RelationsEvent event = fromJson(type, json);
    return event == null || event.from() == 0 || event.to() == 0 ? null : event;
  }
}
