package io.kith.gateway.http;

import io.kith.platform.token.AccessClaims;
import io.kith.push.api.PushTargetsService;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * HTTP operations of push targets: register (for the token's session), list and remove the caller's own; the
 * caller's push preferences. The session
 * comes from the verified access token, never from the body, so a target always ends with the session that made it.
 */
public final class PushTargetsRoutes implements ApiRoutes {

  private final PushTargetsService targets;

  /** Creates the routes over the push-targets service proxy. */
  public PushTargetsRoutes(PushTargetsService targets) {
    this.targets = targets;
  }

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("registerPushTarget").addHandler(rc -> {
      AccessClaims caller = Http.caller(rc);
      Http.replyCreated(rc, targets.register(caller.userId(), caller.sessionId(), Http.body(rc)));
    });
    builder.getRoute("listPushTargets").addHandler(rc ->
        Http.reply(rc, targets.list(me(rc)), json -> json));
    builder.getRoute("deletePushTarget").addHandler(rc ->
        Http.replyEmpty(rc, targets.remove(me(rc), Http.validated(rc).getPathParameters().get("targetId").getLong())));
    builder.getRoute("getPushPreferences").addHandler(rc ->
        Http.reply(rc, targets.preferences(me(rc)), json -> json));
    builder.getRoute("setPushPreferences").addHandler(rc ->
        Http.reply(rc, targets.setPreferences(me(rc), Http.body(rc)), json -> json));
  }

  private static long me(RoutingContext rc) {
    return Http.caller(rc).userId();
  }
}
