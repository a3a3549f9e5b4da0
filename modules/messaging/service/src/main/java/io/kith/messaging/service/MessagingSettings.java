package io.kith.messaging.service;

import io.kith.platform.config.Bounds;
import io.vertx.core.json.JsonObject;

/**
 * The {@code messaging} configuration section.
 *
 * @param recallSeconds how long after sending a message its sender may recall it
 * @param windowSize    most recent messages per conversation kept in Redis for fast history
 * @param windowTtlSeconds how long an idle conversation's window stays in Redis
 * @param settleMillis  how long a missing sequence below a newer message is taken for a write still in flight (a
 *                      history page stops before it); past that it is a hole (a reserved sequence whose write failed)
 * @param sendsPerMinute new messages a user may send per minute (retries of a stored client id are not counted)
 * @param groupMemberCap most members of a topic or friend group (managed groups have no cap)
 * @param groupsPerHour groups a user may create per hour
 * @param invitationsPerHour invitation calls (each up to 50 users) a user may make per hour
 * @param groupJoinsPerMinute group joins and leaves (together) a user may make per minute
 * @param typingIntervalMillis one typing indicator per user and conversation per this interval; more are dropped
 * @param invitationDays how many days a pending group invitation stays valid; older ones are treated as gone and are
 *                       swept from MongoDB
 * @param invitationSweepSeconds how often each node sweeps expired invitations (the first sweep comes at a random
 *                       moment within this period, at most a minute, after starting)
 * @param readsPerMinute read-marker moves (mark-read calls) a user may make per minute over all conversations
 * @param directWaitingMax direct sends that may wait on this node for their batch's insert (beside the batch being
 *                       inserted); one more is refused with {@code unavailable} and {@code retry_after}
 */
record MessagingSettings(int recallSeconds, int windowSize, int windowTtlSeconds, int settleMillis,
                         int sendsPerMinute, int groupMemberCap, int groupsPerHour, int invitationsPerHour,
                         int groupJoinsPerMinute, int typingIntervalMillis, int invitationDays,
                         int invitationSweepSeconds, int readsPerMinute, int directWaitingMax) {

  /** Config key of {@link #recallSeconds}. */
  static final String RECALL_SECONDS = "recall-seconds";
  /** Config key of {@link #windowSize}. */
  static final String WINDOW_SIZE = "window-size";
  /** Config key of {@link #windowTtlSeconds}. */
  static final String WINDOW_TTL_SECONDS = "window-ttl-seconds";
  /** Config key of {@link #settleMillis}. */
  static final String SETTLE_MILLIS = "settle-millis";
  /** Config key of {@link #sendsPerMinute}. */
  static final String SENDS_PER_MINUTE = "sends-per-minute";
  /** Config key of {@link #groupMemberCap}. */
  static final String GROUP_MEMBER_CAP = "group-member-cap";
  /** Config key of {@link #groupsPerHour}. */
  static final String GROUPS_PER_HOUR = "groups-per-hour";
  /** Config key of {@link #invitationsPerHour}. */
  static final String INVITATIONS_PER_HOUR = "group-invitations-per-hour";
  /** Config key of {@link #groupJoinsPerMinute}. */
  static final String GROUP_JOINS_PER_MINUTE = "group-joins-per-minute";
  /** Config key of {@link #typingIntervalMillis}. */
  static final String TYPING_INTERVAL_MILLIS = "typing-interval-millis";
  /** Config key of {@link #invitationDays}. */
  static final String INVITATION_DAYS = "group-invitation-days";
  /** Config key of {@link #invitationSweepSeconds}. */
  static final String INVITATION_SWEEP_SECONDS = "group-invitation-sweep-seconds";
  /** Config key of {@link #readsPerMinute}. */
  static final String READS_PER_MINUTE = "mark-reads-per-minute";
  /** Config key of {@link #directWaitingMax}. */
  static final String DIRECT_WAITING_MAX = "direct-waiting-max";

  static MessagingSettings from(JsonObject section) {
    Bounds b = Bounds.of("messaging", section);
    return new MessagingSettings(
        b.within(RECALL_SECONDS, 1, 86_400),
        b.within(WINDOW_SIZE, 1, 10_000),
        b.within(WINDOW_TTL_SECONDS, 60, 365 * 86_400),
        b.within(SETTLE_MILLIS, 100, 600_000),
        b.within(SENDS_PER_MINUTE, 1, 1_000_000),
        b.within(GROUP_MEMBER_CAP, 2, 100_000),
        b.within(GROUPS_PER_HOUR, 1, 1_000_000),
        b.within(INVITATIONS_PER_HOUR, 1, 1_000_000),
        b.within(GROUP_JOINS_PER_MINUTE, 1, 1_000_000),
        b.within(TYPING_INTERVAL_MILLIS, 100, 60_000),
        b.within(INVITATION_DAYS, 1, 365),
        b.within(INVITATION_SWEEP_SECONDS, 1, 86_400),
        b.within(READS_PER_MINUTE, 1, 1_000_000),
        b.within(DIRECT_WAITING_MAX, 1, 1_000_000));
  }

  /** {@link #invitationDays} in milliseconds. */
  long invitationMillis() {
    return invitationDays * 86_400_000L;
  }
}
