package io.kith.relations.api.events;

import io.kith.relations.api.RelationsEvents;

/** {@code from} now follows {@code to}. Its payload is {@code {from, to}} ({@link RelationsEvent}). */
public record UserFollowed(long from, long to) implements RelationsEvent {

  @Override
  public String eventType() {
    return RelationsEvents.USER_FOLLOWED;
  }
}
