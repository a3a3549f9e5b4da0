package io.kith.relations.api.events;

import io.kith.relations.api.RelationsEvents;

/** {@code from} asked to follow {@code to}. Its payload is {@code {from, to}} ({@link RelationsEvent}). */
public record FollowRequested(long from, long to) implements RelationsEvent {

  @Override
  public String eventType() {
    return RelationsEvents.FOLLOW_REQUESTED;
  }
}
