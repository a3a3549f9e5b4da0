package io.kith.messaging.service;

import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.List;

/**
 * The kept entries of each board in Redis: {@code msg:{b<id>}:strokes}, a sorted set of entries (JSON) scored by
 * sequence, capped at the newest N and at a total size, {@code msg:{b<id>}:seq}, the board's sequence counter, and
 * {@code msg:{b<id>}:bytes}, the total size of the kept entries. They expire together
 * a quiet period after the last write. Ephemeral: nothing rebuilds them, a board whose strokes expired is blank.
 *
 * <p>A counter that does not exist (a new board, or one whose strokes expired or were lost) starts at the board's
 * age in milliseconds times 1,000, so that sequences keep increasing across an expiry (as long as a board averages
 * fewer than 1,000 entries per millisecond): a client holding an older sequence is then told to start over instead
 * of being handed numbers it has seen before.
 */
final class WhiteboardStrokes {

  /**
   * Appends an entry: KEYS = strokes, seq, bytes; ARGV = entry JSON without its opening brace, entries kept, TTL
   * seconds, counter start, '1' for a clear (drops everything before it), most bytes kept. Then drops the oldest
   * entries while more than the entries kept or more than the bytes kept are held (never the new entry). The bytes
   * key holds the total length of the kept entries (recomputed once from the entries when it is missing). Answers the
   * entry's sequence (as a string: Lua numbers print in exponent form beyond 14 digits).
   */
  private static final LuaScripts.Script APPEND = LuaScripts.load(WhiteboardStrokes.class, "whiteboard-append.lua");

  /**
   * Reads a page: KEYS = strokes, seq; ARGV = after ('' for none), limit. The page continues after ARGV[1] when the
   * kept entries allow it: nothing new (after = counter), or the oldest kept entry is the next one or a clear (which
   * supersedes everything before it). Otherwise it starts at the oldest kept entry with reset = 1. Answers
   * {counter, reset, entries}, read atomically.
   */
  private static final LuaScripts.Script READ = LuaScripts.load(WhiteboardStrokes.class, "whiteboard-read.lua");

  /** A page of entries. */
  record Page(long lastSeq, boolean reset, List<JsonObject> items) {
  }

  private final RedisAPI redis;
  private final int keep;
  private final int ttlSeconds;

  WhiteboardStrokes(RedisAPI redis, int keep, int ttlSeconds) {
    this.redis = redis;
    this.keep = keep;
    this.ttlSeconds = ttlSeconds;
  }

  static String strokesKey(long board) {
    return "msg:{b" + board + "}:strokes";
  }

  static String seqKey(long board) {
    return "msg:{b" + board + "}:seq";
  }

  static String bytesKey(long board) {
    return "msg:{b" + board + "}:bytes";
  }

  /**
   * Stores an entry ({@code {kind, by, at, stroke?}}; its {@code seq} is added here) and answers its sequence. A
   * clear drops every earlier entry and is kept itself, so a reader continuing from before it learns of it. The
   * oldest entries are dropped while more than {@code keep} entries or more than {@code maxBytes} bytes are kept.
   */
  Future<Long> append(long board, JsonObject entry, boolean clear, long boardCreated, int maxBytes) {
    String json = entry.encode();
    long start = Math.max(0, System.currentTimeMillis() - boardCreated) * 1000;
    return APPEND.run(redis, List.of("3", strokesKey(board), seqKey(board), bytesKey(board), json.substring(1),
        Integer.toString(keep), Integer.toString(ttlSeconds), Long.toString(start), clear ? "1" : "0",
        Integer.toString(maxBytes))).map(r -> Long.parseLong(r.toString()));
  }

  /** A page of entries (see the READ script). */
  Future<Page> read(long board, Long after, int limit) {
    return READ.run(redis, List.of("2", strokesKey(board), seqKey(board), after == null ? "" : Long.toString(after),
        Integer.toString(limit))).map(r -> {
      List<JsonObject> items = new ArrayList<>();
      for (Response item : r.get(2)) {
        items.add(new JsonObject(item.toString()));
      }
      return new Page(Long.parseLong(r.get(0).toString()), r.get(1).toInteger() == 1, items);
    });
  }

  /** Forgets a board's entries and counter. */
  Future<Void> drop(long board) {
    return redis.del(List.of(strokesKey(board), seqKey(board), bytesKey(board))).mapEmpty();
  }
}
