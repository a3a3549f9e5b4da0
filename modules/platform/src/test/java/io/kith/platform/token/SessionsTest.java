package io.kith.platform.token;

import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@Timeout(120)
class SessionsTest {

  private Vertx vertx;
  private Platform platform;
  private Sessions sessions;
  /** Revocation notices published on {@link Addresses#SESSIONS_REVOKED} during the test. */
  private final List<JsonObject> revoked = new CopyOnWriteArrayList<>();

  @BeforeEach
  void setUp(Vertx vertx) {
    this.vertx = vertx;
    platform = Await.result(KithTestKit.platform(vertx));
    sessions = platform.sessions();
    Await.result(vertx.eventBus().<JsonObject>consumer(Addresses.SESSIONS_REVOKED, m -> revoked.add(m.body()))
        .completion());
  }

  @AfterEach
  void tearDown() {
    Await.result(platform.close());
  }

  private static void assertRefused(Future<?> outcome, String code) {
    Throwable e = Await.failure(outcome);
    assertEquals(code, Failures.codeOf(e), "failed with " + e);
  }

  private void awaitRevocationNotice(long userId, Set<String> sids) {
    Await.result(Poll.until(vertx, Duration.ofSeconds(10), "a revocation notice for " + sids,
        () -> Future.succeededFuture(revoked.stream()
            .filter(n -> n.getLong("user") == userId)
            .flatMap(n -> n.getJsonArray("sessions").stream().map(String::valueOf))
            .collect(Collectors.toSet()).containsAll(sids))));
  }

  /** Opens one session per device label, each after the previous one completed, as fast as Redis answers. */
  private List<TokenPair> openInTurn(long user, List<String> devices) {
    List<TokenPair> pairs = new ArrayList<>();
    Future<Void> chain = Future.succeededFuture();
    for (String device : devices) {
      chain = chain.compose(v -> sessions.open(user, device)).map(p -> {
        pairs.add(p);
        return null;
      });
    }
    Await.result(chain);
    return pairs;
  }

  private boolean active(TokenPair pair) {
    return Await.result(sessions.isActive(pair.userId(), pair.sessionId()));
  }

  @Test
  @DisplayName("opening a session yields an access token for the user and session, and the session is active")
  void openAndVerify() {
    long user = KithTestKit.newUserId();

    TokenPair pair = Await.result(sessions.open(user, "Ada's phone"));

    AccessClaims claims = Await.result(platform.accessTokens().verify(pair.accessToken()));
    assertEquals(user, claims.userId());
    assertEquals(pair.sessionId(), claims.sessionId());
    assertEquals(user, pair.userId());
    assertTrue(pair.refreshToken().startsWith(user + "." + pair.sessionId() + "."));
    assertEquals(platform.accessTokens().ttlSeconds(), pair.expiresIn());
    assertTrue(active(pair));
    JsonObject json = pair.toJson();
    assertEquals("Bearer", json.getString("token_type"));
    assertEquals(pair.accessToken(), json.getString("access_token"));
  }

  @Test
  @DisplayName("a refresh returns a new pair for the same session, and the new refresh token works in turn")
  void refreshRotates() {
    TokenPair first = Await.result(KithTestKit.newSession(platform));

    TokenPair second = Await.result(sessions.refresh(first.refreshToken()));
    TokenPair third = Await.result(sessions.refresh(second.refreshToken()));

    assertEquals(first.sessionId(), second.sessionId());
    assertEquals(first.userId(), third.userId());
    assertNotEquals(first.refreshToken(), second.refreshToken());
    assertNotEquals(second.refreshToken(), third.refreshToken());
    AccessClaims claims = Await.result(platform.accessTokens().verify(third.accessToken()));
    assertEquals(first.userId(), claims.userId());
    assertEquals(first.sessionId(), claims.sessionId());
    assertTrue(active(third));
  }

  @Test
  @DisplayName("a refresh token already exchanged is refused, and presenting it revokes the whole session")
  void reuseRevokesSession() {
    TokenPair first = Await.result(KithTestKit.newSession(platform));
    TokenPair second = Await.result(sessions.refresh(first.refreshToken()));
    assertTrue(active(second), "the session is active (and cached as such) before the replay");

    assertRefused(sessions.refresh(first.refreshToken()), "refresh_token_invalid");

    assertRefused(sessions.refresh(second.refreshToken()), "refresh_token_invalid");
    assertFalse(active(second), "the replay revoked the session");
    assertTrue(Await.result(sessions.list(first.userId())).isEmpty());
    awaitRevocationNotice(first.userId(), Set.of(first.sessionId()));
  }

