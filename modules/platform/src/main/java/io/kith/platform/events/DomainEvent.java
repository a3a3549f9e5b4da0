package io.kith.platform.events;

import io.vertx.core.json.JsonObject;

/**
 * A durable domain event as it travels on the event log.
 *
 * @param id      unique event id (a Kith id), the key for idempotent handling
 * @param domain  the emitting domain, which names its stream ({@code events:<domain>})
 * @param type    past-tense event name such as {@code UserFollowed}
 * @param time    epoch milliseconds at which the event was appended
 * @param payload the event's data
 */
public record DomainEvent(long id, String domain, String type, long time, JsonObject payload) {
}
