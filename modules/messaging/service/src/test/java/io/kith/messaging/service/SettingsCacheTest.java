package io.kith.messaging.service;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SettingsCacheTest {

  private final List<Promise<JsonObject>> loads = new ArrayList<>();
  private final SettingsCache cache = new SettingsCache(user -> {
    Promise<JsonObject> load = Promise.promise();
    loads.add(load);
    return load.future();
  });

  private static JsonObject from(String who) {
    return new JsonObject().put("messages_from", who);
  }

  @Test
  @DisplayName("a fresh copy answers without a read; a change notice makes the next get read again")
  void keepsUntilChanged() {
    Future<JsonObject> first = cache.get(7);
    loads.get(0).complete(from("everyone"));
    assertEquals("everyone", first.result().getString("messages_from"));
    assertEquals("everyone", cache.get(7).result().getString("messages_from"));
    assertEquals(1, loads.size(), "the second get is answered from the copy");
    cache.changed(7);
    Future<JsonObject> after = cache.get(7);
    assertEquals(2, loads.size(), "after the notice the settings are read again");
    loads.get(1).complete(from("friends"));
    assertEquals("friends", after.result().getString("messages_from"));
  }

  @Test
  @DisplayName("a read in flight when a change arrives is answered but not kept")
  void staleReadNotKept() {
    Future<JsonObject> racing = cache.get(7);
    cache.changed(7);
    loads.get(0).complete(from("everyone"));
    assertEquals("everyone", racing.result().getString("messages_from"));
    cache.get(7);
    assertEquals(2, loads.size(), "the racing read was not kept");
  }

  @Test
  @DisplayName("the copies are bounded: the least recently used go first")
  void bounded() {
    for (long user = 1; user <= SettingsCache.MAX_ENTRIES + 10; user++) {
      cache.get(user);
      loads.get(loads.size() - 1).complete(from("everyone"));
    }
    assertEquals(SettingsCache.MAX_ENTRIES, cache.size());
    int before = loads.size();
    cache.get(1);
    assertTrue(loads.size() > before, "the oldest copy was dropped");
  }
}
