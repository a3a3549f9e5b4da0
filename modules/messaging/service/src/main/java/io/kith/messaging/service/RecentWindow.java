package io.kith.messaging.service;

import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * The recent messages of each conversation in Redis: {@code msg:{c<id>}:recent}, a sorted set of message views
 * scored by sequence, capped at the window size, expiring after a quiet period. Derived from MongoDB: a history read
 * uses it only when it holds the asked range without a gap, and otherwise reads MongoDB, so a lost or partial window
 * costs speed, never messages.
 */
final class RecentWindow {

  private static final Logger LOG = LoggerFactory.getLogger(RecentWindow.class);

  /** Puts (or, with ARGV[5] = 1, only replaces) the view at its sequence, trims to the cap, renews the expiry. */
  private static final LuaScripts.Script PUT = LuaScripts.load(RecentWindow.class, "recent-put.lua");
  /** Replaces the view at a sequence only while it is the one read (ARGV[2]). */
  private static final LuaScripts.Script SWAP = LuaScripts.load(RecentWindow.class, "recent-swap.lua");

  private final RedisAPI redis;
  private final int size;
  private final int ttlSeconds;

  RecentWindow(RedisAPI redis, int size, int ttlSeconds) {
    this.redis = redis;
    this.size = size;
    this.ttlSeconds = ttlSeconds;
  }

  static String key(long conversation) {
    return "msg:{c" + conversation + "}:recent";
  }

  /** Adds a stored message's view. */
  Future<Void> add(JsonObject view) {
    return put(view, false);
  }

  /**
   * Adds a stored message's view, and leaves it out when Redis fails (logged): the window is derived, and a read that
   * finds it incomplete reads MongoDB.
   */
  Future<Void> addOrLeave(JsonObject view) {
    return add(view).recover(e -> {
      LOG.warn("Cannot add message {} to the Redis window: {}", view.getLong("id"), e.getMessage());
      return Future.succeededFuture();
    });
  }

  /** Replaces a message's view if the window holds it (a recall). */
  Future<Void> replace(JsonObject view) {
    return put(view, true);
  }

  /**
   * Puts {@code media} in place of the media of the message at {@code seq} if the window holds it with media
   * {@code mediaId}: read, changed, and written back only while the entry is still the one read, so that a recall or
   * a moderator's removal landing in between (which drops the media) is never undone.
   */
  Future<Void> replaceMedia(long conversation, long seq, long mediaId, JsonObject media) {
    String key = key(conversation);
    return redis.zrangebyscore(List.of(key, Long.toString(seq), Long.toString(seq))).compose(r -> {
      List<JsonObject> found = views(r);
      JsonObject carried = found.size() == 1 ? found.get(0).getJsonObject("media") : null;
      if (carried == null || !Long.valueOf(mediaId).equals(carried.getLong("id"))) {
        return Future.succeededFuture();
      }
      return SWAP.run(redis, List.of("1", key, Long.toString(seq), r.get(0).toString(),
          found.get(0).copy().put("media", media).encode())).mapEmpty();
    });
  }

  private Future<Void> put(JsonObject view, boolean replaceOnly) {
    return PUT.run(redis, List.of("1", key(view.getLong("conversation")), Long.toString(view.getLong("seq")),
        view.encode(), Integer.toString(size), Integer.toString(ttlSeconds), replaceOnly ? "1" : "0")).mapEmpty();
  }

  /** Up to {@code limit} views with sequence above {@code after}, ascending. */
  Future<List<JsonObject>> after(long conversation, long after, int limit) {
    return redis.zrangebyscore(List.of(key(conversation), "(" + after, "+inf", "LIMIT", "0", Integer.toString(limit)))
        .map(RecentWindow::views);
  }

  /** Up to {@code limit} views with sequence below {@code before} (or the newest when null), descending. */
  Future<List<JsonObject>> before(long conversation, Long before, int limit) {
    return redis.zrevrangebyscore(List.of(key(conversation), before == null ? "+inf" : "(" + before, "-inf",
            "LIMIT", "0", Integer.toString(limit)))
        .map(RecentWindow::views);
  }

  private static List<JsonObject> views(Response r) {
    List<JsonObject> out = new ArrayList<>();
    if (r != null) {
      for (Response item : r) {
        out.add(new JsonObject(item.toString()));
      }
    }
    return out;
  }
}
