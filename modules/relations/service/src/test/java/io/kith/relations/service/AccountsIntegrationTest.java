package io.kith.relations.service;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Accounts asks relations: friends-only audiences, blocks in profiles, lookups, presence and nearby, counts. */
class AccountsIntegrationTest extends RelationsTestBase {

  @Test
  @DisplayName("profiles carry exact following and follower counts from relations")
  void profileCounts() throws Exception {
    long a = newUser();
    long b = newUser();
    await(relations.follow(a, b));
    JsonObject seenByA = await(accounts.profile(a, b));
    assertEquals(1, seenByA.getLong("follower_count"));
    assertEquals(0, seenByA.getLong("following_count"));
    assertEquals(1, await(accounts.profile(a, a)).getLong("following_count"));
  }

  @Test
  @DisplayName("a friends-only birthday is shown to friends and hidden from everyone else")
  void friendsAudience() throws Exception {
    long owner = newUser();
    long friend = newUser();
    long stranger = newUser();
    await(accounts.updateProfile(owner, new JsonObject().put("birthday", "1991-07-30")));
    befriend(owner, friend);
    assertEquals("1991-07-30", await(accounts.profile(friend, owner)).getString("birthday"));
    assertNull(await(accounts.profile(stranger, owner)).getString("birthday"));
  }

  @Test
  @DisplayName("a blocked user sees only a stub of the blocker's profile, and the blocker sees only a stub of them")
  void blockedProfileIsStub() throws Exception {
    long blocker = newUser();
    long blocked = newUser();
    await(accounts.updateProfile(blocker, new JsonObject().put("signature", "hello")));
    await(relations.block(blocker, blocked));
    JsonObject stub = await(accounts.profile(blocked, blocker));
    assertEquals(blocker, stub.getLong("id"));
    assertTrue(stub.containsKey("username"));
    assertFalse(stub.containsKey("signature"));
    assertFalse(stub.containsKey("follower_count"));
    assertFalse(await(accounts.profile(blocker, blocked)).containsKey("nickname"));
  }

  @Test
  @DisplayName("a blocked user cannot find the blocker by username")
  void blockedLookup() throws Exception {
    long blocker = newUser();
    long blocked = newUser();
    String username = await(accounts.profile(blocker, blocker)).getString("username");
    await(relations.block(blocker, blocked));
    failsWith("user_not_found", accounts.findByUsername(blocked, username));
  }

  @Test
  @DisplayName("friends-only presence: online to friends, offline to others")
  void friendsOnlyPresence() throws Exception {
    long user = newUser();
    long friend = newUser();
    long stranger = newUser();
    befriend(user, friend);
    await(accounts.setPresenceMode(user, "friends"));
    await(accounts.connectionChanged(user, "conn-" + user, true));
    assertTrue(await(accounts.presence(friend, List.of(user))).getJsonObject(Long.toString(user))
        .getBoolean("online"));
    assertFalse(await(accounts.presence(stranger, List.of(user))).getJsonObject(Long.toString(user))
        .getBoolean("online"));
    await(accounts.connectionChanged(user, "conn-" + user, false));
  }

  @Test
  @DisplayName("a blocked user never sees the blocker online")
  void blockedPresence() throws Exception {
    long blocker = newUser();
    long blocked = newUser();
    await(accounts.connectionChanged(blocker, "conn-" + blocker, true));
    assertTrue(await(accounts.presence(blocked, List.of(blocker))).getJsonObject(Long.toString(blocker))
        .getBoolean("online"));
    await(relations.block(blocker, blocked));
    assertFalse(await(accounts.presence(blocked, List.of(blocker))).getJsonObject(Long.toString(blocker))
        .getBoolean("online"));
    await(accounts.connectionChanged(blocker, "conn-" + blocker, false));
  }

  @Test
  @DisplayName("nearby never shows users separated by a block, either way")
  void blockAwareNearby() throws Exception {
    long a = newUser();
    long b = newUser();
    double lat = -40 - Math.random() * 5;
    double lon = -140 - Math.random() * 5;
    for (long u : new long[] {a, b}) {
      await(accounts.updateProfile(u, new JsonObject().put("settings", new JsonObject().put("nearby_visible", true))));
      await(accounts.reportPosition(u, lat, lon));
    }
    JsonObject query = new JsonObject().put("lat", lat).put("lon", lon).put("radius_km", 1.0);
    assertTrue(ids(await(accounts.nearby(a, query))).contains(b));
    await(relations.block(b, a));
    assertFalse(ids(await(accounts.nearby(a, query))).contains(b));
    assertFalse(ids(await(accounts.nearby(b, query))).contains(a));
  }

  private static List<Long> ids(JsonObject page) {
    JsonArray items = page.getJsonArray("items");
    return items.stream().map(i -> ((JsonObject) i).getJsonObject("user").getLong("id")).toList();
  }
}
