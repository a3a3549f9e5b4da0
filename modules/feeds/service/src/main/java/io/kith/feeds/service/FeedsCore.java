package io.kith.feeds.service;

import io.kith.accounts.api.UserSummaries;
import io.kith.accounts.api.AccountsService;
import io.kith.feeds.api.FeedsErrors;
import io.kith.feeds.api.FeedsEvents;
import io.kith.feeds.api.events.FeedsEvent;
import io.kith.feeds.service.media.MediaStore;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * What every feeds feature shares: the stores and clients, and the small steps they all take (page checks, rate
 * limits, counter updates, events, author summaries). One instance per service, built by {@link FeedsServiceImpl}.
 */
record FeedsCore(Platform platform, FeedsSettings settings, PostStore posts, Timelines timelines, MediaStore media,
                 Ties ties, RelationsService relations, AccountsService accounts, RateLimiter limiter,
                 ViewerFlags flags, PostCache cache, CounterRecount recount) {

  // the service's log category, as before the features had files of their own (log settings name it)
  private static final Logger LOG = LoggerFactory.getLogger(FeedsServiceImpl.class);
  static final int MAX_LIMIT = 100;
  /** Most comments or likes one page reads past those of users in a block with the viewer. */
  static final int MAX_HIDDEN_SCAN = 5_000;
  static final long MINUTE = 60_000;
  static final long HOUR = 60 * MINUTE;

  /** Builds the shared parts on the stores and clients the verticle made. */
  static FeedsCore of(Platform platform, FeedsSettings settings, PostStore posts, Timelines timelines,
                      MediaStore media, RelationsService relations, RelationsInternal relationsInternal,
                      AccountsService accounts) {
    PostCache cache = new PostCache(platform.redis(), posts, settings.postCacheTtlSeconds(), platform.metrics());
    return new FeedsCore(platform, settings, posts, timelines, media, new Ties(relations, relationsInternal), relations,
        accounts, new RateLimiter(platform.redis()), new ViewerFlags(platform.redis()), cache,
        new CounterRecount(platform.redisApi(), posts, cache, settings.recountSettleSeconds() * 1_000L));
  }

  static void requireUser(long user) {
    if (user <= 0) {
      throw Failures.of(KithErrors.UNAUTHENTICATED, "this needs a signed-in user");
    }
  }

  static void checkPage(long maxId, long sinceId, int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw PostDraft.invalid("limit", "limit must be 1 to " + MAX_LIMIT);
    }
    if (maxId < 0) {
      throw PostDraft.invalid("max_id", "max_id must be a positive id");
    }
    if (sinceId < 0) {
      throw PostDraft.invalid("since_id", "since_id must be a positive id");
    }
  }

  Future<Void> limit(String name, long user, int max, long windowMillis, String what) {
    return limiter.enforce("rl:feeds:" + name + ":" + user, windowMillis, max,
        "too many " + what + " (at most " + max + "); retry later");
  }

  /** Adds to a post's counters, then drops its cached copy. */
  Future<Void> inc(long postId, JsonObject inc) {
    // touched again after the $inc: a recount that counted before it and set the counters after it is run again
    return posts.inc(postId, inc).compose(v -> quietly(cache.changed(postId))).compose(v -> recount.touch(postId));
  }

  /**
   * A write to the viewer-flag sets after the record changed: its failure must not fail (or undo) the change; the set
   * is then stale until it expires, which is logged.
   */
  static Future<Void> quietly(Future<Void> flagWrite) {
    return flagWrite.recover(e -> {
      LOG.warn("Could not update a viewer-flag set in Redis (stale until it expires): {}", e.toString());
      return Future.succeededFuture();
    });
  }

  /** Logs failures that are not domain refusals: they are bugs or store outages, and become 500 or 503. */
  static <T> Future<T> logged(String operation, Future<T> result) {
    return result.onFailure(e -> {
      if (!(e instanceof io.vertx.serviceproxy.ServiceException)) {
        LOG.error("feeds {} failed", operation, e);
      }
    });
  }

  static <T> Future<T> notFound() {
    return Future.failedFuture(Failures.of(FeedsErrors.POST_NOT_FOUND, "no such post"));
  }

  /** Appends a feeds event after its write is committed; never fails (a lost event is logged). */
  void emit(FeedsEvent event) {
    platform.events().publisher(FeedsEvents.DOMAIN).publish(event);
  }

  /** Summaries of these users as accounts shows them to the viewer, asked in batches; missing users are left out. */
  Future<JsonObject> summaries(long viewer, Collection<Long> users) {
    return UserSummaries.lookup(accounts, viewer, users);
  }
}
