package io.kith.gateway.bridge;

import io.kith.platform.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServerOptions;
import io.vertx.core.net.NetSocket;
import io.vertx.ext.bridge.BridgeOptions;
import io.vertx.ext.bridge.PermittedOptions;
import io.vertx.ext.eventbus.bridge.tcp.TcpEventBusBridge;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.sockjs.SockJSBridgeOptions;
import io.vertx.ext.web.handler.sockjs.SockJSHandler;
import io.vertx.ext.web.handler.sockjs.SockJSHandlerOptions;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** Wires the SockJS bridge ({@code /eventbus}) and the TCP bridge to one {@link BridgeGuard}. */
public final class Bridges {

  /** Path of the SockJS bridge. */
  public static final String SOCKJS_PATH = "/eventbus/*";
  private static final String USER_ADDRESSES = Pattern.quote(Addresses.USER_PREFIX) + "[0-9]+";
  private static final String ROOM_ADDRESSES = Pattern.quote(Addresses.ROOM_PREFIX) + "[A-Za-z0-9_.:-]{1,128}";

  private Bridges() {
  }

  private static <T extends BridgeOptions> T permissions(T options, BridgeGuard guard) {
    guard.inbound().forEach(p -> options.addInboundPermitted(new PermittedOptions().setAddressRegex(p.pattern())));
    options.addOutboundPermitted(new PermittedOptions().setAddressRegex(USER_ADDRESSES));
    options.addOutboundPermitted(new PermittedOptions().setAddressRegex(ROOM_ADDRESSES));
    return options;
  }

  /**
   * Mounts the SockJS bridge on {@code router}, with a body handler limited to {@code bridge.max-frame} in front of
   * it: the XHR fallback transports ({@code xhr_send}, {@code jsonp_send}) read their frames from the request body.
   */
  public static void mountSockJs(Vertx vertx, Router router, BridgeGuard guard, JsonObject bridgeSection) {
    SockJSBridgeOptions options = permissions(new SockJSBridgeOptions(), guard)
        .setMaxHandlersPerSocket(bridgeSection.getInteger("max-handlers", 200))
        .setMaxAddressLength(200)
        .setPingTimeout(bridgeSection.getLong("ping-timeout-ms", 60_000L))
        .setReplyTimeout(bridgeSection.getLong("reply-timeout-ms", 30_000L));
    int maxFrame = bridgeSection.getInteger("max-frame", 65_536);
    SockJSHandlerOptions handlerOptions = new SockJSHandlerOptions()
        .setRegisterWriteHandler(false)
        .setMaxBytesStreaming(maxFrame);
    Router sockjs = SockJSHandler.create(vertx, handlerOptions).bridge(options, event ->
        guard.handle(event, event.socket(), () -> event.socket().close(), queryToken(event.socket().uri()),
            (error, address) -> event.socket().write(sockJsError(error, address))));
    // a WebSocket upgrade has no body: the body handler passes it through untouched
    router.route(SOCKJS_PATH).handler(BodyHandler.create(false).setBodyLimit(maxFrame).setHandleFileUploads(false));
    router.route(SOCKJS_PATH).subRouter(sockjs);
  }

  /**
   * Starts the TCP bridge on {@code bridge.tcp-port} (0 = off, the default) and {@code bridge.tcp-host} (loopback by
   * default). The bridge's frame parser buffers a frame of whatever length its 4-byte prefix declares before any
   * frame is authenticated, so anyone who can connect can make the node allocate without bound: open it only to
   * trusted networks.
   */
  public static Future<TcpEventBusBridge> startTcp(Vertx vertx, BridgeGuard guard, JsonObject bridgeSection) {
    int port = bridgeSection.getInteger("tcp-port", 0);
    if (port <= 0) {
      return Future.succeededFuture();
    }
    BridgeOptions options = permissions(new BridgeOptions(), guard);
    NetServerOptions server = new NetServerOptions().setIdleTimeout(bridgeSection.getInteger("idle-seconds", 300))
        .setTcpKeepAlive(true);
    return TcpEventBusBridge.create(vertx, options, server, event -> {
          NetSocket socket = event.socket();
          if (!guard.tracks(socket)) {
            // the TCP bridge emits no SOCKET_CREATED / SOCKET_CLOSED events: forget the connection when it closes
            socket.closeHandler(v -> guard.closed(socket));
          }
          guard.handle(event, socket, socket::close, null,
              (error, address) -> socket.write(lengthPrefixed(tcpError(error, address).toBuffer())), false);
        })
        .listen(port, bridgeSection.getString("tcp-host", "127.0.0.1"));
  }

  /**
   * The error frame of a refused SockJS frame, in the shape the SockJS bridge uses for its own errors
   * ({@code {"type":"err","body":<error>}}); with an address to answer on, also in the shape of its failed replies
   * ({@code address}, {@code failureCode}, {@code failureType}, {@code message}), which the official client hands to
   * the callback waiting on that address.
   */
  static Buffer sockJsError(String error, String address) {
    return answered(new JsonObject().put("type", "err").put("body", error), error, address).toBuffer();
  }

  /**
   * The error frame of a refused TCP frame, in the shape the TCP bridge uses
   * ({@code {"type":"err","message":<error>}}), with {@code address}, {@code failureCode} and {@code failureType}
   * when there is an address to answer on.
   */
  static JsonObject tcpError(String error, String address) {
    return answered(new JsonObject().put("type", "err"), error, address).put("message", error);
  }

  private static JsonObject answered(JsonObject frame, String error, String address) {
    if (address != null) {
      frame.put("address", address).put("failureCode", BridgeGuard.failureCode(error)).put("failureType", error)
          .put("message", error);
    }
    return frame;
  }

  private static Buffer lengthPrefixed(Buffer json) {
    return Buffer.buffer().appendInt(json.length()).appendBuffer(json);
  }

  static String queryToken(String uri) {
    if (uri == null) {
      return null;
    }
    int q = uri.indexOf('?');
    if (q < 0) {
      return null;
    }
    for (String pair : uri.substring(q + 1).split("&")) {
      if (pair.startsWith("access_token=")) {
        String value = URLDecoder.decode(pair.substring("access_token=".length()), StandardCharsets.UTF_8);
        return value.isEmpty() ? null : value;
      }
    }
    return null;
  }
}
