package io.kith.gateway.http;

import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.PlatformHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * The access log ({@code http.access-log}): one line per request with the direct peer's address, the method, the
 * path, the status, the bytes sent, the duration and the request id ({@link RequestIds}). The query string is never logged: SockJS clients
 * carry their access token there ({@code /eventbus/...?access_token=}), and a log is no place for credentials.
 */
public final class AccessLog implements PlatformHandler {

  private static final Logger LOG = LoggerFactory.getLogger(AccessLog.class);

  @Override
  public void handle(RoutingContext rc) {
    long start = System.nanoTime();
    HttpServerRequest request = rc.request();
    SocketAddress peer = request.remoteAddress();
    String client = peer == null || peer.host() == null ? "-" : peer.host();
    String path = request.path() == null ? "-" : request.path();
    rc.addBodyEndHandler(v -> LOG.info("{} \"{} {}\" {} {} {} ms {}", client, request.method(), path,
        rc.response().getStatusCode(), rc.response().bytesWritten(),
        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start), RequestIds.of(rc)));
    rc.next();
  }
}
