package io.kith.platform.bus;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;

/**
 * Tells whether a service address has a consumer on some node that answers, without calling the service: a message
 * carrying the {@link #PING_HEADER} header is answered by an inbound interceptor that every node installs (see
 * {@link #install}) before any handler sees it. No consumer anywhere fails at once with {@code NO_HANDLERS}; a node
 * whose event loop is stuck does not answer in time. The gateway's readiness uses it, so a gateway whose services run
 * on no node is not ready.
 */
public final class ServicePing {

  /** Header that marks a ping; its messages never reach a service. */
  public static final String PING_HEADER = "kith-ping";
  private static final String INSTALLED = "kith.platform.service-ping";

  private ServicePing() {
  }

  /** Installs the answering interceptor on {@code vertx}'s event bus (once per Vert.x instance). */
  public static void install(Vertx vertx) {
    if (vertx.sharedData().getLocalMap(INSTALLED).putIfAbsent("installed", true) != null) {
      return;
    }
    vertx.eventBus().addInboundInterceptor(delivery -> {
      if (delivery.message().headers().contains(PING_HEADER) && delivery.message().replyAddress() != null) {
        delivery.message().reply(null);
      } else {
        delivery.next();
      }
    });
  }

  /**
   * Succeeds when some node's consumer of {@code address} answers within {@code timeoutMs}; fails otherwise (with
   * {@code NO_HANDLERS} when it runs nowhere).
   */
  public static Future<Void> ping(Vertx vertx, String address, long timeoutMs) {
    return vertx.eventBus().request(address, null,
            new DeliveryOptions().addHeader(PING_HEADER, "1").setSendTimeout(timeoutMs))
        .mapEmpty();
  }

  /** Whether {@code failure} of {@link #ping} means that no node runs {@code address}. */
  public static boolean runsNowhere(Throwable failure) {
    return failure instanceof ReplyException
        && ((ReplyException) failure).failureType() == ReplyFailure.NO_HANDLERS;
  }
}
