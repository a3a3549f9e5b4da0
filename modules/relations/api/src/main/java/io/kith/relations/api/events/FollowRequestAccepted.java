package io.kith.relations.api.events;

import io.kith.relations.api.RelationsEvents;

/**
 * {@code from} (the target) accepted {@code to}'s request. Its payload is {@code {from, to}} ({@link RelationsEvent}).
 */
public record FollowRequestAccepted(long from, long to) implements RelationsEvent {

  @Override
  public String eventType() {
    return RelationsEvents.FOLLOW_REQUEST_ACCEPTED;
  }
}
