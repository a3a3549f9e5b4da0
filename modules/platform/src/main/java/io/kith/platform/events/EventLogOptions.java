package io.kith.platform.events;

import io.vertx.core.json.JsonObject;

/**
 * Tuning of the event log, from the {@code eventlog} configuration section.
 *
 * @param maxLength           approximate entries kept per stream (older ones are trimmed)
 * @param claimAfterMillis    idle time after which a pending entry is claimed by another consumer
 * @param batchSize           entries read per round trip
 * @param blockMillis         how long a read waits for new entries
 * @param maxDeliveries       deliveries after which an entry is moved to the group's dead-letter stream
 * @param processedTtlSeconds how long {@link EventLog#once} remembers handled ids
 * @param outboxDrainMillis   how often a node appends the events parked in the outbox ({@link EventOutbox})
 * @param memberLeftIdleMillis when a cluster member leaves, pending entries idle this long are claimed at once
 *                            instead of after {@code claimAfterMillis} (see {@link EventConsumer#memberLeft})
 */
public record EventLogOptions(long maxLength, long claimAfterMillis, int batchSize, long blockMillis,
                              int maxDeliveries, long processedTtlSeconds, long outboxDrainMillis,
                              long memberLeftIdleMillis) {

  /** Options with the default member-left claim idle (1 s). */
  public EventLogOptions(long maxLength, long claimAfterMillis, int batchSize, long blockMillis, int maxDeliveries,
                         long processedTtlSeconds, long outboxDrainMillis) {
    this(maxLength, claimAfterMillis, batchSize, blockMillis, maxDeliveries, processedTtlSeconds, outboxDrainMillis,
        1_000L);
  }

  /** Reads the {@code eventlog} section (defaults for missing keys). */
  public static EventLogOptions from(JsonObject section) {
    return new EventLogOptions(
        section.getLong("max-length", 1_000_000L),
        section.getLong("claim-after-ms", 30_000L),
        section.getInteger("batch-size", 64),
        section.getLong("block-ms", 2_000L),
        section.getInteger("max-deliveries", 10),
        section.getLong("processed-ttl-seconds", 7L * 24 * 3600),
        section.getLong("outbox-drain-ms", 5_000L),
        section.getLong("member-left-claim-idle-ms", 1_000L));
  }

  /** A copy with another claim timeout. */
  public EventLogOptions withClaimAfter(long millis) {
    return new EventLogOptions(maxLength, millis, batchSize, blockMillis, maxDeliveries, processedTtlSeconds,
        outboxDrainMillis, memberLeftIdleMillis);
  }

  /** A copy with another read block time. */
  public EventLogOptions withBlock(long millis) {
    return new EventLogOptions(maxLength, claimAfterMillis, batchSize, millis, maxDeliveries, processedTtlSeconds,
        outboxDrainMillis, memberLeftIdleMillis);
  }
}
