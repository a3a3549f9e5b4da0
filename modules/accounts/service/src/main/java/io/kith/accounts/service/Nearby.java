package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import static io.kith.accounts.service.Inputs.arrayField;
import static io.kith.accounts.service.Inputs.checkPosition;
import static io.kith.accounts.service.Inputs.number;

/**
 * Nearby people: reporting one's position (when visible nearby) and searching near it by radius and interests,
 * without users in a block with the searcher or hidden from nearby.
 */
final class Nearby {

  static final int MAX_NEARBY_OFFSET = 1000;
  /** How far a nearby search may start from the searcher's own reported position. */
  static final double MAX_SEARCH_ORIGIN_KM = 2.0;

  private final AccountsSettings settings;
  private final ProfileCache cache;
  private final NearbyStore nearby;
  private final RateLimiter limiter;
  private final Throttles throttles;
  private final Relationships relationships;

  Nearby(AccountsSettings settings, ProfileCache cache, NearbyStore nearby, RateLimiter limiter, Throttles throttles,
         Relationships relationships) {
    this.settings = settings;
    this.cache = cache;
    this.nearby = nearby;
    this.limiter = limiter;
    this.throttles = throttles;
    this.relationships = relationships;
  }

  Future<Void> reportPosition(long actor, double latitude, double longitude) {
    return Failures.guard(() -> {
      checkPosition(latitude, longitude);
      return cache.get(actor).compose(account -> {
        if (account == null) {
          return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
        }
        JsonObject s = Profiles.settingsOf(account);
        if (!s.getBoolean("nearby_visible")) {
          return Failures.fail(AccountsErrors.NEARBY_DISABLED,
              "turn on settings.nearby_visible to appear in and search nearby people");
        }
        return limiter.hit("rl:accounts:position:" + actor, settings.positionIntervalSeconds() * 1000L)
            .compose(window -> window.count() > 1
                ? Future.failedFuture(Failures.withExtra(AccountsErrors.POSITION_THROTTLED,
                    "position reported too often", new JsonObject().put("retry_after", window.retryAfterSeconds())))
                : nearby.report(actor, latitude, longitude));
      });
    });
  }

  /** A validated nearby search. */
  private record Query(double lat, double lon, double radius, int limit, int offset, Set<String> wanted) {
  }

  Future<JsonObject> nearby(long actor, JsonObject query) {
    return Failures.guard(() -> {
      Query q = query(query == null ? new JsonObject() : query);
      return cache.get(actor).compose(me -> {
        if (me == null) {
          return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
        }
        if (!Profiles.settingsOf(me).getBoolean("nearby_visible")) {
          return Failures.fail(AccountsErrors.NEARBY_DISABLED,
              "turn on settings.nearby_visible to appear in and search nearby people");
        }
        int candidates = Math.min(2000, q.offset() + q.limit() + 200);
        return throttles.perMinute("nearby", actor, settings.nearbySearchesPerMinute(), "too many nearby searches")
            .compose(v -> nearby.positionOf(actor))
            .compose(own -> searched(q, own, candidates))
            .compose(hits -> shown(actor, me, q, hits));
      });
    });
  }

  private Query query(JsonObject q) {
    double lat = number(q, "lat");
    double lon = number(q, "lon");
    checkPosition(lat, lon);
    double radius = q.getValue("radius_km") == null ? 5.0 : number(q, "radius_km");
    if (!(radius > 0) || radius > settings.nearbyMaxRadiusKm()) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "radius_km",
          "radius_km must be more than 0 and at most " + settings.nearbyMaxRadiusKm());
    }
    int limit = q.getValue("limit") == null ? 20 : (int) number(q, "limit");
    if (limit < 1 || limit > 100) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "limit", "limit must be between 1 and 100");
    }
    int offset = q.getValue("offset") == null ? 0 : (int) number(q, "offset");
    if (offset < 0 || offset > MAX_NEARBY_OFFSET) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "offset",
          "offset must be between 0 and " + MAX_NEARBY_OFFSET);
    }
    Set<String> wanted = new HashSet<>();
    JsonArray interests = arrayField(q, "interests");
    if (interests.size() > Profiles.MAX_INTERESTS) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "interests",
          "at most " + Profiles.MAX_INTERESTS + " interests");
    }
    interests.forEach(i -> wanted.add(String.valueOf(i).trim().toLowerCase(Locale.ROOT)));
    return new Query(lat, lon, radius, limit, offset, wanted);
  }

  /** The candidates around the search's origin, which must be near the searcher's own reported position. */
  private Future<List<NearbyStore.Hit>> searched(Query q, double[] own, int candidates) {
    // searching from anywhere would let anyone locate others by searching from several places
    if (own == null) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "lat",
          "report your position first: searches start from your own reported position");
    }
    if (NearbyStore.distanceMeters(own[0], own[1], q.lat(), q.lon()) > MAX_SEARCH_ORIGIN_KM * 1000) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "lat", "search near your reported position: "
          + "lat and lon must be within " + (int) MAX_SEARCH_ORIGIN_KM + " km of it");
    }
    return nearby.search(q.lat(), q.lon(), q.radius(), candidates);
  }

  /** The page of hits the searcher may see: visible nearby, in no block, matching the wanted interests. */
  private Future<JsonObject> shown(long actor, JsonObject me, Query q, List<NearbyStore.Hit> hits) {
    Set<String> mine = Profiles.interestSet(me);
    List<Long> ids = hits.stream().map(NearbyStore.Hit::userId).filter(id -> id != actor).toList();
    return Future.all(cache.getAll(ids), relationships.blockedEitherWay(actor, ids)).map(all -> {
      Map<Long, JsonObject> accounts = all.resultAt(0);
      Set<Long> blocked = all.resultAt(1);
      List<JsonObject> visible = new ArrayList<>();
      for (NearbyStore.Hit hit : hits) {
        JsonObject other = accounts.get(hit.userId());
        // a limited user is not found by strangers; nearby cannot tell followers apart, so it leaves them out for all
        if (hit.userId() == actor || other == null || blocked.contains(hit.userId()) || Limits.active(other)) {
          continue;
        }
        JsonObject s = Profiles.settingsOf(other);
        if (!s.getBoolean("nearby_visible") || "invisible".equals(s.getString("presence"))) {
          continue;
        }
        Set<String> theirs = Profiles.interestSet(other);
        if (!q.wanted().isEmpty() && theirs.stream().noneMatch(q.wanted()::contains)) {
          continue;
        }
        long shared = theirs.stream().filter(mine::contains).count();
        long distance = Math.max(100, Math.round(hit.distanceMeters() / 100.0) * 100);
        visible.add(new JsonObject().put("user", Profiles.summary(other)).put("distance_m", distance)
            .put("shared_interests", shared));
      }
      return page(visible, q.offset(), q.limit());
    });
  }

  private static JsonObject page(List<JsonObject> visible, int offset, int limit) {
    JsonArray items = new JsonArray();
    for (int i = offset; i < Math.min(visible.size(), offset + limit); i++) {
      items.add(visible.get(i));
    }
    Integer next = visible.size() > offset + limit && offset + limit <= MAX_NEARBY_OFFSET ? offset + limit : null;
    return new JsonObject().put("items", items).put("next_offset", next);
  }
}
