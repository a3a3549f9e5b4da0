package io.kith.gateway.bridge;

import io.kith.platform.token.AccessClaims;
import io.vertx.core.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One bridge connection as {@link BridgeGuard} knows it: who it belongs to, how to close it, and what its rules have
 * decided so far. Only the guard changes it; the fields are volatile or concurrent because the bridges report events
 * of one connection from its event loop while revocations and timers reach the guard from others.
 */
final class BridgeConnection {

  private static final Logger LOG = LoggerFactory.getLogger(BridgeGuard.class);

  final Object key;
  final Runnable closer;
  final BridgeGuard.ErrorWriter errors;
  final String id = UUID.randomUUID().toString();
  volatile AccessClaims caller;
  /** The {@code ?access_token=} of the connection while its check met an unavailable session store. */
  volatile String urlTokenToRetry;
  /** The decision of the previous frame (or the URL token check); the next frame is decided after it. */
  Future<?> last = Future.succeededFuture();
  /** Frames received and not decided yet. */
  final AtomicInteger pending = new AtomicInteger();
  /** Addresses this connection registered on (allowed and not unregistered since). */
  final Set<String> registered = ConcurrentHashMap.newKeySet();
  /** Kinds of client mistakes already logged for this connection. */
  final Set<String> logged = ConcurrentHashMap.newKeySet();
  /** The timer that ends deliveries when the bound token expires, or -1. */
  volatile long expiryTimer = -1;
  /** Whether the bound token expired and presence was told the connection closed (until a fresh token). */
  volatile boolean lapsed;
  /** Room ids this connection registered on and was granted (and has not lost since). */
  final Set<String> rooms = ConcurrentHashMap.newKeySet();
  /**
   * Whether the bridge asks the guard before each delivery (RECEIVE): SockJS does, the TCP bridge does not, so a
   * TCP connection that loses a room it registered on is closed instead (the client reconnects without it).
   */
  final boolean receiveChecked;
  /** The node's pause total ({@link PauseClock}) at the last inbound frame, or when an idle close was spared. */
  volatile long pausedSeen;

  BridgeConnection(Object key, Runnable closer, BridgeGuard.ErrorWriter errors, boolean receiveChecked, long pausedSeen) {
    this.key = key;
    this.closer = closer;
    this.errors = errors;
    this.receiveChecked = receiveChecked;
    this.pausedSeen = pausedSeen;
  }

  /** Logs a client mistake the first time it happens on this connection, so a burst of bad frames logs one line. */
  void mistake(String kind, String detail) {
    if (logged.add(kind)) {
      AccessClaims who = caller;
      LOG.info("Bridge connection {} (user {}): {} ({}); further ones on this connection are not logged", id,
          who == null ? "anonymous" : who.userId(), kind, detail);
    }
  }
}
