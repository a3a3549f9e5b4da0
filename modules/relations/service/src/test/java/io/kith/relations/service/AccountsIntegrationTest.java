package io.kith.relations.service;

import io.kith.platform.error.Failures;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.testkit.Outbox;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
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
  @DisplayName("a blocked user gets the blocker's profile by id exactly as a missing account answers, and a stranger the full view")
  void blockedProfileLooksMissing() throws Exception {
    long blocker = newUser();
    long blocked = newUser();
    long stranger = newUser();
    await(accounts.updateProfile(blocker, new JsonObject().put("signature", "hello")));
    await(relations.block(blocker, blocked));
    JsonObject seenByStranger = await(accounts.profile(stranger, blocker));
    assertEquals("hello", seenByStranger.getString("signature"));
    assertTrue(seenByStranger.containsKey("follower_count"));
    JsonObject missing = failure(accounts.profile(blocked, missingId()));
    assertEquals("user_not_found", missing.getString("code"));
    assertEquals(missing, failure(accounts.profile(blocked, blocker)));
  }

  @Test
  @DisplayName("the blocker gets the blocked user's profile by id and by username as a missing account answers too")
  void blockerSeesBlockedAsMissing() throws Exception {
    long blocker = newUser();
    long blocked = newUser();
    String username = await(accounts.profile(blocked, blocked)).getString("username");
    await(relations.block(blocker, blocked));
    assertEquals(failure(accounts.profile(blocker, missingId())), failure(accounts.profile(blocker, blocked)));
    assertEquals(failure(accounts.findByUsername(blocker, "nobody" + blocked)),
        failure(accounts.findByUsername(blocker, username)));
  }

  @Test
  @DisplayName("a blocked user cannot find the blocker by username: the answer is a missing username's")
  void blockedLookup() throws Exception {
    long blocker = newUser();
    long blocked = newUser();
    String username = await(accounts.profile(blocker, blocker)).getString("username");
    await(relations.block(blocker, blocked));
    failsWith("user_not_found", accounts.findByUsername(blocked, username));
    assertEquals(failure(accounts.findByUsername(blocked, "nobody" + blocker)),
        failure(accounts.findByUsername(blocked, username)));
    assertEquals(username, await(accounts.findByUsername(newUser(), username)).getString("username"));
  }

  @Test
  @DisplayName("nickname search and address-book lookup leave the blocker out for the blocked user, not for a stranger")
  void blockedSearchAndContacts() throws Exception {
    String email = "blk" + System.nanoTime() + "@example.org";
    long blocker = await(accounts.register(new JsonObject().put("username", "b" + System.nanoTime())
        .put("email", email).put("password", "correct horse battery"), "test-" + email))
        .getJsonObject("user").getLong("id");
    // only a verified email is found: the code comes from the development outbox
    await(accounts.confirmVerification(blocker, "email", await(Outbox.code(vertx, email))));
    long blocked = newUser();
    long stranger = newUser();
    String nickname = "Blk" + blocker;
    await(accounts.updateProfile(blocker, new JsonObject().put("nickname", nickname)));
    await(relations.block(blocker, blocked));
    JsonObject contacts = new JsonObject().put("emails", new JsonArray().add(email));
    assertEquals(List.of(blocker), summaryIds(await(accounts.searchByNickname(stranger, nickname,
        PageRequest.first(10)).map(Page::toJson))));
    assertEquals(List.of(), summaryIds(await(accounts.searchByNickname(blocked, nickname, PageRequest.first(10))
        .map(Page::toJson))));
    assertEquals(1, await(accounts.findByContacts(stranger, contacts)).getJsonArray("items").size());
    assertEquals(0, await(accounts.findByContacts(blocked, contacts)).getJsonArray("items").size());
  }

  @Test
  @DisplayName("a nickname search page is filled past the blocker and its cursor never names them")
  void searchCursorSkipsBlocker() throws Exception {
    long plainA = newUser();
    long blocker = newUser();
    long plainC = newUser();
    long blocked = newUser();
    String prefix = "Zq" + blocker;
    await(accounts.updateProfile(plainA, new JsonObject().put("nickname", prefix + "a")));
    await(accounts.updateProfile(blocker, new JsonObject().put("nickname", prefix + "b")));
    await(accounts.updateProfile(plainC, new JsonObject().put("nickname", prefix + "c")));
    await(relations.block(blocker, blocked));

    assertEquals(List.of(plainA, blocker), summaryIds(await(accounts.searchByNickname(newUser(), prefix,
        PageRequest.first(2)).map(Page::toJson))));
    JsonObject first = await(accounts.searchByNickname(blocked, prefix, PageRequest.first(2)).map(Page::toJson));
    assertEquals(List.of(plainA, plainC), summaryIds(first));
    String cursor = first.getString("next");
    JsonArray decoded = new JsonArray(new String(java.util.Base64.getUrlDecoder().decode(cursor),
        java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(plainC, decoded.getLong(1), "the cursor is the last user shown");
    JsonObject end = await(accounts.searchByNickname(blocked, prefix, PageRequest.after(cursor, 2)).map(Page::toJson));
    assertEquals(List.of(), summaryIds(end));
    assertNull(end.getString("next"));

    // the same page once the blocker's nickname really stops matching
    await(accounts.updateProfile(blocker, new JsonObject().put("nickname", "Other" + blocker)));
    assertEquals(first, await(accounts.searchByNickname(blocked, prefix, PageRequest.first(2)).map(Page::toJson)));
    failsWith("validation_failed", accounts.searchByNickname(blocked, prefix, PageRequest.after("not-a-cursor", 2))
        .map(Page::toJson));
  }

  @Test
  @DisplayName("after an unblock the profile answers with the ordinary view again")
  void unblockRestoresProfile() throws Exception {
    long blocker = newUser();
    long blocked = newUser();
    await(relations.block(blocker, blocked));
    failsWith("user_not_found", accounts.profile(blocked, blocker));
    await(relations.unblock(blocker, blocked));
    JsonObject view = await(accounts.profile(blocked, blocker));
    assertEquals(blocker, view.getLong("id"));
    assertTrue(view.containsKey("follower_count"));
  }

  /** An id no account has (ids are far below 2^53). */
  private static long missingId() {
    return (1L << 52) + (long) (Math.random() * 1_000_000);
  }

  /** Everything a caller learns from a failed call: its code, status code, message and debug info. */
  private static JsonObject failure(io.vertx.core.Future<?> call) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> await(call));
    ServiceException se = assertInstanceOf(ServiceException.class, e.getCause());
    return new JsonObject().put("code", Failures.codeOf(se)).put("failure", se.failureCode())
        .put("message", se.getMessage()).put("debug", se.getDebugInfo());
  }

  private static List<Long> summaryIds(JsonObject page) {
    return page.getJsonArray("items").stream().map(i -> ((JsonObject) i).getLong("id")).toList();
  }

  @Test
  @DisplayName("friends-only presence: online to friends, offline to others")
  void friendsOnlyPresence() throws Exception {
    long user = newUser();
    long friend = newUser();
    long stranger = newUser();
    befriend(user, friend);
    await(accounts.setPresenceMode(user, "friends"));
    await(accountsInternal.connectionChanged(user, "conn-" + user, true));
    assertTrue(await(accounts.presence(friend, List.of(user))).getJsonObject(Long.toString(user))
        .getBoolean("online"));
    assertFalse(await(accounts.presence(stranger, List.of(user))).getJsonObject(Long.toString(user))
        .getBoolean("online"));
    await(accountsInternal.connectionChanged(user, "conn-" + user, false));
  }

  @Test
  @DisplayName("a blocked user never sees the blocker online")
  void blockedPresence() throws Exception {
    long blocker = newUser();
    long blocked = newUser();
    await(accountsInternal.connectionChanged(blocker, "conn-" + blocker, true));
    assertTrue(await(accounts.presence(blocked, List.of(blocker))).getJsonObject(Long.toString(blocker))
        .getBoolean("online"));
    await(relations.block(blocker, blocked));
    assertFalse(await(accounts.presence(blocked, List.of(blocker))).getJsonObject(Long.toString(blocker))
        .getBoolean("online"));
    await(accountsInternal.connectionChanged(blocker, "conn-" + blocker, false));
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
