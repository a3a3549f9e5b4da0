package io.kith.gateway.http;

import io.kith.accounts.api.AccountsService;
import io.kith.platform.page.Page;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.validation.RequestParameter;
import io.vertx.openapi.validation.ValidatedRequest;

import java.util.ArrayList;
import java.util.List;

/** HTTP operations of the accounts domain: registration, login, profiles, finding people, presence, nearby. */
public final class AccountsRoutes implements ApiRoutes {

  private final AccountsService accounts;
  private final ClientAddress clientAddress;

  /** Creates the routes over the accounts service proxy. */
  public AccountsRoutes(AccountsService accounts, ClientAddress clientAddress) {
    this.accounts = accounts;
    this.clientAddress = clientAddress;
  }

  /**
   * One handler per operation of the contract. Why one long method: it is a table, a row per operation, which reads
   * best whole; each row only maps the request onto one service call.
   */
  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("register").addHandler(rc ->
        accounts.register(withLocale(rc, Http.body(rc)), clientAddress.of(rc)).onComplete(ar -> {
          if (ar.succeeded()) {
            Http.send(rc, 201, ar.result());
          } else {
            rc.fail(ar.cause());
          }
        }));
    builder.getRoute("login").addHandler(rc ->
        Http.reply(rc, accounts.login(Http.body(rc), clientAddress.of(rc)), json -> json));
    builder.getRoute("changePassword").addHandler(rc -> {
      JsonObject body = Http.body(rc);
      Http.replyEmpty(rc, accounts.changePassword(Http.caller(rc).userId(), body.getString("current_password"),
          body.getString("new_password")));
    });
    builder.getRoute("changeUsername").addHandler(rc -> {
      JsonObject body = Http.body(rc);
      Http.reply(rc, accounts.changeUsername(Http.caller(rc).userId(), body.getString("username"),
          body.getString("password")), json -> json);
    });
    mountVerification(builder);
    mountDeletion(builder);
    mountExport(builder);
    builder.getRoute("getOwnProfile").addHandler(rc -> {
      long me = Http.caller(rc).userId();
      Http.reply(rc, accounts.profile(me, me), json -> json);
    });
    builder.getRoute("updateOwnProfile").addHandler(rc ->
        Http.reply(rc, accounts.updateProfile(Http.caller(rc).userId(), Http.body(rc)), json -> json));
    builder.getRoute("getProfile").addHandler(rc ->
        Http.reply(rc, accounts.profile(Http.caller(rc).userId(), longParam(rc, "userId")), json -> json));
    builder.getRoute("lookupUsers").addHandler(rc -> {
      List<Long> ids = new ArrayList<>();
      Http.validated(rc).getQuery().get("ids").getJsonArray().forEach(id -> ids.add(((Number) id).longValue()));
      Http.reply(rc, accounts.users(Http.caller(rc).userId(), ids), json -> json);
    });
    builder.getRoute("findByUsername").addHandler(rc ->
        Http.reply(rc, accounts.findByUsername(Http.caller(rc).userId(), Http.pathParam(rc, "username")), json -> json));
    builder.getRoute("lookupContacts").addHandler(rc ->
        Http.reply(rc, accounts.findByContacts(Http.caller(rc).userId(), Http.body(rc)), json -> json));
    builder.getRoute("searchPeople").addHandler(rc -> {
      Paging.reply(rc, accounts.searchByNickname(Http.caller(rc).userId(), query(Http.validated(rc), "prefix"),
          Paging.byCursor(rc)), "after");
    });
    builder.getRoute("setPresenceMode").addHandler(rc ->
        Http.reply(rc, accounts.setPresenceMode(Http.caller(rc).userId(), Http.body(rc).getString("mode")), j -> j));
    builder.getRoute("queryPresence").addHandler(rc -> {
      List<Long> ids = new ArrayList<>();
      Http.body(rc).getJsonArray("ids", new JsonArray()).forEach(id -> ids.add(((Number) id).longValue()));
      Http.reply(rc, accounts.presence(Http.caller(rc).userId(), ids), json -> json);
    });
    builder.getRoute("reportPosition").addHandler(rc -> {
      JsonObject body = Http.body(rc);
      Http.replyEmpty(rc, accounts.reportPosition(Http.caller(rc).userId(), body.getDouble("lat"),
          body.getDouble("lon")));
    });
    builder.getRoute("nearbyPeople").addHandler(rc -> {
      ValidatedRequest req = Http.validated(rc);
      JsonObject query = new JsonObject();
      for (String name : List.of("lat", "lon", "radius_km", "limit")) {
        RequestParameter p = req.getQuery().get(name);
        if (p != null && !p.isNull()) {
          query.put(name, p.get());
        }
      }
      // the list pages by offset: its cursor is the offset of the next page
      long offset = Paging.number(rc);
      if (offset != 0) {
        query.put("offset", offset);
      }
      RequestParameter interests = req.getQuery().get("interest");
      if (interests != null && !interests.isNull()) {
        query.put("interests", interests.getJsonArray());
      }
      Paging.reply(rc, accounts.nearby(Http.caller(rc).userId(), query).map(json -> Page.of("items", json)),
          "offset");
    });
  }

  /** Verifying an email or phone, and resetting a forgotten password with a code. */
  private void mountVerification(RouterBuilder builder) {
    builder.getRoute("startVerification").addHandler(rc ->
        accounts.startVerification(Http.caller(rc).userId(), Http.body(rc).getString("channel"), acceptLanguage(rc))
            .onComplete(ar -> sendOr(rc, 202, ar.succeeded() ? ar.result() : null, ar.cause())));
    builder.getRoute("confirmVerification").addHandler(rc -> {
      JsonObject body = Http.body(rc);
      Http.reply(rc, accounts.confirmVerification(Http.caller(rc).userId(), body.getString("channel"),
          body.getString("code")), json -> json);
    });
    builder.getRoute("confirmVerificationLink").addHandler(rc ->
        Http.reply(rc, accounts.confirmVerificationLink(Http.body(rc).getString("token")), json -> json));
    builder.getRoute("requestPasswordReset").addHandler(rc ->
        accounts.requestPasswordReset(Http.body(rc).getString("identifier"), clientAddress.of(rc), acceptLanguage(rc))
            .onComplete(ar -> sendOr(rc, 202, ar.succeeded() ? ar.result() : null, ar.cause())));
    builder.getRoute("confirmPasswordReset").addHandler(rc -> {
      JsonObject body = Http.body(rc);
      Http.replyEmpty(rc, accounts.confirmPasswordReset(body.getString("identifier"), body.getString("code"),
          body.getString("new_password")));
    });
  }

  private static void sendOr(RoutingContext rc, int status, JsonObject body, Throwable failure) {
    if (failure == null) {
      Http.send(rc, status, body);
    } else {
      rc.fail(failure);
    }
  }

  /**
   * Scheduling the deletion of one's account (by the password, or by a code mailed for it), and cancelling it with
   * the token a login answered.
   */
  private void mountDeletion(RouterBuilder builder) {
    builder.getRoute("deleteAccount").addHandler(rc -> {
      JsonObject body = Http.body(rc);
      long me = Http.caller(rc).userId();
      Http.reply(rc, body.containsKey("code") && !body.containsKey("password")
          ? accounts.requestDeletionByCode(me, body.getString("code"), acceptLanguage(rc))
          : accounts.requestDeletion(me, body.getString("password"), acceptLanguage(rc)), json -> json);
    });
    builder.getRoute("requestDeletionCode").addHandler(rc ->
        accounts.requestDeletionCode(Http.caller(rc).userId(), Http.body(rc).getString("channel"), acceptLanguage(rc))
            .onComplete(ar -> sendOr(rc, 202, ar.succeeded() ? ar.result() : null, ar.cause())));
    builder.getRoute("cancelDeletion").addHandler(rc -> {
      JsonObject body = Http.body(rc);
      Http.reply(rc, accounts.cancelDeletion(body.getString("deletion_token"), body.getString("device")), json -> json);
    });
  }

  /** Exporting one's data: asking, the status and list, and the download of a ready archive. */
  private void mountExport(RouterBuilder builder) {
    builder.getRoute("requestExport").addHandler(rc -> accounts.requestExport(Http.caller(rc).userId())
        .onComplete(ar -> sendOr(rc, 202, ar.succeeded() ? ar.result() : null, ar.cause())));
    builder.getRoute("listExports").addHandler(rc ->
        Http.reply(rc, accounts.exports(Http.caller(rc).userId()), json -> json));
    builder.getRoute("getExport").addHandler(rc ->
        Http.reply(rc, accounts.export(Http.caller(rc).userId(), longParam(rc, "exportId")), json -> json));
    builder.getRoute("downloadExport").addHandler(rc ->
        accounts.exportFile(Http.caller(rc).userId(), longParam(rc, "exportId")).onComplete(ar -> {
          if (ar.failed()) {
            rc.fail(ar.cause());
            return;
          }
          JsonObject file = ar.result();
          rc.response()
              .putHeader("Content-Type", "application/zip")
              .putHeader("Content-Disposition", "attachment; filename=\"" + file.getString("filename") + "\"")
              .putHeader("Cache-Control", "private, no-store")
              .putHeader("X-Content-Type-Options", "nosniff")
              // already compressed
              .putHeader("Content-Encoding", "identity")
              .sendFile(file.getString("path"))
              .onFailure(e -> {
                if (!rc.response().headWritten()) {
                  rc.fail(e); // the sweeper deleted the archive between the check and the read
                }
              });
        }));
  }

  private static String acceptLanguage(RoutingContext rc) {
    return rc.request().getHeader("Accept-Language");
  }

  /** The registration body with the Accept-Language header as its locale when it names none. */
  private static JsonObject withLocale(RoutingContext rc, JsonObject body) {
    String header = acceptLanguage(rc);
    return body.containsKey("locale") || header == null ? body : body.copy().put("locale", header);
  }

  private static long longParam(RoutingContext rc, String name) {
    return Http.validated(rc).getPathParameters().get(name).getLong();
  }

  private static String query(ValidatedRequest req, String name) {
    RequestParameter p = req.getQuery().get(name);
    return p == null || p.isNull() ? null : p.getString();
  }
}
