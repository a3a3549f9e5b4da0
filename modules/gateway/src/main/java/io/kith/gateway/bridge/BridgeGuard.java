package io.kith.gateway.bridge;

import io.kith.gateway.http.BearerAuth;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.token.AccessClaims;
import io.kith.platform.token.AccessTokens;
import io.kith.platform.token.Sessions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.bridge.BaseBridgeEvent;
import io.vertx.ext.bridge.BridgeEventType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

/**
 * The rules of both event-bus bridges (SockJS and TCP), decided per frame:
 *
 * <ul>
 *   <li>A connection is anonymous until a frame carries {@code headers.authorization = "Bearer <access token>"}
 *   (or the SockJS URL carries {@code ?access_token=}); the token must verify and its session be alive. The first
 *   valid token binds the connection to that user; a token of another user on the same connection is refused.
 *   Header names are compared ignoring case, as HTTP does.</li>
 *   <li>Anonymous frames are refused. A refused frame gets an {@value #DENIED} error; the connection stays open and
 *   usable. The error of a refused {@code send} carries the frame's {@code replyAddress} as its {@code address} (and
 *   that of a refused {@code register} the address it asked for), with {@code failureCode}, {@code failureType} and
 *   {@code message}, so a client matches it to the callback that waits (see {@link ErrorWriter}).</li>
 *   <li>A frame the bridge could not forward (a header name or value that HTTP does not allow, a SockJS reply address
 *   longer than 36 characters) gets {@value #INVALID_FRAME}; a registration on an address the connection already
 *   listens on gets {@value #ALREADY_REGISTERED}. Client mistakes are logged at most once per connection and kind,
 *   never per frame.</li>
 *   <li>When the access token that authenticated the connection expires, deliveries stop (SockJS: every delivery is
 *   withheld and one {@value #TOKEN_EXPIRED} error is sent; TCP, which reports no deliveries: the connection is
 *   closed) unless a frame with a fresh token of the same user arrived before; such a frame also resumes a SockJS
 *   connection's deliveries. Presence counts a connection only while its token lives.</li>
 *   <li>When the session of a token cannot be checked (the session store is unavailable, timed out or refused the
 *   request), the frame gets an {@value #UNAVAILABLE} error instead: the token may well be good, and the client
 *   should send the frame again a little later. A token that does not verify, or whose session has ended, is
 *   {@value #DENIED} as ever. A {@code ?access_token=} whose check met an unavailable store is checked again with
 *   the connection's next frame. Likewise a room registration whose owner could not answer (its {@link RoomAccess}
 *   failed with {@code unavailable}) gets {@value #UNAVAILABLE}.</li>
 *   <li>REGISTER is allowed only on the caller's own {@code kith.user.<id>} address, or on a room address that a
 *   {@link RoomAccess} grants. A room stays open to the connection until the user loses it: on a
 *   {@value Addresses#ROOMS_REVOKED} notice the guard stops delivering that room's messages to the user's connections
 *   (the RECEIVE of every room message is checked against the rooms the connection was granted), so a kicked member
 *   hears nothing more even though the bridge still holds the registration. The TCP bridge reports no RECEIVE: a TCP
 *   connection that loses a room it registered on is closed. Registering again asks anew.</li>
 *   <li>SEND and PUBLISH are allowed only to the inbound allow list ({@code bridge.inbound}). The verified user id is
 *   stamped in the {@value Addresses#SENDER_HEADER} header and a {@code sender} member of a JSON body is
 *   overwritten with it too. The forwarded headers are rebuilt from the client's: every header named (in any case)
 *   {@code authorization} or {@value Addresses#SENDER_HEADER}, or like a delivery option of the TCP bridge
 *   ({@code timeout}, {@code localOnly}, {@code codecName}), is dropped, then exactly one sender header is added.
 *   (The bridges turn headers into a case-insensitive multi-map whose first value wins, so replacing only the
 *   exact name would let {@code Kith-Sender} through.)</li>
 *   <li>When a session is revoked (logout, password change, refresh-token reuse), its connections are closed.</li>
 * </ul>
 *
 * <p>The frames of one connection are decided one after the other, in the order they arrived: a token check of one
 * frame may take a Redis round trip, and a frame must neither overtake it (a tokenless frame right after the
 * authenticating one would be refused as anonymous) nor be delivered out of order. At most {@value #MAX_PENDING}
 * frames of a connection wait for their decision; further frames are refused at once, so that a client flooding
 * token-bearing frames holds neither unbounded memory nor an unbounded queue of Redis round trips.
 *
 * <p>Why the rules stay in one class: every rule above decides on the same per-connection state
 * ({@link BridgeConnection}: the verified caller, its token's expiry timer, the rooms granted, the frames waiting in
 * order, the mistakes already logged), and each rule is a security decision that has to see all of it at once; split
 * across classes, that state would be changed by several owners. What needs none of it is apart: reading a frame's
 * headers ({@link FrameHeaders}) and the frame formats of the two bridges ({@link Bridges}).
 */
