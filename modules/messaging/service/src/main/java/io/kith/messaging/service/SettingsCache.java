package io.kith.messaging.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Users' messaging settings as a node last read them, for the check every direct send makes on its recipient. A
 * change is published to every node ({@link #CHANGED}), each of which drops its copy; entries also expire after
 * {@link #TTL_MILLIS} (a change whose notice was lost is seen within that time) and the least recently used go past
 * {@link #MAX_ENTRIES}. A read that was in flight while a change arrived is answered but not kept, so a stale copy
 * cannot outlive the notice. Confined to the verticle's event loop.
 */
final class SettingsCache {

  /** Where a node announces that a user's settings changed: {@code {user}} (published, internal). */
  static final String CHANGED = "kith.messaging.settings.changed";
  static final long TTL_MILLIS = 30_000;
  static final int MAX_ENTRIES = 20_000;

  private record Entry(JsonObject settings, long expires) {
  }

  private final Map<Long, Entry> entries = new LinkedHashMap<>(256, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Entry> eldest) {
      return size() > MAX_ENTRIES;
    }
  };
  private final Function<Long, Future<JsonObject>> loader;
  /** Bumped by every change notice: a load that began before one is not kept. */
  private long changes;

  SettingsCache(Function<Long, Future<JsonObject>> loader) {
    this.loader = loader;
  }

  /** The user's settings, from this node's copy while it is fresh. */
  Future<JsonObject> get(long user) {
    long now = System.currentTimeMillis();
    Entry entry = entries.get(user);
    if (entry != null && entry.expires() > now) {
      return Future.succeededFuture(entry.settings());
    }
    long seen = changes;
    return loader.apply(user).map(settings -> {
      if (changes == seen) {
        entries.put(user, new Entry(settings, now + TTL_MILLIS));
      }
      return settings;
    });
  }

  /** Drops a user's copy (their settings changed). */
  void changed(long user) {
    changes++;
    entries.remove(user);
  }

  int size() {
    return entries.size();
  }
}
