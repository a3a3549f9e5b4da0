package io.kith.relations.api.events;

import io.kith.relations.api.RelationsEvents;

/**
 * {@code from} stopped following {@code to} (also when a block removed the edge). Its payload is {@code {from, to}}
 * ({@link RelationsEvent}).
 */
public record UserUnfollowed(long from, long to) implements RelationsEvent {

  @Override
  public String eventType() {
    return RelationsEvents.USER_UNFOLLOWED;
  }
}
