package io.kith.gateway.http;

import io.kith.moderation.api.ModerationService;
import io.kith.platform.Platform;
import io.kith.platform.bus.NodeRollCall;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * {@code GET /api/v1/admin/system}: the running Kith at a glance for operators (the console's overview): the cluster's
 * members and what each node runs, each node's readiness checks and a few of its meters, from a roll call of the nodes
 * ({@link NodeRollCall}). Whether the caller may see it is decided by the moderation service (moderators and admins),
 * as for every other {@code /api/v1/admin} operation of a user's token.
 */
public final class OperatorRoutes implements ApiRoutes {

  /** Most a roll call waits for nodes that do not answer; the checks of a node take at most 2 s. */
  static final long ROLL_CALL_MS = 3_000;
  private static final long CHECK_TIMEOUT_MS = 2_000;

  private final ModerationService moderation;
  private final Platform platform;

  /** Creates the route over the moderation service proxy (the role check) and this node's platform. */
  public OperatorRoutes(ModerationService moderation, Platform platform) {
    this.moderation = moderation;
    this.platform = platform;
  }

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("getSystemOverview").addHandler(rc -> Http.reply(rc,
        moderation.requireOperator(Http.caller(rc).userId()).compose(role -> overview()), json -> json));
  }

  private Future<JsonObject> overview() {
    return members().compose(members -> NodeRollCall.call(platform.vertx(), members, ROLL_CALL_MS)
        .map(nodes -> new JsonObject()
            .put("time", System.currentTimeMillis())
            .put("clustered", platform.vertx().isClustered())
            .put("members", members)
            .put("nodes", new JsonArray(List.copyOf(nodes)))));
  }

  /**
   * How many nodes should answer: the member count of the cluster check (which the app adds on a clustered node),
   * else this node alone. A failing cluster check (a node cut off) counts one: the roll call shows who is reachable.
   */
  private Future<Integer> members() {
    Supplier<Future<?>> cluster = platform.readinessChecks().get("cluster");
    if (cluster == null) {
      return Future.succeededFuture(1);
    }
    return cluster.get().timeout(CHECK_TIMEOUT_MS, TimeUnit.MILLISECONDS)
        .map(data -> data instanceof JsonObject json ? json.getInteger("members", 1) : 1)
        .otherwise(1);
  }
}
