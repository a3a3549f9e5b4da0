package io.kith.feeds.service;

import io.vertx.core.json.JsonObject;

/**
 * The {@code feeds} configuration section.
 *
 * @param timelineCap          most post ids kept in one Redis timeline (home, moments, an author's recent posts)
 * @param celebrityThreshold   authors with more than this many followers are not fanned out; their posts are merged
 *                             into followers' timelines at read time
 * @param timelineTtlSeconds   a timeline not read for this long expires; fan-out skips users without one (inactive),
 *                             and it is rebuilt from MongoDB on their next read
 * @param backfillPosts        recent posts of a newly followed user copied into the follower's timelines
 * @param postsPerHour         posts (and reposts) a user may publish per hour
 * @param commentsPerMinute    comments a user may add per minute
 * @param likesPerMinute       likes and unlikes a user may make per minute
 * @param fanoutWorkers        posts fanned out at a time per node (the concurrency of its feeds-stream consumer)
 * @param editsPerHour         post edits a user may make per hour (each visibility change fans out again)
 * @param fanoutPage           followers read per page by the fan-out worker (relations answers up to 10,000)
 * @param fanoutTimelinesPerCall timelines one fan-out script call inserts into
 * @param fanoutSameSlot       Redis is a Redis Cluster: one script call inserts only into timelines of one hash slot
 * @param fanoutPrefetch       feeds-stream events a node takes at once (at least {@code fanoutWorkers}); it fans them
 *                             out oldest post first, {@code fanoutWorkers} at a time
 * @param recountSettleSeconds how long after a post's last like, comment or repost its counters are recounted from the
 *                             records (see {@link CounterRecount})
 * @param recountEverySeconds  how often each node looks for posts due for a recount
 */
record FeedsSettings(int timelineCap, int celebrityThreshold, int timelineTtlSeconds, int backfillPosts,
                     int postsPerHour, int commentsPerMinute, int likesPerMinute, int fanoutWorkers, int editsPerHour,
                     int fanoutPage, int fanoutTimelinesPerCall, boolean fanoutSameSlot, int fanoutPrefetch,
                     int recountSettleSeconds, int recountEverySeconds) {

  static FeedsSettings from(JsonObject s) {
    return new FeedsSettings(
        within(s, "timeline-cap", 800, 2, 100_000),
        s.getInteger("celebrity-threshold", 10_000),
        s.getInteger("timeline-ttl-seconds", 14 * 86_400),
        within(s, "backfill-posts", 20, 0, 800),
        s.getInteger("posts-per-hour", 100),
        s.getInteger("comments-per-minute", 30),
        s.getInteger("likes-per-minute", 120),
        within(s, "fanout-workers", 4, 1, 64),
        s.getInteger("edits-per-hour", 60),
        within(s, "fanout-page", 10_000, 1, 10_000),
        within(s, "fanout-timelines-per-call", 200, 1, 1_000),
        s.getBoolean("fanout-same-slot", false),
        within(s, "fanout-prefetch", 16, 1, 1_024),
        within(s, "recount-settle-seconds", 60, 1, 3_600),
        within(s, "recount-every-seconds", 10, 1, 3_600));
  }

  /** The value of {@code key}, refused at start when out of bounds (a cap of 0 would let timelines grow forever). */
  private static int within(JsonObject s, String key, int fallback, int min, int max) {
    int value = s.getInteger(key, fallback);
    if (value < min || value > max) {
      throw new IllegalArgumentException("feeds." + key + " must be between " + min + " and " + max + ": " + value);
    }
    return value;
  }
}
