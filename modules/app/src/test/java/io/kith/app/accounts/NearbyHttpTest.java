package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

import static io.kith.app.accounts.AccountsKith.POSITION_INTERVAL_SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nearby people over HTTP. The Redis GEO set is shared by every test, so each test works around a random remote
 * point (positions on a 0.001-degree grid, which is how they are stored) and only looks within a few kilometres.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Nearby people over HTTP: PUT /api/v1/me/position and GET /api/v1/people/nearby")
class NearbyHttpTest {

  private AccountsKith kith;

  @BeforeAll
  void start() {
    kith = AccountsKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  /** A random point on the 0.001-degree grid, away from the poles and the antimeridian. */
  private static double[] randomPoint() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    return new double[] {r.nextInt(-60_000, 60_000) / 1000.0, r.nextInt(-170_000, 170_000) / 1000.0};
  }

  /** A user who opted in to nearby, with these interests. */
  private User optedIn(String... interests) {
    User user = kith.register();
    kith.updateProfile(user, new JsonObject().put("settings", new JsonObject().put("nearby_visible", true))
        .put("interests", new JsonArray(List.of(interests))));
    return user;
  }

  private void report(User user, double lat, double lon) {
    kith.put("/me/position", user.access(), new JsonObject().put("lat", lat).put("lon", lon)).expectNoContent();
  }

  private static String at(double lat, double lon) {
    return String.format(Locale.ROOT, "lat=%.3f&lon=%.3f", lat, lon);
  }

  private JsonObject search(User user, String query) {
    return kith.get("/people/nearby?" + query, user.access()).expect(200);
  }

  private static JsonObject itemOf(JsonObject page, User user) {
    return page.getJsonArray("items").stream().map(o -> (JsonObject) o)
        .filter(i -> i.getJsonObject("user").getLong("id") == user.id()).findFirst().orElse(null);
  }

  @Test
  @DisplayName("an opted-in user finds another nearby with the rounded distance and the count of shared interests")
  void findsNearby() {
    double[] p = randomPoint();
    User alice = optedIn("Chess", "hiking", "jazz");
    User bob = optedIn("chess", "Jazz", "surfing");
    report(alice, p[0], p[1]);
    report(bob, p[0] + 0.010, p[1]);  // about 1.1 km north

    JsonObject page = search(alice, at(p[0], p[1]) + "&radius_km=5");

    JsonObject found = itemOf(page, bob);
    assertTrue(found != null, "bob is found: " + page.encode());
    assertEquals(bob.username(), found.getJsonObject("user").getString("username"));
    long distance = found.getLong("distance_m");
    assertEquals(0, distance % 100, "rounded to 100 m: " + found.encode());
    assertTrue(distance >= 1000 && distance <= 1200, "about 1.1 km: " + found.encode());
    assertEquals(2, found.getInteger("shared_interests"), "chess and jazz, whatever the case: " + found.encode());
    assertNull(itemOf(page, alice), "the searcher is not in the results: " + page.encode());

    assertTrue(itemOf(search(alice, at(p[0], p[1]) + "&radius_km=5&interest=surfing"), bob) != null,
        "an interest filter keeps people sharing it");
    assertNull(itemOf(search(alice, at(p[0], p[1]) + "&radius_km=5&interest=golf&interest=rowing"), bob),
        "an interest filter drops people sharing none of them");
    assertNull(itemOf(search(alice, at(p[0], p[1]) + "&radius_km=0.5"), bob), "bob is outside 500 m");
  }

  @Test
  @DisplayName("results come nearest first and page by offset")
  void nearestFirstAndPaged() {
    double[] p = randomPoint();
    User seeker = optedIn();
    report(seeker, p[0], p[1]);
    List<User> others = List.of(optedIn(), optedIn(), optedIn());
    for (int i = 0; i < others.size(); i++) {
      // 3.3 km, 2.2 km and 1.1 km east-ish of the seeker, registered farthest first
      report(others.get(i), p[0] + 0.010 * (others.size() - i), p[1]);
    }

    JsonObject first = search(seeker, at(p[0], p[1]) + "&radius_km=10&limit=2");
    assertEquals(2, first.getJsonArray("items").size(), first.encode());
    assertEquals(others.get(2).id(), first.getJsonArray("items").getJsonObject(0).getJsonObject("user").getLong("id"));
    assertEquals(others.get(1).id(), first.getJsonArray("items").getJsonObject(1).getJsonObject("user").getLong("id"));
    assertEquals("2", first.getValue("next_cursor"), "the offset cursor is a string: " + first.encode());

    JsonObject second = search(seeker, at(p[0], p[1]) + "&radius_km=10&limit=2&cursor=" + first.getString("next_cursor"));
    assertEquals(1, second.getJsonArray("items").size(), second.encode());
    assertEquals(others.get(0).id(), second.getJsonArray("items").getJsonObject(0).getJsonObject("user").getLong("id"));
    assertNull(second.getValue("next_cursor"), second.encode());
  }

