package io.kith.platform.store;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Response;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The parsed JSON documents of Redis copies a node read last, each kept with the bytes it was parsed from and reused
 * only while Redis answers exactly those bytes: Redis stays the only source, and a changed (or dropped and refilled)
 * copy is parsed afresh. Parsing cached copies is a large part of a read path's CPU (posts and account summaries in
 * a timeline read). The documents handed out are shared between readers: callers must not change them. Safe for use
 * from several event loops.
 */
public final class ParsedCopies {

  private final Map<Long, Parsed> parsed;

  /** A document as parsed from these bytes of its Redis copy. */
  private record Parsed(byte[] bytes, JsonObject doc) {
  }

  /** Keeps at most {@code max} documents, dropping the least recently used. */
  public ParsedCopies(int max) {
    this.parsed = new LinkedHashMap<>(256, 0.75f, true) {
      @Override
      protected boolean removeEldestEntry(Map.Entry<Long, Parsed> eldest) {
        return size() > max;
      }
    };
  }

  /** The document of a Redis copy of object {@code id}: the one parsed before from the same bytes, else parsed now. */
  public JsonObject parse(long id, Response copy) {
    byte[] bytes = copy.toBuffer().getBytes();
    Parsed known;
    synchronized (parsed) {
      known = parsed.get(id);
    }
    if (known != null && Arrays.equals(known.bytes(), bytes)) {
      return known.doc();
    }
    JsonObject doc = new JsonObject(Buffer.buffer(bytes));
    synchronized (parsed) {
      parsed.put(id, new Parsed(bytes, doc));
    }
    return doc;
  }

  /**
   * The document last parsed for {@code id}, or null: for fields that never change (a post's author), known before the
   * copy is read again. It may be stale in every other respect.
   */
  public JsonObject lastParsed(long id) {
    synchronized (parsed) {
      Parsed known = parsed.get(id);
      return known == null ? null : known.doc();
    }
  }
}