public final class BridgeGuard {

  private static final Logger LOG = LoggerFactory.getLogger(BridgeGuard.class);
  /** Frames of one connection that may wait for their decision; beyond, frames are refused at once. */
  static final int MAX_PENDING = 64;
  /** Error text of a refused frame: not authenticated, or not allowed. */
  public static final String DENIED = "access_denied";
  /** Error text of a frame that could not be decided because the session store is unavailable; send it again. */
  public static final String UNAVAILABLE = "unavailable";
  /** Error text of a frame the bridge cannot forward: a header name or value HTTP forbids, a too long reply address. */
  public static final String INVALID_FRAME = "invalid_frame";
  /** Error text of a registration on an address the connection already listens on. */
  public static final String ALREADY_REGISTERED = "address_already_registered";
  /** Error text sent when the token of a connection expired; deliveries resume with a frame bearing a fresh token. */
  public static final String TOKEN_EXPIRED = "token_expired";
  /** Longest reply address the SockJS bridge forwards (it refuses, and logs, longer ones itself). */
  private static final int MAX_REPLY_ADDRESS = 36;

  /**
   * Writes an error frame to one connection. The transport adds {@code failureCode} ({@link #failureCode}),
   * {@code failureType} and {@code message} (both the error text) when there is an address to answer on.
   */
  @FunctionalInterface
  public interface ErrorWriter {
    /**
     * @param error   the error text ({@value #DENIED}, {@value #UNAVAILABLE}, {@value #INVALID_FRAME},
     *                {@value #ALREADY_REGISTERED} or {@value #TOKEN_EXPIRED})
     * @param address the address the client waits on (the reply address of a refused send, the address of a refused
     *                registration), or null
     */
    void write(String error, String address);
  }

  /** The {@code failureCode} of an error text, an HTTP status as in the failures of the services. */
  public static int failureCode(String error) {
    switch (error) {
      case UNAVAILABLE:
        return 503;
      case INVALID_FRAME:
        return 400;
      case ALREADY_REGISTERED:
        return 409;
      case TOKEN_EXPIRED:
        return 401;
      default:
        return 403;
    }
  }

  /** What becomes of a frame, with the error text of a refusal. */
  private enum Verdict {
    ALLOWED(null), DENIED(BridgeGuard.DENIED), UNAVAILABLE(BridgeGuard.UNAVAILABLE),
    INVALID(INVALID_FRAME), DUPLICATE(ALREADY_REGISTERED),
    /** A room granted again on an address the bridge still listens on: nothing more to do, nothing to answer. */
    KEPT(null);

    final String error;

