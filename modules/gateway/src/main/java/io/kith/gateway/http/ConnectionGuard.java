package io.kith.gateway.http;

import io.kith.platform.error.Problem;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.PlatformHandler;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Guards HTTP connections of one gateway verticle instance before requests reach the router.
 *
 * <p>Header deadline: a connection must deliver complete request headers within {@code http.header-timeout-seconds}
 * of opening, or it is closed. The idle timeout cannot do this: a client sending a byte a second (slowloris) is never
 * idle. Vert.x hands over a request only once its headers are complete, which is when the deadline is lifted; the
 * request's own deadline ({@link RequestDeadline}) covers the body. Between HTTP/1.1 keep-alive requests the next
 * request's headers must be complete within {@code http.idle-seconds} of the previous response: Vert.x cannot tell
 * when the next request's first byte arrives, and a shorter deadline would close connections that a load balancer
 * keeps idle for reuse (it would then race the close and answer 502). HTTP/2 connections and upgraded WebSockets are
 * left to the idle timeout after their first request.
 *
 * <p>Invalid requests (a request line or headers over Vert.x's limits, a malformed request) are answered with
 * problem+json like every other error (414 {@code uri_too_long}, 431 {@code headers_too_large}, 400
 * {@code validation_failed}), and their connection closed.
 */
public final class ConnectionGuard {

  private final Vertx vertx;
  private final long headerTimeoutMs;
  private final long keepAliveMs;
  private final Map<HttpConnection, State> connections = new ConcurrentHashMap<>();

  // per connection: its pending header deadline (-1 = none) and how many of its requests are in progress
  private static final class State {
    long timer = -1;
    int active;
  }

  /**
   * A guard with a header deadline of {@code headerTimeoutMs} for a new connection (0 = none) and of
   * {@code keepAliveMs} after each response (0 = none).
   */
  public ConnectionGuard(Vertx vertx, long headerTimeoutMs, long keepAliveMs) {
    this.vertx = vertx;
    this.headerTimeoutMs = headerTimeoutMs;
    this.keepAliveMs = keepAliveMs;
  }

  /** The server's connection handler: starts the header deadline of a new connection. */
  public void opened(HttpConnection connection) {
    if (headerTimeoutMs <= 0) {
      return;
    }
    State state = new State();
    connections.put(connection, state);
    connection.closeHandler(v -> {
      State closed = connections.remove(connection);
      if (closed != null && closed.timer >= 0) {
        vertx.cancelTimer(closed.timer);
      }
    });
    arm(connection, state, headerTimeoutMs);
  }

  /** To call first in the server's request handler: the request's headers are complete. */
  public void headersRead(HttpServerRequest request) {
    State state = connections.get(request.connection());
    if (state != null) {
      state.active++;
      disarm(state);
    }
  }

  /**
   * A root handler of the router that starts the header deadline for the next request of a keep-alive connection
   * once no request of it is in progress. HTTP/2 and upgrade requests are left to the idle timeout (the connection
   * then no longer waits for request headers).
   */
  public PlatformHandler keepAliveDeadline() {
    return rc -> {
      HttpServerRequest request = rc.request();
      State state = connections.get(request.connection());
      if (state != null) {
        if (request.version() == HttpVersion.HTTP_2 || request.headers().contains(HttpHeaders.UPGRADE)) {
          connections.remove(request.connection());
        } else {
          rc.addEndHandler(ar -> {
            if (--state.active == 0 && ar.succeeded() && keepAliveMs > 0) {
              arm(request.connection(), state, keepAliveMs);
            }
          });
        }
      }
      rc.next();
    };
  }

  private void arm(HttpConnection connection, State state, long deadlineMs) {
    disarm(state);
    state.timer = vertx.setTimer(deadlineMs, id -> {
      if (state.timer == id) {
        state.timer = -1;
        connection.close();
      }
    });
  }

  private void disarm(State state) {
    if (state.timer >= 0) {
      vertx.cancelTimer(state.timer);
      state.timer = -1;
    }
  }

  /** The server's invalid-request handler: a problem+json answer, then the connection is closed. */
  public void invalid(HttpServerRequest request) {
    State state = connections.remove(request.connection());
    if (state != null) {
      disarm(state);
    }
    Throwable cause = request.decoderResult().cause();
    int status = cause instanceof TooLongHttpLineException ? 414
        : cause instanceof TooLongHttpHeaderException ? 431
        : cause instanceof TooLongFrameException ? 431 : 400;
    // no instance member: the request line may be what was too long or malformed
    Problem problem = FailureHandler.toProblem(null, status);
    request.response()
        .setStatusCode(status)
        .putHeader(HttpHeaders.CONTENT_TYPE, Problem.MEDIA_TYPE)
        .putHeader(HttpHeaders.CACHE_CONTROL, "no-store")
        .putHeader(HttpHeaders.CONNECTION, HttpHeaders.CLOSE)
        .end(problem.toJson(null).toBuffer())
        .onComplete(ar -> request.connection().close());
  }
}
