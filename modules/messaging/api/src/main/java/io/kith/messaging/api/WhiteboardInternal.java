package io.kith.messaging.api;

import io.kith.platform.bus.ServiceProxies;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * The whiteboard operations that only the gateway's bridge machinery calls, apart from {@link WhiteboardService}:
 * room access, which trusts its caller to name the registering user. Bound by the messaging module at
 * {@link #ADDRESS}, which no bridge lets a client send to; the gateway's HTTP routes never see this interface (an
 * architecture test keeps it so).
 */
@ProxyGen
@VertxGen
public interface WhiteboardInternal {

  /** Event-bus address of the internal operations. */
  String ADDRESS = "kith.messaging.boards.internal";

  /** A proxy to the internal operations (on any node of the cluster that runs messaging). */
  @GenIgnore
  static WhiteboardInternal proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, WhiteboardInternal.class, ADDRESS);
  }

  /**
   * Whether {@code userId} may listen on room {@code roomId}: for a board room {@code "b<boardId>"}, whether the user
   * is a member of the board now. Unknown or malformed rooms answer false. Called by the gateway when a bridge client
   * registers on a room address.
   */
  Future<Boolean> mayListen(long userId, String roomId);
}