    Verdict(String error) {
      this.error = error;
    }
  }
  private final Vertx vertx;
  private final AccessTokens tokens;
  private final Sessions sessions;
  private final List<Pattern> inbound;
  private final RoomAccess rooms;
  private final Map<Object, BridgeConnection> connections = new ConcurrentHashMap<>();
  private final MessageConsumer<JsonObject> revocations;
  private final MessageConsumer<JsonObject> roomRevocations;
  /**
   * When each {@code "<user>:<room>"} was last revoked (ms, this node's clock), kept {@value #REVOKED_MEMORY_MS} ms:
   * a room grant whose check started before a revocation of it is not applied (the check may have read the
   * membership before the user lost it).
   */
  private final Map<String, Long> revokedAt = new ConcurrentHashMap<>();
  static final long REVOKED_MEMORY_MS = 60_000;
  private final ConnectionListener listener;
  /** The presence report in progress, or the last one. */
  private volatile Future<Void> lastHeartbeat = Future.succeededFuture();
  private final PauseClock pauses;
  private final AtomicInteger sparedIdle = new AtomicInteger();

  /**
   * @param inboundPatterns anchored regular expressions of addresses clients may send or publish to
   */
  public BridgeGuard(Vertx vertx, Sessions sessions, List<String> inboundPatterns, RoomAccess rooms) {
    this(vertx, sessions, inboundPatterns, rooms, ConnectionListener.NONE);
  }

  /**
   * @param inboundPatterns anchored regular expressions of addresses clients may send or publish to
   * @param listener        told when a connection is bound to a user and when it closes (presence)
   */
  public BridgeGuard(Vertx vertx, Sessions sessions, List<String> inboundPatterns, RoomAccess rooms,
                     ConnectionListener listener) {
    this.vertx = vertx;
    this.listener = listener;
    this.tokens = sessions.accessTokens();
    this.sessions = sessions;
    this.inbound = inboundPatterns.stream().map(Pattern::compile).toList();
    this.rooms = rooms;
    this.pauses = PauseClock.of(vertx);
    this.revocations = vertx.eventBus().consumer(Addresses.SESSIONS_REVOKED, msg -> closeRevoked(msg.body()));
    this.roomRevocations = vertx.eventBus().consumer(Addresses.ROOMS_REVOKED, msg -> revokeRooms(msg.body()));
  }

  /** The inbound allow list, for the bridges' own permitted-address options. */
  public List<Pattern> inbound() {
    return inbound;
  }

  /** Number of open bridge connections handled by this guard. */
  public int connectionCount() {
    return connections.size();
  }

  /** Number of distinct users with an authenticated, unexpired bridge connection on this guard. */
  public int userCount() {
    Set<Long> users = new HashSet<>();
    connections.values().forEach(conn -> {
      AccessClaims caller = conn.caller;
      if (caller != null && !isExpired(caller)) {
        users.add(caller.userId());
      }
    });
    return users.size();
  }

  /** The users with an authenticated connection here (a node-wide push such as the cluster resync goes to them). */
  public Set<Long> boundUsers() {
    Set<Long> users = new HashSet<>();
    connections.values().forEach(conn -> {
      AccessClaims caller = conn.caller;
      if (caller != null) {
        users.add(caller.userId());
      }
    });
    return users;
  }

  /**
   * Closes every bridge connection, so that a stopping node does not keep its clients for the whole shutdown grace
   * (a WebSocket never drains by itself) and they reconnect elsewhere at once.
   */
  public void closeAll() {
    connections.forEach((key, conn) -> {
      forget(key);
      conn.closer.run();
    });
  }

  /**
   * Reports the connections this guard holds, by user, to the listener (the presence heartbeat). While the previous
   * report is still running (accounts or its stores are slow) the tick is skipped: reports would otherwise pile up.
   */
  public void heartbeat() {
    if (!lastHeartbeat.isComplete()) {
      LOG.warn("Presence heartbeat skipped: the previous one is still running");
      return;
    }
    Map<Long, List<String>> byUser = new HashMap<>();
    connections.values().forEach(conn -> {
      AccessClaims caller = conn.caller;
      if (caller != null && !isExpired(caller)) {
        byUser.computeIfAbsent(caller.userId(), u -> new ArrayList<>()).add(conn.id);
      }
    });
    if (!byUser.isEmpty()) {
      lastHeartbeat = listener.alive(byUser);
    }
  }

