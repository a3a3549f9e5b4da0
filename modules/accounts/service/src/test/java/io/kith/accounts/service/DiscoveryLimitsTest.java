package io.kith.accounts.service;

import io.kith.platform.error.Failures;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Per-user limits on finding people (tight limits here): address-book entries, presence queries, nickname searches,
 * profile and username reads, nearby searches. Past a limit: 429 {@code rate_limited} with {@code retry_after}.
 */
class DiscoveryLimitsTest extends AccountsTestBase {

  private static final int CONTACT_ENTRIES = 10;
  private static final int PRESENCE = 3;
  private static final int NICKNAME = 3;
  private static final int PROFILE = 3;
  private static final int NEARBY = 2;

  @Override
  protected JsonObject overrides() {
    return new JsonObject().put("accounts", new JsonObject()
        .put("contacts-lookup-entries-per-hour", CONTACT_ENTRIES)
        .put("presence-queries-per-minute", PRESENCE)
        .put("nickname-searches-per-minute", NICKNAME)
        .put("profile-reads-per-minute", PROFILE)
        .put("nearby-searches-per-minute", NEARBY));
  }

  /** Asserts a 429 rate_limited whose retry_after lies within the window. */
  private static void limited(Future<?> outcome, long windowSeconds) {
    Throwable e = failsWith("rate_limited", outcome);
    assertEquals(429, ((ServiceException) e).failureCode());
    long retryAfter = debugInfo(e).getJsonObject(Failures.EXTRA).getLong("retry_after");
    assertTrue(retryAfter >= 1 && retryAfter <= windowSeconds, "retry_after " + retryAfter);
  }

  private static JsonObject emails(int n) {
    JsonArray out = new JsonArray();
    for (int i = 0; i < n; i++) {
      out.add("nobody" + i + "." + UUID.randomUUID() + "@example.org");
    }
    return new JsonObject().put("emails", out);
  }

  @Test
  @DisplayName("address-book lookups are counted in entries: a lookup that does not fit the hour's budget is refused "
      + "whole, a smaller one that fits still passes")
  void contactEntriesPerHour() throws Exception {
    List<JsonObject> users = registerMany(2);
    long user = idOf(users.get(0));
    long other = idOf(users.get(1));

    await(accounts.findByContacts(user, emails(6)));
    limited(accounts.findByContacts(user, emails(6)), 3600);
    await(accounts.findByContacts(user, emails(4)));
    limited(accounts.findByContacts(user, emails(1)), 3600);

    await(accounts.findByContacts(other, emails(CONTACT_ENTRIES)));
  }

  @Test
  @DisplayName("presence queries past the per-minute limit are refused; other viewers are not affected")
  void presencePerMinute() throws Exception {
    List<JsonObject> users = registerMany(2);
    long viewer = idOf(users.get(0));
    long other = idOf(users.get(1));
    for (int i = 0; i < PRESENCE; i++) {
      await(accounts.presence(viewer, List.of(other)));
    }
    limited(accounts.presence(viewer, List.of(other)), 60);
    await(accounts.presence(other, List.of(viewer)));
  }

  @Test
  @DisplayName("nickname searches past the per-minute limit are refused; other users are not affected")
  void nicknameSearchesPerMinute() throws Exception {
    List<JsonObject> users = registerMany(2);
    long user = idOf(users.get(0));
    for (int i = 0; i < NICKNAME; i++) {
      await(accounts.searchByNickname(user, "abc", PageRequest.first(10)).map(Page::toJson));
    }
    limited(accounts.searchByNickname(user, "abd", PageRequest.first(10)).map(Page::toJson), 60);
    await(accounts.searchByNickname(idOf(users.get(1)), "abc", PageRequest.first(10)).map(Page::toJson));
  }

  @Test
  @DisplayName("reads of other users' profiles and username lookups share a per-minute limit; reading one's own "
      + "profile is not counted")
  void profileReadsPerMinute() throws Exception {
    List<JsonObject> users = registerMany(3);
    long reader = idOf(users.get(0));
    long target = idOf(users.get(1));
    String targetName = users.get(1).getJsonObject("user").getString("username");
    for (int i = 0; i < PROFILE + 2; i++) {
      await(accounts.profile(reader, reader));
    }

    await(accounts.profile(reader, target));
    await(accounts.findByUsername(reader, targetName));
    await(accounts.profile(reader, target));
    limited(accounts.profile(reader, target), 60);
    limited(accounts.findByUsername(reader, targetName), 60);

    await(accounts.profile(reader, reader));
    await(accounts.profile(idOf(users.get(2)), target));
  }

  @Test
  @DisplayName("nearby searches past the per-minute limit are refused; other users are not affected")
  void nearbySearchesPerMinute() throws Exception {
    List<JsonObject> users = registerMany(2);
    double lat = -30.0 - Math.random();
    double lon = 170.0 + Math.random();
    JsonObject query = new JsonObject().put("lat", lat).put("lon", lon).put("radius_km", 1).put("limit", 10);
    for (JsonObject u : users) {
      patch(idOf(u), new JsonObject().put("settings", new JsonObject().put("nearby_visible", true)));
      await(accounts.reportPosition(idOf(u), lat, lon));
    }
    long user = idOf(users.get(0));
    for (int i = 0; i < NEARBY; i++) {
      await(accounts.nearby(user, query));
    }
    limited(accounts.nearby(user, query), 60);
    await(accounts.nearby(idOf(users.get(1)), query));
  }
}
