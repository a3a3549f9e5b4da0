package io.kith.accounts.service;

import io.kith.platform.error.Failures;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Nearby people. The GEO set is shared by every test, so each test works in its own area of the empty South Pacific,
 * 2 degrees (over 150 km) from any other test's, and searches at most 50 km around it.
 */
class NearbyTest extends AccountsTestBase {

  /** Redis' earth radius, for expected distances. */
  private static final double EARTH_RADIUS_M = 6372797.560856;
  private static final AtomicInteger AREAS = new AtomicInteger(ThreadLocalRandom.current().nextInt(250));

  /** A fresh area: a point on the 0.001-degree grid positions are rounded to. */
  private static double[] newArea() {
    int n = AREAS.getAndIncrement() % 250;
    return new double[] {-44.0 + 2 * (n % 10), -150.0 + 2 * (n / 10)};
  }

  private static double distance(double lat1, double lon1, double lat2, double lon2) {
    double dLat = Math.toRadians(lat2 - lat1);
    double dLon = Math.toRadians(lon2 - lon1);
    double a = Math.pow(Math.sin(dLat / 2), 2)
        + Math.cos(Math.toRadians(lat1)) * Math.cos(Math.toRadians(lat2)) * Math.pow(Math.sin(dLon / 2), 2);
    return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(a));
  }

  /** Fresh users who opted in to nearby, each with the given interests (null: none). */
  private List<Long> optedIn(JsonArray... interests) throws Exception {
    List<JsonObject> users = registerMany(interests.length);
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < interests.length; i++) {
      long id = idOf(users.get(i));
      JsonObject change = new JsonObject().put("settings", new JsonObject().put("nearby_visible", true));
      if (interests[i] != null) {
        change.put("interests", interests[i]);
      }
      patch(id, change);
      ids.add(id);
    }
    return ids;
  }

  private static JsonArray tags(String... tags) {
    JsonArray out = new JsonArray();
    for (String t : tags) {
      out.add(t);
    }
    return out;
  }

  private static JsonObject query(double[] at, double radiusKm, int limit) {
    return new JsonObject().put("lat", at[0]).put("lon", at[1]).put("radius_km", radiusKm).put("limit", limit);
  }

  private static List<Long> ids(JsonObject result) {
    List<Long> out = new ArrayList<>();
    JsonArray items = result.getJsonArray("items");
    for (int i = 0; i < items.size(); i++) {
      out.add(items.getJsonObject(i).getJsonObject("user").getLong("id"));
    }
    return out;
  }

  /**
   * A searcher at the centre of a fresh area (interests chess, go, hiking) and four people around: {@code same}
   * within the same 100 m, {@code near} 1.1 km north, {@code mid} about 2.8 km north-east, {@code far} 3.3 km north;
   * and one more 100 km away.
   */
  private record Scene(double[] at, long searcher, long same, long near, long mid, long far, long outside) {
  }

  private Scene scene() throws Exception {
    double[] at = newArea();
    List<Long> u = optedIn(tags("chess", "go", "hiking"), null, null, tags("go", "sailing"), tags("Chess", "HIKING"),
        tags("chess"));
    Scene s = new Scene(at, u.get(0), u.get(1), u.get(2), u.get(3), u.get(4), u.get(5));
    await(accounts.reportPosition(s.searcher, at[0], at[1]));
    await(accounts.reportPosition(s.far, at[0] + 0.03, at[1]));
    await(accounts.reportPosition(s.same, at[0] + 0.0002, at[1] - 0.0003));
    await(accounts.reportPosition(s.mid, at[0] + 0.02, at[1] + 0.02));
    await(accounts.reportPosition(s.near, at[0] + 0.01, at[1]));
    await(accounts.reportPosition(s.outside, at[0] + 0.9, at[1]));
    return s;
  }

  @Test
  @DisplayName("reporting a position or searching is refused with nearby_disabled unless the user opted in")
  void refusedUnlessOptedIn() throws Exception {
    long user = newUser();
    double[] at = newArea();
    failsWith("nearby_disabled", accounts.reportPosition(user, at[0], at[1]));
    failsWith("nearby_disabled", accounts.nearby(user, query(at, 5, 10)));
    patch(user, new JsonObject().put("settings", new JsonObject().put("nearby_visible", true)));
    await(accounts.reportPosition(user, at[0], at[1]));
  }

  @Test
  @DisplayName("an invalid latitude or longitude is refused naming the field")
  void invalidPosition() throws Exception {
    long user = optedIn(new JsonArray[] {null}).get(0);
    failsWithField("validation_failed", "lat", accounts.reportPosition(user, 91, 10));
    failsWithField("validation_failed", "lat", accounts.reportPosition(user, -86, 10));
    failsWithField("validation_failed", "lon", accounts.reportPosition(user, 10, 181));
    failsWithField("validation_failed", "lon", accounts.reportPosition(user, 10, -180.5));
    failsWithField("validation_failed", "lat", accounts.nearby(user, new JsonObject().put("lat", 95).put("lon", 1)));
    failsWithField("validation_failed", "lon", accounts.nearby(user, new JsonObject().put("lat", 1).put("lon", 200)));
    failsWithField("validation_failed", "lat", accounts.nearby(user, new JsonObject().put("lon", 1)));
    failsWithField("validation_failed", "lon", accounts.nearby(user, new JsonObject().put("lat", 1).put("lon", "east")));
  }

  @Test
  @DisplayName("a second position report within the interval is refused with position_throttled and retry_after")
  void positionThrottled() throws Exception {
    long user = optedIn(new JsonArray[] {null}).get(0);
    double[] at = newArea();
    await(accounts.reportPosition(user, at[0], at[1]));
    Throwable e = failsWith("position_throttled", accounts.reportPosition(user, at[0] + 0.01, at[1]));
    assertTrue(debugInfo(e).getJsonObject(Failures.EXTRA).getLong("retry_after") >= 1);
  }

  @Test
  @DisplayName("search finds opted-in people within the radius, nearest first, distance rounded to 100 m, "
      + "with the count of shared interests, never the searcher")
  void searchNearestFirst() throws Exception {
    Scene s = scene();
    JsonObject result = await(accounts.nearby(s.searcher, query(s.at, 50, 100)));
    assertEquals(List.of(s.same, s.near, s.mid, s.far), ids(result), result.encodePrettily());
    assertNull(result.getValue("next_offset"));

    JsonArray items = result.getJsonArray("items");
    double[][] where = {{s.at[0], s.at[1] - 0.0}, {s.at[0] + 0.01, s.at[1]}, {s.at[0] + 0.02, s.at[1] + 0.02},
        {s.at[0] + 0.03, s.at[1]}};
    long[] shared = {0, 0, 1, 2};
    for (int i = 0; i < items.size(); i++) {
      JsonObject item = items.getJsonObject(i);
      long d = item.getLong("distance_m");
      assertEquals(0, d % 100, "not rounded to 100 m: " + d);
      assertTrue(d >= 100, "under 100 m: " + d);
      double expected = Math.max(100, Math.round(distance(s.at[0], s.at[1], where[i][0], where[i][1]) / 100.0) * 100);
      assertEquals(expected, d, 100, "distance of item " + i);
      assertEquals(shared[i], item.getLong("shared_interests"), "shared interests of item " + i);
      JsonObject user = item.getJsonObject("user");
      assertFalse(user.containsKey("email") || user.containsKey("phone") || user.containsKey("settings"));
    }
    assertEquals(100, items.getJsonObject(0).getLong("distance_m"));

    // a smaller radius keeps only the nearer people
    assertEquals(List.of(s.same, s.near), ids(await(accounts.nearby(s.searcher, query(s.at, 2, 100)))));
    // the outlier finds nobody around its own place
    assertEquals(List.of(), ids(await(accounts.nearby(s.outside, query(new double[] {s.at[0] + 0.9, s.at[1]}, 1, 10)))));
  }

  @Test
  @DisplayName("a search starts within 2 km of the searcher's own reported position: without one, or from farther, "
      + "it is refused naming lat")
  void searchOriginNearOwnPosition() throws Exception {
    Scene s = scene();
    long newcomer = optedIn(new JsonArray[] {null}).get(0);
    Throwable unreported = failsWithField("validation_failed", "lat", accounts.nearby(newcomer, query(s.at, 5, 10)));
    assertTrue(unreported.getMessage().contains("report your position"), unreported.getMessage());

    // someone in the scene cannot search from the outlier's place, 100 km away, nor 2.5 km from their own
    Throwable far = failsWithField("validation_failed", "lat",
        accounts.nearby(s.same, query(new double[] {s.at[0] + 0.9, s.at[1]}, 1, 10)));
    assertTrue(far.getMessage().contains("within 2 km"), far.getMessage());
    failsWithField("validation_failed", "lat",
        accounts.nearby(s.searcher, query(new double[] {s.at[0] + 0.0225, s.at[1]}, 50, 100)));
    // 1.7 km away is close enough
    assertEquals(Set.of(s.same, s.near, s.mid, s.far), Set.copyOf(ids(await(accounts.nearby(s.searcher,
        query(new double[] {s.at[0] + 0.015, s.at[1]}, 50, 100))))));
  }

  @Test
  @DisplayName("the interest filter keeps only people sharing at least one of the interests, any case")
  void interestFilter() throws Exception {
    Scene s = scene();
    assertEquals(List.of(s.far), ids(await(accounts.nearby(s.searcher, query(s.at, 50, 100)
        .put("interests", tags("HIKING"))))));
    assertEquals(List.of(s.mid, s.far), ids(await(accounts.nearby(s.searcher, query(s.at, 50, 100)
        .put("interests", tags("sailing", "chess"))))));
    assertEquals(List.of(), ids(await(accounts.nearby(s.searcher, query(s.at, 50, 100)
        .put("interests", tags("knitting"))))));
    assertEquals(4, ids(await(accounts.nearby(s.searcher, query(s.at, 50, 100).put("interests", tags())))).size());
  }

  @Test
  @DisplayName("results page with offset and next_offset until exhausted, without duplicates")
  void paging() throws Exception {
    Scene s = scene();
    List<Long> all = new ArrayList<>();
    Integer offset = 0;
    int pages = 0;
    while (offset != null) {
      JsonObject page = await(accounts.nearby(s.searcher, query(s.at, 50, 3).put("offset", offset)));
      assertTrue(page.getJsonArray("items").size() <= 3);
      all.addAll(ids(page));
      offset = page.getInteger("next_offset");
      pages++;
      assertTrue(pages < 10, "paging does not end");
    }
    assertEquals(2, pages);
    assertEquals(List.of(s.same, s.near, s.mid, s.far), all);
    JsonObject beyond = await(accounts.nearby(s.searcher, query(s.at, 50, 3).put("offset", 4)));
    assertEquals(0, beyond.getJsonArray("items").size());
    assertNull(beyond.getValue("next_offset"));
  }

  @Test
  @DisplayName("a radius over 50 km or not positive, a limit outside 1..100 and a negative offset are refused")
  void searchLimits() throws Exception {
    long user = optedIn(new JsonArray[] {null}).get(0);
    double[] at = newArea();
    for (double radius : new double[] {50.01, 51, 0, -1}) {
      failsWithField("validation_failed", "radius_km", accounts.nearby(user, query(at, radius, 10)));
    }
    for (int limit : new int[] {0, -5, 101, 1000}) {
      failsWithField("validation_failed", "limit", accounts.nearby(user, query(at, 10, limit)));
    }
    failsWithField("validation_failed", "offset", accounts.nearby(user, query(at, 10, 10).put("offset", -1)));
    failsWithField("validation_failed", "interests", accounts.nearby(user, query(at, 10, 10).put("interests", "go")));
    // the bounds themselves are accepted (from the searcher's own position)
    await(accounts.reportPosition(user, at[0], at[1]));
    await(accounts.nearby(user, query(at, 50, 100)));
    await(accounts.nearby(user, query(at, 0.1, 1)));
  }

  @Test
  @DisplayName("invisible users never appear in nearby, and users who turn nearby off disappear")
  void invisibleAndOptedOutNeverAppear() throws Exception {
    double[] at = newArea();
    List<Long> u = optedIn(null, null, null, null, null);
    long searcher = u.get(0);
    long control = u.get(1);
    long goesInvisible = u.get(2);
    long invisibleFirst = u.get(3);
    long turnsOff = u.get(4);
    await(accounts.setPresenceMode(invisibleFirst, "invisible"));
    await(accounts.reportPosition(searcher, at[0], at[1]));
    await(accounts.reportPosition(control, at[0] + 0.01, at[1]));
    await(accounts.reportPosition(goesInvisible, at[0] + 0.02, at[1]));
    await(accounts.reportPosition(invisibleFirst, at[0] + 0.005, at[1]));
    await(accounts.reportPosition(turnsOff, at[0] + 0.03, at[1]));
    assertEquals(List.of(control, goesInvisible, turnsOff), ids(await(accounts.nearby(searcher, query(at, 10, 100)))));

    await(accounts.setPresenceMode(goesInvisible, "invisible"));
    patch(turnsOff, new JsonObject().put("settings", new JsonObject().put("nearby_visible", false)));
    assertEquals(List.of(control), ids(await(accounts.nearby(searcher, query(at, 10, 100)))));

    // turning it back on does not bring back the old position: it was deleted
    patch(turnsOff, new JsonObject().put("settings", new JsonObject().put("nearby_visible", true)));
    await(accounts.setPresenceMode(goesInvisible, "online"));
    assertEquals(List.of(control), ids(await(accounts.nearby(searcher, query(at, 10, 100)))));
    // and someone who turned nearby off may not search either
    patch(control, new JsonObject().put("settings", new JsonObject().put("nearby_visible", false)));
    failsWith("nearby_disabled", accounts.nearby(control, query(at, 10, 100)));
  }
}
