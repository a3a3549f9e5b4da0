package io.kith.feeds.api;

import io.kith.platform.bus.ServiceProxies;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The feeds operations that only other domains call, apart from {@link FeedsService}: they answer for whichever
 * viewer the caller names. Bound by the feeds module at {@link #ADDRESS}, which no bridge lets a client send to; the
 * gateway's HTTP routes never see this interface (an architecture test keeps it so).
 */
@ProxyGen
@VertxGen
public interface FeedsInternal {

  /** Event-bus address of the internal operations. */
  String ADDRESS = "kith.feeds.internal";

  /** A proxy to the internal operations (on any node of the cluster that runs feeds). */
  @GenIgnore
  static FeedsInternal proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, FeedsInternal.class, ADDRESS);
  }

  /**
   * Which of up to 1,000 posts {@code viewer} may see, by the same rule as {@link FeedsService#post}:
   * {@code {items: [ids]}}.
   */
  Future<JsonObject> visiblePosts(long viewer, List<Long> postIds);
}
