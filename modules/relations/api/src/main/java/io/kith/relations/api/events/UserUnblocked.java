package io.kith.relations.api.events;

import io.kith.relations.api.RelationsEvents;

/** {@code from} unblocked {@code to}. Its payload is {@code {from, to}} ({@link RelationsEvent}). */
public record UserUnblocked(long from, long to) implements RelationsEvent {

  @Override
  public String eventType() {
    return RelationsEvents.USER_UNBLOCKED;
  }
}
