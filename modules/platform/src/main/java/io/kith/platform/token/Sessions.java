package io.kith.platform.token;

import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.store.LuaScripts;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Response;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Login sessions and their refresh tokens, kept in Redis.
 *
 * <p>A refresh token reads {@code <userId>.<sessionId>.<secret>}; Redis keeps only the SHA-256 of the secret. Each
 * refresh rotates the secret. Presenting any of the last {@link #PREVIOUS_KEPT} secrets again (a stolen token
 * replayed after its owner refreshed, or the reverse) revokes the whole session. Sessions expire after {@code tokens.refresh-ttl} without a
 * refresh; a user keeps at most {@link #MAX_SESSIONS_PER_USER}, the oldest being dropped.
 *
 * <p>Keys, all hash-tagged by user so that the scripts touch one slot:
 * {@code sess:{u:<id>}:s:<sid>} (hash: device, created, last_used, hash, prev; expires with the session) and
 * {@code sess:{u:<id>}:index} (sorted set of session ids in creation order: scored by creation time, made strictly
 * increasing). Session keys live under their own {@code s:} namespace, and only session ids of the generated form
 * ({@value #SESSION_ID_PATTERN}) are ever accepted, so no id a client sends can name the index or another key.
 *
 * <p>Revocations are published on {@link Addresses#SESSIONS_REVOKED} so every node drops its cached "session alive"
 * answer and closes bridge connections of the session at once.
 */
public final class Sessions {

  /** Most concurrent sessions a user keeps. */
  public static final int MAX_SESSIONS_PER_USER = 50;
  /** Longest accepted device label. */
  public static final int MAX_DEVICE_LENGTH = 100;
  /**
   * How many earlier refresh secrets of a session are remembered: presenting any of them (a stolen token replayed
   * after up to this many rotations) revokes the session.
   */
  public static final int PREVIOUS_KEPT = 16;
  /** The form of every session id this class generates: 16 random bytes, base64url without padding. */
  public static final String SESSION_ID_PATTERN = "[A-Za-z0-9_-]{22}";
  private static final Pattern SESSION_ID = Pattern.compile(SESSION_ID_PATTERN);
  private static final long ALIVE_CACHE_MILLIS = 5_000;
  private static final int ALIVE_CACHE_MAX = 100_000;

  private static final LuaScripts.Script OPEN = LuaScripts.load(Sessions.class, "session-open.lua");
  private static final LuaScripts.Script REFRESH = LuaScripts.load(Sessions.class, "session-refresh.lua");
  private static final LuaScripts.Script REVOKE = LuaScripts.load(Sessions.class, "session-revoke.lua");
  private static final LuaScripts.Script REVOKE_ALL = LuaScripts.load(Sessions.class, "session-revoke-all.lua");

  private final Vertx vertx;
  private final RedisAPI redis;
  private final Redis client;
  private final AccessTokens tokens;
  private final long refreshTtlMillis;
  private final SecureRandom random = new SecureRandom();
  private final Map<String, Long> aliveUntil = new ConcurrentHashMap<>();
  private final MessageConsumer<JsonObject> revocations;

  /** Creates the store and subscribes to revocation notices. */
  public Sessions(Vertx vertx, Redis client, AccessTokens tokens, int refreshTtlSeconds) {
    this.vertx = vertx;
    this.client = client;
    this.redis = RedisAPI.api(client);
    this.tokens = tokens;
    this.refreshTtlMillis = refreshTtlSeconds * 1000L;
    this.revocations = vertx.eventBus().consumer(Addresses.SESSIONS_REVOKED, msg -> {
      JsonObject body = msg.body();
      long user = body.getLong("user", 0L);
      JsonArray sids = body.getJsonArray("sessions", new JsonArray());
      sids.forEach(s -> aliveUntil.remove(user + ":" + s));
    });
  }

  /** The access-token signer used for new pairs. */
  public AccessTokens accessTokens() {
    return tokens;
  }

  /** Opens a session for {@code userId} (after the caller verified the credentials) and returns its first tokens. */
  public Future<TokenPair> open(long userId, String device) {
    if (userId <= 0) {
      return Failures.fail(KithErrors.VALIDATION_FAILED, "user id must be positive");
    }
    String label = device == null || device.isBlank() ? "unknown device" : device.strip();
    if (label.length() > MAX_DEVICE_LENGTH) {
      label = label.substring(0, MAX_DEVICE_LENGTH);
    }
    String sid = randomToken(16);
    String secret = randomToken(32);
    long now = System.currentTimeMillis();
    return OPEN.run(redis, List.of("2", sessionKey(userId, sid), indexKey(userId), label, Long.toString(now),
            sha256(secret), Long.toString(refreshTtlMillis), sid, Integer.toString(MAX_SESSIONS_PER_USER),
            sessionPrefix(userId)))
        .map(evicted -> {
          if (evicted != null && evicted.size() > 0) {
            List<String> dropped = new ArrayList<>();
            for (int i = 0; i < evicted.size(); i += 2) {
              dropped.add(evicted.get(i).toString());
            }
            announce(userId, dropped);
          }
          return pair(userId, sid, secret);
        });
  }

  /**
   * Exchanges a refresh token for a new pair (the presented token stops working). Reusing a token that was already
   * exchanged revokes its session.
   */
  public Future<TokenPair> refresh(String refreshToken) {
    ParsedRefresh parsed = ParsedRefresh.parse(refreshToken);
    if (parsed == null) {
      return Failures.fail(KithErrors.REFRESH_INVALID, "the refresh token is malformed");
    }
    String next = randomToken(32);
    return REFRESH.run(redis, List.of("2", sessionKey(parsed.userId, parsed.sessionId), indexKey(parsed.userId),
            sha256(parsed.secret), sha256(next), Long.toString(System.currentTimeMillis()),
            Long.toString(refreshTtlMillis), parsed.sessionId, Integer.toString(PREVIOUS_KEPT)))
        .compose(r -> {
          int outcome = r.toInteger();
          if (outcome == 1) {
            return Future.succeededFuture(pair(parsed.userId, parsed.sessionId, next));
          }
          if (outcome == -1) {
            announce(parsed.userId, List.of(parsed.sessionId));
            return Failures.fail(KithErrors.REFRESH_INVALID,
                "the refresh token was already used; the session has been revoked, log in again");
          }
          return Failures.fail(KithErrors.REFRESH_INVALID, "the refresh token is unknown or expired; log in again");
        });
  }

  /** Whether the session is alive (cached for a few seconds; revocations clear the cache cluster-wide). */
  public Future<Boolean> isActive(long userId, String sessionId) {
    if (!isSessionId(sessionId)) {
      return Future.succeededFuture(false);
    }
    String cacheKey = userId + ":" + sessionId;
    Long until = aliveUntil.get(cacheKey);
    long now = System.currentTimeMillis();
    if (until != null && until > now) {
      return Future.succeededFuture(true);
    }
    return redis.exists(List.of(sessionKey(userId, sessionId))).map(r -> {
      boolean alive = r.toInteger() > 0;
      if (alive) {
        if (aliveUntil.size() >= ALIVE_CACHE_MAX) {
          aliveUntil.clear();
        }
        aliveUntil.put(cacheKey, now + ALIVE_CACHE_MILLIS);
      } else {
        aliveUntil.remove(cacheKey);
      }
      return alive;
    });
  }

  /** Revokes one session of {@code userId}; revoking an unknown session is a 404. */
  public Future<Void> revoke(long userId, String sessionId) {
    if (!isSessionId(sessionId)) {
      return Failures.fail(KithErrors.NOT_FOUND, "no such session");
    }
    return REVOKE.run(redis, List.of("2", indexKey(userId), sessionKey(userId, sessionId), sessionId))
        .compose(r -> {
          if (r.toInteger() == 0) {
            return Failures.fail(KithErrors.NOT_FOUND, "no such session");
          }
          announce(userId, List.of(sessionId));
          return Future.<Void>succeededFuture();
        });
  }

  /** Revokes every session of {@code userId} (log out everywhere, password change). */
  public Future<Void> revokeAll(long userId) {
    return REVOKE_ALL.run(redis, List.of("1", indexKey(userId), sessionPrefix(userId))).map(r -> {
      List<String> sids = new ArrayList<>();
      r.forEach(s -> sids.add(s.toString()));
      announce(userId, sids);
      return null;
    });
  }

  /** The user's live sessions, newest first. */
  public Future<List<SessionInfo>> list(long userId) {
    return redis.zrange(List.of(indexKey(userId), "0", "-1")).compose(ids -> {
      List<String> sids = new ArrayList<>();
      ids.forEach(s -> sids.add(s.toString()));
      if (sids.isEmpty()) {
        return Future.succeededFuture(List.<SessionInfo>of());
      }
      List<Request> reads = new ArrayList<>();
      for (String sid : sids) {
        reads.add(Request.cmd(Command.HMGET).arg(sessionKey(userId, sid)).arg("device").arg("created").arg("last_used"));
      }
      return client.batch(reads).compose(rows -> {
        List<SessionInfo> live = new ArrayList<>();
        List<String> stale = new ArrayList<>();
        for (int i = 0; i < sids.size(); i++) {
          Response row = rows.get(i);
          if (row.get(1) == null) {
            stale.add(sids.get(i));
          } else {
            live.add(new SessionInfo(sids.get(i), row.get(0).toString(), row.get(1).toLong(), row.get(2).toLong()));
          }
        }
        // the index is in creation order (its scores never tie), so newest first is its reverse
        Collections.reverse(live);
        if (stale.isEmpty()) {
          return Future.succeededFuture(live);
        }
        List<String> args = new ArrayList<>();
        args.add(indexKey(userId));
        args.addAll(stale);
        return redis.zrem(args).map(x -> live);
      });
    });
  }

  /** Stops listening to revocation notices. */
  public Future<Void> close() {
    return revocations.unregister();
  }

  private void announce(long userId, List<String> sessionIds) {
    if (sessionIds.isEmpty()) {
      return;
    }
    sessionIds.forEach(s -> aliveUntil.remove(userId + ":" + s));
    vertx.eventBus().publish(Addresses.SESSIONS_REVOKED,
        new JsonObject().put("user", userId).put("sessions", new JsonArray(sessionIds)));
  }

  private TokenPair pair(long userId, String sid, String secret) {
    return new TokenPair(tokens.issue(userId, sid), userId + "." + sid + "." + secret, tokens.ttlSeconds(), sid,
        userId);
  }

  private static String prefix(long userId) {
    return "sess:{u:" + userId + "}:";
  }

  /** Prefix of the user's session hashes: a namespace of their own, apart from the index. */
  private static String sessionPrefix(long userId) {
    return prefix(userId) + "s:";
  }

  private static String sessionKey(long userId, String sid) {
    return sessionPrefix(userId) + sid;
  }

  private static boolean isSessionId(String sid) {
    return sid != null && SESSION_ID.matcher(sid).matches();
  }

  private static String indexKey(long userId) {
    return prefix(userId) + "index";
  }

  private String randomToken(int bytes) {
    byte[] b = new byte[bytes];
    random.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  /** The SHA-256 of {@code s} (UTF-8) in lower-case hex: how a random secret is kept at rest. */
  public static String sha256(String s) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private record ParsedRefresh(long userId, String sessionId, String secret) {
    static ParsedRefresh parse(String token) {
      if (token == null || token.length() > 200) {
        return null;
      }
      String[] parts = token.split("\\.", -1);
      if (parts.length != 3 || parts[2].isEmpty() || !isSessionId(parts[1])) {
        return null;
      }
      try {
        long uid = Long.parseLong(parts[0]);
        return uid > 0 ? new ParsedRefresh(uid, parts[1], parts[2]) : null;
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }
}
