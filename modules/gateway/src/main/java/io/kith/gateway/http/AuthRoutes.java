package io.kith.gateway.http;

import io.kith.accounts.api.AccountsService;
import io.kith.platform.token.AccessClaims;
import io.kith.platform.token.SessionInfo;
import io.kith.platform.token.Sessions;
import io.kith.platform.token.TokenPair;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * Token refresh and session management. Login itself belongs to the accounts domain, which opens sessions through
 * the platform's {@link Sessions}; everything after login only needs the session store, except logging out everywhere,
 * which also makes accounts forget the caller's device tokens. The acting user is always the token's, so a caller can
 * only ever see or end their own sessions.
 */
public final class AuthRoutes implements ApiRoutes {

  private final Sessions sessions;
  private final AccountsService accounts;

  /** Creates the routes over the session store and the accounts service. */
  public AuthRoutes(Sessions sessions, AccountsService accounts) {
    this.sessions = sessions;
    this.accounts = accounts;
  }

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("refreshTokens").addHandler(rc ->
        Http.reply(rc, sessions.refresh(Http.body(rc).getString("refresh_token")), TokenPair::toJson));
    builder.getRoute("logout").addHandler(rc -> {
      AccessClaims caller = Http.caller(rc);
      Http.replyEmpty(rc, sessions.revoke(caller.userId(), caller.sessionId()));
    });
    builder.getRoute("logoutEverywhere").addHandler(rc ->
        Http.replyEmpty(rc, accounts.logoutEverywhere(Http.caller(rc).userId())));
    builder.getRoute("listSessions").addHandler(rc -> {
      AccessClaims caller = Http.caller(rc);
      Http.reply(rc, sessions.list(caller.userId()), list -> {
        JsonArray items = new JsonArray();
        for (SessionInfo s : list) {
          items.add(s.toJson().put("current", s.id().equals(caller.sessionId())));
        }
        return new JsonObject().put("items", items);
      });
    });
    builder.getRoute("revokeSession").addHandler(rc ->
        Http.replyEmpty(rc, sessions.revoke(Http.caller(rc).userId(), Http.pathParam(rc, "sessionId"))));
  }
}