  @Test
  @DisplayName("a replay after several rotations is refused and still revokes the session")
  void replayAfterSeveralRotationsRevokes() {
    TokenPair first = Await.result(KithTestKit.newSession(platform));
    TokenPair latest = first;
    for (int i = 0; i < 5; i++) {
      latest = Await.result(sessions.refresh(latest.refreshToken()));
    }

    assertRefused(sessions.refresh(first.refreshToken()), "refresh_token_invalid");
    assertFalse(active(latest), "replaying a secret five rotations old revoked the session");
    assertRefused(sessions.refresh(latest.refreshToken()), "refresh_token_invalid");
  }

  @Test
  @DisplayName("only the last 16 secrets are remembered: older replays are refused without revoking")
  void historyIsBounded() {
    TokenPair first = Await.result(KithTestKit.newSession(platform));
    TokenPair latest = first;
    for (int i = 0; i < Sessions.PREVIOUS_KEPT + 1; i++) {
      latest = Await.result(sessions.refresh(latest.refreshToken()));
    }

    assertRefused(sessions.refresh(first.refreshToken()), "refresh_token_invalid");
    assertTrue(active(latest), "a secret older than the kept history cannot be told from a forgery");
  }

  @Test
  @DisplayName("a refresh token with the right user and session but a wrong secret is refused")
  void wrongSecretRefused() {
    TokenPair pair = Await.result(KithTestKit.newSession(platform));

    assertRefused(sessions.refresh(pair.userId() + "." + pair.sessionId() + ".not-the-secret"),
        "refresh_token_invalid");
    assertRefused(sessions.refresh(KithTestKit.newUserId() + "." + pair.sessionId() + "."
        + pair.refreshToken().substring(pair.refreshToken().lastIndexOf('.') + 1)), "refresh_token_invalid");
    Await.result(sessions.refresh(pair.refreshToken()));
  }

  @Test
  @DisplayName("malformed refresh tokens are refused")
  void malformedRefused() {
    TokenPair pair = Await.result(KithTestKit.newSession(platform));
    String secret = pair.refreshToken().substring(pair.refreshToken().lastIndexOf('.') + 1);
    List<String> malformed = new ArrayList<>(List.of("", "abc", "1.2", "1..x", "1.sid.", ".sid.x", "0.sid.x",
        "-5.sid.x", "x.sid.x", "1.s!d.x", "1.a.b.c", pair.refreshToken() + ".", " " + pair.refreshToken(),
        pair.userId() + "." + "s".repeat(65) + "." + secret, pair.refreshToken() + "x".repeat(200)));
    malformed.add(null);

    for (String token : malformed) {
      assertRefused(sessions.refresh(token), "refresh_token_invalid");
    }
    assertTrue(active(pair), "no malformed token touched the session");
  }

  @Test
  @DisplayName("revoking one session ends it, announces it, and leaves the user's other sessions alone")
  void revokeOne() {
    long user = KithTestKit.newUserId();
    TokenPair kept = Await.result(sessions.open(user, "laptop"));
    TokenPair ended = Await.result(sessions.open(user, "phone"));
    assertTrue(active(ended));

    Await.result(sessions.revoke(user, ended.sessionId()));

    assertFalse(active(ended));
    assertRefused(sessions.refresh(ended.refreshToken()), "refresh_token_invalid");
    assertTrue(active(kept));
    assertEquals(List.of(kept.sessionId()),
        Await.result(sessions.list(user)).stream().map(SessionInfo::id).collect(Collectors.toList()));
    awaitRevocationNotice(user, Set.of(ended.sessionId()));
    Await.result(sessions.refresh(kept.refreshToken()));
  }

  @Test
  @DisplayName("revoking an unknown session, or another user's session, is a not_found")
  void revokeUnknown() {
    long user = KithTestKit.newUserId();
    TokenPair pair = Await.result(sessions.open(user, "phone"));

    assertRefused(sessions.revoke(user, "no-such-session"), "not_found");
    assertRefused(sessions.revoke(user, "A".repeat(22)), "not_found");
    assertRefused(sessions.revoke(KithTestKit.newUserId(), pair.sessionId()), "not_found");
    assertRefused(sessions.revoke(user, null), "not_found");
    assertRefused(sessions.revoke(user, "x".repeat(65)), "not_found");
    assertTrue(active(pair));
  }