  private void forget(Object key) {
    BridgeConnection conn = connections.remove(key);
    if (conn != null) {
      vertx.cancelTimer(conn.expiryTimer);
    }
    if (conn != null && conn.caller != null && !conn.lapsed) {
      listener.closed(conn.caller.userId(), conn.id);
    }
  }

  private void bind(BridgeConnection conn, AccessClaims claims) {
    boolean first = conn.caller == null || conn.lapsed;
    conn.caller = claims;
    conn.lapsed = false;
    if (first) {
      listener.bound(claims.userId(), conn.id);
    }
    // the latest token presented decides when deliveries end
    vertx.cancelTimer(conn.expiryTimer);
    long delay = Math.max(1, claims.expiresAt() * 1000 - System.currentTimeMillis());
    conn.expiryTimer = vertx.setTimer(delay, id -> expired(conn));
  }

  private static boolean isExpired(AccessClaims claims) {
    return claims.expiresAt() <= System.currentTimeMillis() / 1000;
  }

  /** The token of {@code conn} expired with no fresh one presented: stop its deliveries. */
  private void expired(BridgeConnection conn) {
    AccessClaims caller = conn.caller;
    if (caller == null || !isExpired(caller) || connections.get(conn.key) != conn) {
      return;
    }
    if (conn.receiveChecked) {
      // deliveries are withheld in mayReceive; tell the client once why. A connection that hears nothing is not
      // online either
      conn.lapsed = true;
      listener.closed(caller.userId(), conn.id);
      conn.errors.write(TOKEN_EXPIRED, null);
    } else {
      LOG.debug("Closing TCP bridge connection of user {}: access token expired", caller.userId());
      forget(conn.key);
      conn.closer.run();
    }
  }

  /** Stops listening for revocations. */
  public Future<Void> close() {
    return Future.all(revocations.unregister(), roomRevocations.unregister()).mapEmpty();
  }

  /**
   * Decides one bridge event.
   *
   * @param key        identity of the connection (the socket)
   * @param closer     closes the connection
   * @param queryToken token from the connection URL, or null
   * @param refuse     writes an error frame to the connection
   */
  public void handle(BaseBridgeEvent event, Object key, Runnable closer, String queryToken, ErrorWriter refuse) {
    handle(event, key, closer, queryToken, refuse, true);
  }

