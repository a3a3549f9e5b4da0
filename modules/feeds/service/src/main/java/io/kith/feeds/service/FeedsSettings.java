package io.kith.feeds.service;

import io.kith.platform.config.Bounds;
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
 * @param postCacheTtlSeconds  how long a post's Redis copy lives after a read filled it (every change drops it)
 */
record FeedsSettings(int timelineCap, int celebrityThreshold, int timelineTtlSeconds, int backfillPosts,
                     int postsPerHour, int commentsPerMinute, int likesPerMinute, int fanoutWorkers, int editsPerHour,
                     int fanoutPage, int fanoutTimelinesPerCall, boolean fanoutSameSlot, int fanoutPrefetch,
                     int recountSettleSeconds, int recountEverySeconds, int postCacheTtlSeconds) {

  static FeedsSettings from(JsonObject s) {
    Bounds b = Bounds.of("feeds", s);
    return new FeedsSettings(
        b.within("timeline-cap", 2, 100_000),
        b.integer("celebrity-threshold"),
        b.integer("timeline-ttl-seconds"),
        b.within("backfill-posts", 0, 800),
        b.integer("posts-per-hour"),
        b.integer("comments-per-minute"),
        b.integer("likes-per-minute"),
        b.within("fanout-workers", 1, 64),
        b.integer("edits-per-hour"),
        b.within("fanout-page", 1, 10_000),
        b.within("fanout-timelines-per-call", 1, 1_000),
        b.flag("fanout-same-slot"),
        b.within("fanout-prefetch", 1, 1_024),
        b.within("recount-settle-seconds", 1, 3_600),
        b.within("recount-every-seconds", 1, 3_600),
        b.within("post-cache-ttl-seconds", 10, 86_400));
  }
}
