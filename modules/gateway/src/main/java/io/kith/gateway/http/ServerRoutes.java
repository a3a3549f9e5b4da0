package io.kith.gateway.http;

import io.kith.accounts.api.AccountsErrors;
import io.kith.accounts.api.AccountsService;
import io.kith.platform.error.Failures;
import io.kith.push.api.SystemNotificationsService;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.openapi.router.RouterBuilder;

import java.util.List;

/**
 * Server-to-server HTTP operations ({@code /api/v1/server/...}) for the app's own backend, authenticated by an API
 * key with the operation's scope ({@link ApiKeyAuth}) instead of a user's token: reading public data of users, and
 * system notifications and announcements (whose scope the push module checks, as it depends on the request).
 */
public final class ServerRoutes implements ApiRoutes {

  private final AccountsService accounts;
  private final SystemNotificationsService system;

  /** Creates the routes over the service proxies they call. */
  public ServerRoutes(AccountsService accounts, SystemNotificationsService system) {
    this.accounts = accounts;
    this.system = system;
  }

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("serverSendNotifications").addHandler(rc ->
        system.send(ApiKeyAuth.key(rc), Http.body(rc)).onComplete(ar -> {
          if (ar.failed()) {
            rc.fail(ar.cause());
          } else {
            // an announcement is accepted, told in the background; listed users are told when this answers
            Http.send(rc, ar.result().containsKey("announcement") ? 202 : 200, ar.result());
          }
        }));
    builder.getRoute("serverGetUser").addHandler(rc -> {
      long id = Http.validated(rc).getPathParameters().get("userId").getLong();
      // no viewer: the public summary anyone sees
      Http.reply(rc, accounts.summaries(0, List.of(id)).compose(found -> {
        JsonObject user = found.getJsonObject(Long.toString(id));
        return user != null ? io.vertx.core.Future.succeededFuture(user)
            : Failures.fail(AccountsErrors.USER_NOT_FOUND, "no user " + id);
      }), json -> json);
    });
  }
}
