package io.kith.relations.api.events;

import io.kith.relations.api.RelationsEvents;

/** {@code from} blocked {@code to}. Its payload is {@code {from, to}} ({@link RelationsEvent}). */
public record UserBlocked(long from, long to) implements RelationsEvent {

  @Override
  public String eventType() {
    return RelationsEvents.USER_BLOCKED;
  }
}
