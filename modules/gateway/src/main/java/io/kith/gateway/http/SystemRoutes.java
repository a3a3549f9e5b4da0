package io.kith.gateway.http;

import io.kith.platform.token.AccessClaims;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/** Operations that need no domain: ping and whoami (also the bench's baseline and authenticated routes). */
public final class SystemRoutes implements ApiRoutes {

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("ping").addHandler(rc ->
        Http.ok(rc, new JsonObject().put("pong", true).put("time", System.currentTimeMillis())));
    builder.getRoute("whoami").addHandler(rc -> {
      AccessClaims caller = Http.caller(rc);
      Http.ok(rc, new JsonObject().put("user_id", caller.userId()).put("session_id", caller.sessionId()));
    });
  }
}