  @Test
  @DisplayName("a session id of 'index' cannot reach the session index: revoking it is a not_found and log-out-everywhere "
      + "still ends every session")
  void indexIsNotASession() {
    long user = KithTestKit.newUserId();
    TokenPair pair = Await.result(sessions.open(user, "phone"));

    assertRefused(sessions.revoke(user, "index"), "not_found");

    assertEquals(List.of(pair.sessionId()),
        Await.result(sessions.list(user)).stream().map(SessionInfo::id).collect(Collectors.toList()));
    Await.result(sessions.revokeAll(user));
    assertFalse(active(pair), "log-out-everywhere found the session");
    assertRefused(sessions.refresh(pair.refreshToken()), "refresh_token_invalid");
  }

  @Test
  @DisplayName("a refresh token naming the index (or any id not of the generated form) is refused as invalid, "
      + "not a server error")
  void refreshOfIndexRefused() {
    TokenPair pair = Await.result(KithTestKit.newSession(platform));
    String secret = pair.refreshToken().substring(pair.refreshToken().lastIndexOf('.') + 1);

    for (String sid : List.of("index", "s", pair.sessionId().substring(1), pair.sessionId() + "A",
        pair.sessionId().substring(1) + "!")) {
      assertRefused(sessions.refresh(pair.userId() + "." + sid + "." + secret), "refresh_token_invalid");
    }
    assertTrue(active(pair));
    Await.result(sessions.refresh(pair.refreshToken()));
  }

  @Test
  @DisplayName("revoke deletes a session only when its id was in the user's index")
  void revokeNeedsIndexEntry() {
    long user = KithTestKit.newUserId();
    TokenPair pair = Await.result(sessions.open(user, "phone"));
    // an id that is not (or no longer) in the index: nothing is deleted, and the answer is not_found
    Await.result(platform.redisApi().zrem(List.of("sess:{u:" + user + "}:index", pair.sessionId())));

    assertRefused(sessions.revoke(user, pair.sessionId()), "not_found");

    assertEquals(1, Await.result(platform.redisApi().exists(List.of("sess:{u:" + user + "}:s:" + pair.sessionId())))
        .toInteger());
  }

  @Test
  @DisplayName("revoking all sessions of a user ends every one of them and announces them all")
  void revokeAll() {
    long user = KithTestKit.newUserId();
    List<TokenPair> pairs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      pairs.add(Await.result(sessions.open(user, "device " + i)));
    }
    TokenPair other = Await.result(KithTestKit.newSession(platform));
    pairs.forEach(p -> assertTrue(active(p)));

    Await.result(sessions.revokeAll(user));

