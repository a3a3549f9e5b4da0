package io.kith.accounts.service;

import io.kith.platform.store.ExpiringMembers;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.List;

/**
 * Positions for "nearby people" in Redis GEO: {@code geo:{nearby}} (members are user ids) and
 * {@code geo:{nearby}:exp} (sorted set of the same ids by expiry time). Positions are rounded to three decimals
 * (about 110 m) before storing, so nobody's exact location is kept. Expired members are ignored by searches and
 * removed by {@link #sweep}.
 */
final class NearbyStore {

  static final String GEO = "geo:{nearby}";
  static final String EXPIRY = "geo:{nearby}:exp";
  /** Redis' earth radius in metres (GEODIST and GEOSEARCH measure with it). */
  static final double EARTH_RADIUS_M = 6372797.560856;

  private final Redis redis;
  private final long ttlMillis;

  NearbyStore(Redis redis, long ttlMillis) {
    this.redis = redis;
    this.ttlMillis = ttlMillis;
  }

  /** A candidate from a search: user id and distance in metres. */
  record Hit(long userId, double distanceMeters) {
  }

  static double round(double degrees) {
    return Math.round(degrees * 1000.0) / 1000.0;
  }

  Future<Void> report(long userId, double lat, double lon) {
    return redis.batch(List.of(
        Request.cmd(Command.GEOADD).arg(GEO).arg(round(lon)).arg(round(lat)).arg(userId),
        Request.cmd(Command.ZADD).arg(EXPIRY).arg(System.currentTimeMillis() + ttlMillis).arg(userId))).mapEmpty();
  }

  Future<Void> remove(long userId) {
    return redis.batch(List.of(
        Request.cmd(Command.ZREM).arg(GEO).arg(userId),
        Request.cmd(Command.ZREM).arg(EXPIRY).arg(userId))).mapEmpty();
  }

  /** The user's stored (rounded) position as {@code {lat, lon}}, or null when there is none or it expired. */
  Future<double[]> positionOf(long userId) {
    return redis.batch(List.of(
        Request.cmd(Command.GEOPOS).arg(GEO).arg(userId),
        Request.cmd(Command.ZSCORE).arg(EXPIRY).arg(userId))).map(r -> {
          Response pos = r.get(0) == null || r.get(0).size() == 0 ? null : r.get(0).get(0);
          Response expiry = r.get(1);
          if (pos == null || pos.size() < 2 || expiry == null
              || Double.parseDouble(expiry.toString()) <= System.currentTimeMillis()) {
            return null;
          }
          return new double[] {Double.parseDouble(pos.get(1).toString()), Double.parseDouble(pos.get(0).toString())};
        });
  }

  /** Great-circle distance in metres, as Redis computes it. */
  static double distanceMeters(double lat1, double lon1, double lat2, double lon2) {
    double dLat = Math.toRadians(lat2 - lat1);
    double dLon = Math.toRadians(lon2 - lon1);
    double a = Math.pow(Math.sin(dLat / 2), 2)
        + Math.cos(Math.toRadians(lat1)) * Math.cos(Math.toRadians(lat2)) * Math.pow(Math.sin(dLon / 2), 2);
    return 2 * EARTH_RADIUS_M * Math.asin(Math.sqrt(a));
  }

  /** Up to {@code count} unexpired members within {@code radiusKm}, nearest first. */
  Future<List<Hit>> search(double lat, double lon, double radiusKm, int count) {
    Request geosearch = Request.cmd(Command.GEOSEARCH).arg(GEO)
        .arg("FROMLONLAT").arg(lon).arg(lat)
        .arg("BYRADIUS").arg(radiusKm).arg("km")
        .arg("ASC").arg("COUNT").arg(count).arg("WITHDIST");
    return redis.send(geosearch).compose(r -> {
      List<Hit> hits = new ArrayList<>();
      if (r != null) {
        for (Response item : r) {
          hits.add(new Hit(Long.parseLong(item.get(0).toString()), Double.parseDouble(item.get(1).toString()) * 1000));
        }
      }
      if (hits.isEmpty()) {
        return Future.succeededFuture(hits);
      }
      Request scores = Request.cmd(Command.ZMSCORE).arg(EXPIRY);
      hits.forEach(h -> scores.arg(h.userId()));
      long now = System.currentTimeMillis();
      return redis.send(scores).map(s -> {
        List<Hit> live = new ArrayList<>();
        for (int i = 0; i < hits.size(); i++) {
          Response score = s.get(i);
          if (score != null && Double.parseDouble(score.toString()) > now) {
            live.add(hits.get(i));
          }
        }
        return live;
      });
    });
  }

  /** Removes up to 1,000 expired members (atomically, so a fresh report is never swept); returns how many. */
  Future<Integer> sweep() {
    return ExpiringMembers.sweep(redis, GEO, EXPIRY, System.currentTimeMillis());
  }
}