  /**
   * Decides one bridge event of a bridge that may not report RECEIVE events ({@code receiveChecked} false: the TCP
   * bridge); see {@link #handle(BaseBridgeEvent, Object, Runnable, String, ErrorWriter)}. Why one long method: one
   * short branch per event type, then the connection's queue of frames awaiting a decision, all over the same
   * connection state, so every type's rule is seen beside the others.
   */
  public void handle(BaseBridgeEvent event, Object key, Runnable closer, String queryToken, ErrorWriter refuse,
                     boolean receiveChecked) {
    BridgeEventType type = event.type();
    switch (type) {
      case SOCKET_CREATED:
        BridgeConnection created = new BridgeConnection(key, closer, refuse, receiveChecked, pauses.pausedNanos());
        connections.put(key, created);
        if (queryToken != null) {
          // the bridge reads the socket only once SOCKET_CREATED completes, and frames arriving before are lost:
          // complete at once and let the first frames wait for this check instead.
          // a bad URL token leaves the connection anonymous; its frames are refused until a good token comes. A URL
          // token that could not be checked (session store unavailable) is checked again with the next frame
          created.last = BearerAuth.authenticate(tokens, sessions, queryToken).onComplete(ar -> {
            if (ar.succeeded()) {
              if (created.caller == null) {
                bind(created, ar.result());
              }
            } else if (Failures.is(ar.cause(), KithErrors.UNAVAILABLE)) {
              created.urlTokenToRetry = queryToken;
            }
          });
        }
        event.complete(true);
        return;
      case SOCKET_CLOSED:
        forget(key);
        event.complete(true);
        return;
      case SOCKET_PING:
        BridgeConnection pinged = connections.get(key);
        if (pinged != null) {
          pinged.pausedSeen = pauses.pausedNanos();
        }
        event.complete(true);
        return;
      case SOCKET_IDLE:
        idle(event, key);
        return;
      case RECEIVE:
        event.complete(mayReceive(event, key));
        return;
      case SEND:
      case PUBLISH:
      case REGISTER:
      case UNREGISTER:
        BridgeConnection conn = connections.computeIfAbsent(key, k -> new BridgeConnection(k, closer, refuse, receiveChecked, 0));
        conn.pausedSeen = pauses.pausedNanos();
        String answerOn = FrameHeaders.answerAddress(event);
        if (conn.pending.incrementAndGet() > MAX_PENDING) {
          conn.pending.decrementAndGet();
          conn.mistake("too many frames awaiting a decision", "refused at once");
          refuse.write(DENIED, answerOn);
          return;
        }
        Future<Verdict> decision = conn.last.transform(previous -> authorize(event, conn)).otherwise(Verdict.DENIED);
        conn.last = decision;
        decision.onSuccess(verdict -> {
          conn.pending.decrementAndGet();
          if (verdict == Verdict.ALLOWED) {
            event.tryComplete(true);
          } else if (verdict.error != null) {
            // completing with false would make the bridge answer its own text ("rejected" on SockJS, "blocked by
            // bridgeEvent handler" on TCP) and failing would log an error for every refusal: answer the stable
            // text here and leave the event pending, so the bridge does nothing with the frame
            refuse.write(verdict.error, answerOn);
          }
        });
        return;
      default:
        event.complete(true);
    }
  }

  /**
   * The SockJS bridge found no ping within {@code bridge.ping-timeout-ms}. When this node was paused since the
   * connection's last frame, the missing pings are most likely unread in the socket (after SIGCONT the bridge's ping
   * checks of every connection fire before their pings are read, and closed every connection of a resumed node):
   * the close is spared once, leaving the event pending (completing it with false would send the client a
   * {@code rejected} error), and the bridge's next check decides on fresh pings. Else the connection closes.
   */
  private void idle(BaseBridgeEvent event, Object key) {
    BridgeConnection conn = connections.get(key);
    long paused = pauses.pausedNanos();
    if (conn != null && paused > conn.pausedSeen) {
      conn.pausedSeen = paused;
      sparedIdle.incrementAndGet();
      LOG.debug("Bridge connection {} looked idle after this node was paused: kept until the next ping check",
          conn.id);
      return;
    }
    event.complete(true);
  }

  /** How many idle closes were spared because this node had been paused (for tests and diagnosis). */
  int sparedIdle() {
    return sparedIdle.get();
  }

  /** Whether the guard tracks the connection {@code key}. */
  public boolean tracks(Object key) {
    return connections.containsKey(key);
  }

  /** Forgets a connection that closed, for bridges that report no SOCKET_CLOSED event (TCP). */
  public void closed(Object key) {
    forget(key);
  }