    for (TokenPair p : pairs) {
      assertFalse(active(p));
      assertRefused(sessions.refresh(p.refreshToken()), "refresh_token_invalid");
    }
    assertTrue(Await.result(sessions.list(user)).isEmpty());
    assertTrue(active(other), "another user's session is untouched");
    awaitRevocationNotice(user, pairs.stream().map(TokenPair::sessionId).collect(Collectors.toSet()));
  }

  @Test
  @DisplayName("the session list is newest first with device labels, and forgets sessions that expired")
  void listNewestFirst() {
    long user = KithTestKit.newUserId();
    long before = System.currentTimeMillis();
    List<TokenPair> opened = openInTurn(user, List.of("  laptop  ", "", "x".repeat(300), "tablet"));
    TokenPair a = opened.get(0);
    TokenPair b = opened.get(1);
    TokenPair c = opened.get(2);
    TokenPair d = opened.get(3);

    List<SessionInfo> listed = Await.result(sessions.list(user));

    assertEquals(List.of(d.sessionId(), c.sessionId(), b.sessionId(), a.sessionId()),
        listed.stream().map(SessionInfo::id).collect(Collectors.toList()));
    assertEquals(List.of("tablet", "x".repeat(Sessions.MAX_DEVICE_LENGTH), "unknown device", "laptop"),
        listed.stream().map(SessionInfo::device).collect(Collectors.toList()));
    for (SessionInfo s : listed) {
      assertTrue(s.created() >= before && s.created() <= System.currentTimeMillis(), "created " + s.created());
      assertEquals(s.created(), s.lastUsed());
    }

    // the session hash expiring (refresh-ttl passed) leaves its id in the index until the next listing
    String indexKey = "sess:{u:" + user + "}:index";
    Await.result(platform.redisApi().del(List.of("sess:{u:" + user + "}:s:" + c.sessionId())));

    assertEquals(List.of(d.sessionId(), b.sessionId(), a.sessionId()),
        Await.result(sessions.list(user)).stream().map(SessionInfo::id).collect(Collectors.toList()));
    assertEquals(null, Await.result(platform.redisApi().zscore(indexKey, c.sessionId())),
        "the stale id was removed from the index");
    assertFalse(active(c));
  }

  @Test
  @DisplayName("a refresh records when the session was last used")
  void refreshUpdatesLastUsed() {
    long user = KithTestKit.newUserId();
    TokenPair pair = Await.result(sessions.open(user, "phone"));
    long created = Await.result(sessions.list(user)).get(0).created();
    Await.result(Poll.until(vertx, Duration.ofSeconds(5), "the clock to move",
        () -> Future.succeededFuture(System.currentTimeMillis() > created)));

    Await.result(sessions.refresh(pair.refreshToken()));

    SessionInfo info = Await.result(sessions.list(user)).get(0);
    assertEquals(created, info.created());
    assertTrue(info.lastUsed() > created, "last_used " + info.lastUsed() + " created " + created);
  }

  @Test
  @DisplayName("a user keeps at most MAX_SESSIONS_PER_USER sessions: opening one more ends the oldest")
  void oldestSessionDropped() {
    long user = KithTestKit.newUserId();
    List<String> devices = new ArrayList<>();
    for (int i = 0; i <= Sessions.MAX_SESSIONS_PER_USER; i++) {
      devices.add("device " + i);
    }
    List<TokenPair> pairs = openInTurn(user, devices);
    TokenPair oldest = pairs.get(0);
    TokenPair newest = pairs.get(pairs.size() - 1);

    List<SessionInfo> listed = Await.result(sessions.list(user));

    assertEquals(Sessions.MAX_SESSIONS_PER_USER, listed.size());
    Set<String> listedIds = listed.stream().map(SessionInfo::id).collect(Collectors.toSet());
    assertFalse(listedIds.contains(oldest.sessionId()), "the oldest session was dropped");
    assertEquals(new HashSet<>(pairs.subList(1, pairs.size()).stream().map(TokenPair::sessionId)
        .collect(Collectors.toList())), listedIds);
    assertEquals(newest.sessionId(), listed.get(0).id());
    assertFalse(active(oldest));
    assertRefused(sessions.refresh(oldest.refreshToken()), "refresh_token_invalid");
    assertTrue(active(newest));
    Await.result(sessions.refresh(newest.refreshToken()));
    awaitRevocationNotice(user, Set.of(oldest.sessionId()));
  }

  @Test
  @DisplayName("opening a session for a non-positive user id is refused")
  void openRefusesBadUser() {
    assertRefused(sessions.open(0, "phone"), "validation_failed");
    assertRefused(sessions.open(-1, "phone"), "validation_failed");
  }

  @Test
  @DisplayName("a session that was never opened is not active")
  void unknownSessionInactive() {
    assertFalse(Await.result(sessions.isActive(KithTestKit.newUserId(), "never-opened")));
  }

  @Test
  @DisplayName("a revocation announced by another node clears this node's cached answer at once")
  void revocationNoticeClearsCache() {
    TokenPair pair = Await.result(KithTestKit.newSession(platform));
    assertTrue(active(pair));
    // another node revoked it: its key is gone from Redis and it published the notice
    Await.result(platform.redisApi().del(List.of("sess:{u:" + pair.userId() + "}:s:" + pair.sessionId())));
    assertTrue(active(pair), "the answer is cached for a few seconds without a notice");

    vertx.eventBus().publish(Addresses.SESSIONS_REVOKED,
        new JsonObject().put("user", pair.userId()).put("sessions", new JsonArray().add(pair.sessionId())));

    Await.result(Poll.until(vertx, Duration.ofSeconds(5), "the cached answer to be dropped",
        () -> sessions.isActive(pair.userId(), pair.sessionId()).map(alive -> !alive)));
  }
}
