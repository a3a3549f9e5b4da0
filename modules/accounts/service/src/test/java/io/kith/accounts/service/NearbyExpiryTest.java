package io.kith.accounts.service;

import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A reported position counts for nearby-ttl-seconds only (1 s here, with one report a second; searches are not
 * limited, as the test polls with them).
 */
class NearbyExpiryTest extends AccountsTestBase {

  @Override
  protected JsonObject overrides() {
    return new JsonObject().put("accounts", new JsonObject().put("nearby-ttl-seconds", 1)
        .put("position-interval-seconds", 1).put("nearby-searches-per-minute", 100_000));
  }

  private static JsonArray ids(JsonObject result) {
    JsonArray out = new JsonArray();
    result.getJsonArray("items").forEach(i -> out.add(((JsonObject) i).getJsonObject("user").getLong("id")));
    return out;
  }

  @Test
  @DisplayName("a reported position stops counting after nearby-ttl-seconds, for being found and for searching")
  void positionExpires() throws Exception {
    List<JsonObject> users = registerMany(2);
    long searcher = idOf(users.get(0));
    long reporter = idOf(users.get(1));
    for (long id : List.of(searcher, reporter)) {
      patch(id, new JsonObject().put("settings", new JsonObject().put("nearby_visible", true)));
    }
    // north of the areas NearbyTest uses, in the empty South Pacific
    double lat = -10.0 - ThreadLocalRandom.current().nextInt(5) * 2;
    double lon = -140.0 + ThreadLocalRandom.current().nextInt(10) * 2;
    JsonObject query = new JsonObject().put("lat", lat).put("lon", lon).put("radius_km", 5).put("limit", 10);
    long reportedAt = System.currentTimeMillis();
    await(accounts.reportPosition(searcher, lat, lon));
    await(accounts.reportPosition(reporter, lat + 0.01, lon));
    assertEquals(new JsonArray().add(reporter), ids(await(accounts.nearby(searcher, query))));

    // the searcher's own position lapses too: searching needs a fresh report
    poll("the positions to expire", Duration.ofSeconds(10), () -> accounts.nearby(searcher, query)
        .map(r -> false)
        .recover(e -> "validation_failed".equals(Failures.codeOf(e)) ? Future.succeededFuture(true)
            : Future.failedFuture(e)));
    poll("the searcher's next report to be accepted", Duration.ofSeconds(10), () ->
        accounts.reportPosition(searcher, lat, lon).map(v -> true)
            .recover(e -> "position_throttled".equals(Failures.codeOf(e)) ? Future.succeededFuture(false)
                : Future.failedFuture(e)));
    // the reporter reported a moment after the searcher
    poll("the reporter's position to expire", Duration.ofSeconds(10),
        () -> accounts.nearby(searcher, query).map(r -> !ids(r).contains(reporter)));
    assertTrue(System.currentTimeMillis() - reportedAt >= 900, "expired before its time");
  }
}