  /**
   * The verdict on one frame. Why one long method: the checks run in a fixed order (frame shape, headers, reply
   * address, token and session, then the address rules of the frame's type), and that order is the rule.
   */
  private Future<Verdict> authorize(BaseBridgeEvent event, BridgeConnection conn) {
    JsonObject raw = event.getRawMessage();
    if (raw == null) {
      return Future.succeededFuture(Verdict.DENIED);
    }
    FrameHeaders.Cleaned headers = FrameHeaders.clean(raw, conn);
    if (headers.refusal() != null) {
      return Future.succeededFuture(headers.refusal().equals(INVALID_FRAME) ? Verdict.INVALID : Verdict.DENIED);
    }
    JsonObject forwarded = headers.forwarded();
    Object replyAddress = raw.getValue("replyAddress");
    if (conn.receiveChecked && replyAddress instanceof String && ((String) replyAddress).length() > MAX_REPLY_ADDRESS) {
      conn.mistake("reply address over " + MAX_REPLY_ADDRESS + " characters", "use a UUID");
      return Future.succeededFuture(Verdict.INVALID);
    }
    String token = FrameHeaders.bearer(headers.credential());
    Future<AccessClaims> who;
    if (token != null) {
      who = BearerAuth.authenticate(tokens, sessions, token).compose(claims -> {
        AccessClaims bound = conn.caller;
        if (bound != null && bound.userId() != claims.userId()) {
          return Future.failedFuture("connection belongs to another user");
        }
        bind(conn, claims);
        return Future.succeededFuture(claims);
      });
    } else if (conn.caller != null && !isExpired(conn.caller)) {
      who = Future.succeededFuture(conn.caller);
    } else if (conn.caller == null && conn.urlTokenToRetry != null) {
      String urlToken = conn.urlTokenToRetry;
      who = BearerAuth.authenticate(tokens, sessions, urlToken).compose(claims -> {
        conn.urlTokenToRetry = null;
        if (conn.caller == null) {
          bind(conn, claims);
        }
        return Future.succeededFuture(claims);
      }, e -> {
        if (!Failures.is(e, KithErrors.UNAVAILABLE)) {
          conn.urlTokenToRetry = null;
        }
        return Future.failedFuture(e);
      });
    } else {
      who = Future.failedFuture("anonymous");
    }
    return who.transform(ar -> {
      if (ar.failed()) {
        // a session store that could not answer gave no verdict on the token: the client may send the frame again
        if (Failures.is(ar.cause(), KithErrors.UNAVAILABLE)) {
          return Future.succeededFuture(Verdict.UNAVAILABLE);
        }
        conn.mistake("frame without a valid token", "refused as " + DENIED);
        return Future.succeededFuture(Verdict.DENIED);
      }
      String address = raw.getString("address");
      boolean again = event.type() == BridgeEventType.REGISTER && address != null && conn.registered.contains(address);
      // a room lost since its registration is asked anew (the bridge still listens: only the grant changes)
      if (again && !(address.startsWith(Addresses.ROOM_PREFIX)
          && !conn.rooms.contains(address.substring(Addresses.ROOM_PREFIX.length())))) {
        conn.mistake("registration on an address already registered", "refused");
        return Future.succeededFuture(Verdict.DUPLICATE);
      }
      return decide(event, raw, forwarded, ar.result(), conn)
          .map(allowed -> {
            if (!allowed) {
              conn.mistake("frame not allowed", "refused as " + DENIED);
              return Verdict.DENIED;
            }
            if (again) {
              return Verdict.KEPT;
            }
            trackRegistration(event.type(), address, conn);
            return Verdict.ALLOWED;
          })
          // a room's owner that could not answer gave no verdict either: the client may register again
          .otherwise(e -> Failures.is(e, KithErrors.UNAVAILABLE) ? Verdict.UNAVAILABLE : Verdict.DENIED);
    });
  }