  @Test
  @DisplayName("an invisible user does not appear in nearby searches, and turning nearby off removes the position")
  void invisibleNotNearby() {
    double[] p = randomPoint();
    User seeker = optedIn();
    User hiding = optedIn();
    User leaving = optedIn();
    report(seeker, p[0], p[1]);
    report(hiding, p[0] + 0.005, p[1]);
    report(leaving, p[0] - 0.005, p[1]);
    JsonObject before = search(seeker, at(p[0], p[1]));
    assertTrue(itemOf(before, hiding) != null && itemOf(before, leaving) != null, before.encode());

    kith.put("/me/presence", hiding.access(), new JsonObject().put("mode", "invisible")).expect(200);
    kith.updateProfile(leaving, new JsonObject().put("settings", new JsonObject().put("nearby_visible", false)));

    JsonObject after = search(seeker, at(p[0], p[1]));
    assertNull(itemOf(after, hiding), "invisible: " + after.encode());
    assertNull(itemOf(after, leaving), "opted out: " + after.encode());

    // back online, the invisible user stays out until reporting a position again
    kith.put("/me/presence", hiding.access(), new JsonObject().put("mode", "online")).expect(200);
    assertNull(itemOf(search(seeker, at(p[0], p[1])), hiding), "the position was removed on going invisible");
  }

  @Test
  @DisplayName("a search starts from the searcher's own reported position: none, or one far away, is 400 naming lat")
  void searchFromOwnPosition() {
    double[] p = randomPoint();
    User user = optedIn();

    kith.get("/people/nearby?" + at(p[0], p[1]), user.access()).problem(400, "validation_failed", "lat");
    report(user, p[0], p[1]);
    kith.get("/people/nearby?" + at(p[0] + 0.010, p[1]), user.access()).expect(200);
    kith.get("/people/nearby?" + at(p[0] + 0.100, p[1]), user.access()).problem(400, "validation_failed", "lat");
  }

  @Test
  @DisplayName("without opting in, searching and reporting are 403 nearby_disabled")
  void disabledWithoutOptIn() {
    double[] p = randomPoint();
    User user = kith.register();

    kith.get("/people/nearby?" + at(p[0], p[1]), user.access()).problem(403, "nearby_disabled");
    kith.put("/me/position", user.access(), new JsonObject().put("lat", p[0]).put("lon", p[1]))
        .problem(403, "nearby_disabled");
  }

  @Test
  @DisplayName("search limits: radius over 50 km, bad coordinates and bad paging are 400 naming the parameter")
  void searchLimits() {
    double[] p = randomPoint();
    User user = optedIn();

    kith.get("/people/nearby?" + at(p[0], p[1]) + "&radius_km=50.5", user.access())
        .problem(400, "validation_failed", "radius_km");
    kith.get("/people/nearby?" + at(p[0], p[1]) + "&radius_km=0", user.access())
        .problem(400, "validation_failed", "radius_km");
    kith.get("/people/nearby?lat=91&lon=0", user.access()).problem(400, "validation_failed", "lat");
    kith.get("/people/nearby?lat=0&lon=181", user.access()).problem(400, "validation_failed", "lon");
    kith.get("/people/nearby?lon=0", user.access()).problem(400, "validation_failed", "lat");
    kith.get("/people/nearby?" + at(p[0], p[1]) + "&limit=101", user.access())
        .problem(400, "validation_failed", "limit");
    kith.get("/people/nearby?" + at(p[0], p[1]) + "&cursor=1001", user.access())
        .problem(400, "validation_failed", "cursor");
    kith.get("/people/nearby?" + at(p[0], p[1]) + "&cursor=2x", user.access())
        .problem(400, "validation_failed", "cursor");
    report(user, p[0], p[1]);
    kith.get("/people/nearby?" + at(p[0], p[1]) + "&radius_km=50", user.access()).expect(200);
    kith.put("/me/position", user.access(), new JsonObject().put("lat", 86.0).put("lon", 0.0))
        .problem(400, "validation_failed", "lat");
    kith.get("/people/nearby?" + at(p[0], p[1]), null).problem(401, "unauthenticated");
  }

  @Test
  @DisplayName("position reports are rate-limited: a second report within the interval is 429 position_throttled")
  void positionThrottled() {
    double[] p = randomPoint();
    User user = optedIn();
    User seeker = optedIn();
    report(user, p[0], p[1]);
    report(seeker, p[0], p[1]);

    kith.put("/me/position", user.access(), new JsonObject().put("lat", p[0] + 0.02).put("lon", p[1]))
        .throttled("position_throttled", POSITION_INTERVAL_SECONDS);

    JsonObject found = itemOf(search(seeker, at(p[0], p[1]) + "&radius_km=1"), user);
    assertTrue(found != null, "the first position holds");
    assertEquals(100, found.getLong("distance_m"), "at least 100 m is shown, never the exact spot");
  }
}
