package io.kith.relations.api.events;

import io.kith.relations.api.RelationsEvents;

/**
 * {@code from} and {@code to} no longer follow each other. Its payload is {@code {from, to}} ({@link RelationsEvent}).
 */
public record FriendshipEnded(long from, long to) implements RelationsEvent {

  @Override
  public String eventType() {
    return RelationsEvents.FRIENDSHIP_ENDED;
  }
}