  private Future<Boolean> decide(BaseBridgeEvent event, JsonObject raw, JsonObject headers, AccessClaims caller,
                                 BridgeConnection conn) {
    String address = raw.getString("address");
    if (address == null) {
      return Future.succeededFuture(false);
    }
    switch (event.type()) {
      case REGISTER:
        if (address.equals(Addresses.user(caller.userId()))) {
          return Future.succeededFuture(true);
        }
        if (address.startsWith(Addresses.ROOM_PREFIX)) {
          String room = address.substring(Addresses.ROOM_PREFIX.length());
          long asked = System.currentTimeMillis();
          return rooms.mayListen(caller.userId(), room).map(granted -> {
            Long revoked = revokedAt.get(caller.userId() + ":" + room);
            if (granted && (revoked == null || revoked < asked)) {
              conn.rooms.add(room);
              return true;
            }
            return false;
          });
        }
        return Future.succeededFuture(false);
      case UNREGISTER:
        if (address.startsWith(Addresses.ROOM_PREFIX)) {
          conn.rooms.remove(address.substring(Addresses.ROOM_PREFIX.length()));
        }
        return Future.succeededFuture(true);
      case SEND:
      case PUBLISH:
        if (inbound.stream().noneMatch(p -> p.matcher(address).matches())) {
          return Future.succeededFuture(false);
        }
        headers.put(Addresses.SENDER_HEADER, Long.toString(caller.userId()));
        raw.put("headers", headers);
        Object body = raw.getValue("body");
        if (body instanceof JsonObject && ((JsonObject) body).containsKey("sender")) {
          ((JsonObject) body).put("sender", caller.userId());
        }
        event.setRawMessage(raw);
        return Future.succeededFuture(true);
      default:
        return Future.succeededFuture(false);
    }
  }

  private static void trackRegistration(BridgeEventType type, String address, BridgeConnection conn) {
    if (type == BridgeEventType.REGISTER) {
      conn.registered.add(address);
    } else if (type == BridgeEventType.UNREGISTER) {
      conn.registered.remove(address);
    }
  }

  /**
   * Whether a message on its way to a connection may be delivered: nothing once the connection's token expired, room
   * messages only while the room is granted.
   */
  private boolean mayReceive(BaseBridgeEvent event, Object key) {
    BridgeConnection conn = connections.get(key);
    AccessClaims caller = conn == null ? null : conn.caller;
    if (caller != null && isExpired(caller)) {
      return false;
    }
    JsonObject raw = event.getRawMessage();
    String address = raw == null ? null : raw.getString("address");
    if (address == null || !address.startsWith(Addresses.ROOM_PREFIX)) {
      return true;
    }
    return conn != null && conn.rooms.contains(address.substring(Addresses.ROOM_PREFIX.length()));
  }

  /** When {@code user} last lost {@code room} on this node (ms), if within the remembered time; else null. */
  Long revokedAt(long user, String room) {
    return revokedAt.get(user + ":" + room);
  }

  private void revokeRooms(JsonObject notice) {
    String room = notice.getString("room");
    JsonArray users = notice.getJsonArray("users", new JsonArray());
    if (room == null || users.isEmpty()) {
      return;
    }
    long now = System.currentTimeMillis();
    revokedAt.values().removeIf(at -> now - at > REVOKED_MEMORY_MS);
    Set<Long> lost = new HashSet<>();
    for (Object u : users) {
      if (u instanceof Number) {
        lost.add(((Number) u).longValue());
        revokedAt.put(((Number) u).longValue() + ":" + room, now);
      }
    }
    connections.forEach((key, conn) -> {
      AccessClaims caller = conn.caller;
      if (caller != null && lost.contains(caller.userId()) && conn.rooms.remove(room) && !conn.receiveChecked) {
        LOG.debug("Closing TCP bridge connection of user {}: lost room {}", caller.userId(), room);
        forget(key);
        conn.closer.run();
      }
    });
  }

  private void closeRevoked(JsonObject notice) {
    long user = notice.getLong("user", 0L);
    JsonArray list = notice.getJsonArray("sessions", new JsonArray());
    Set<Object> sids = Set.copyOf(list.getList());
    connections.forEach((key, conn) -> {
      AccessClaims caller = conn.caller;
      if (caller != null && caller.userId() == user && sids.contains(caller.sessionId())) {
        LOG.debug("Closing bridge connection of user {}: session revoked", user);
        forget(key);
        conn.closer.run();
      }
    });
  }
}
