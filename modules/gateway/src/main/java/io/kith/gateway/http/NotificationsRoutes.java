package io.kith.gateway.http;

import io.kith.notifications.api.Notifications;
import io.kith.notifications.api.NotificationsService;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.validation.RequestParameter;

import java.util.ArrayList;
import java.util.List;

/**
 * HTTP operations of the notifications domain: the caller's list (filtered and paged), the grouped view, unread
 * counts, mark read and delete (by ids, all, or condition) and preferences. There is no way to name another user's
 * notifications: every operation acts on the token's user, and the service ignores ids that are not theirs.
 */
public final class NotificationsRoutes implements ApiRoutes {

  private final NotificationsService notifications;

  /** Creates the routes over the notifications service proxy. */
  public NotificationsRoutes(NotificationsService notifications) {
    this.notifications = notifications;
  }

  /**
   * One handler per operation of the contract. Why one long method: it is a table, a row per operation, which reads
   * best whole; each row only maps the request onto one service call.
   */
  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("listNotifications").addHandler(rc -> {
      JsonObject query = new JsonObject();
      types(rc, query);
      JsonObject where = new JsonObject();
      for (String field : Notifications.FIELDS) {
        RequestParameter p = param(rc, field);
        if (p != null) {
          where.put(field, p.getLong());
        }
      }
      RequestParameter unread = param(rc, Notifications.UNREAD);
      if (unread != null) {
        where.put(Notifications.UNREAD, unread.getBoolean());
      }
      if (!where.isEmpty()) {
        query.put("where", where);
      }
      // the page comes encoded: it crosses the event bus uncopied and is written as it is (issue 25)
      Http.replyEncoded(rc, notifications.listJson(me(rc), query, Paging.byId(rc)));
    });
    builder.getRoute("listGroupedNotifications").addHandler(rc -> {
      JsonObject query = new JsonObject();
      types(rc, query);
      Paging.reply(rc, notifications.grouped(me(rc), query, Paging.byId(rc)));
    });
    builder.getRoute("getUnreadNotificationCounts").addHandler(rc ->
        Http.reply(rc, notifications.unreadCounts(me(rc)), json -> json));
    builder.getRoute("markNotificationsRead").addHandler(rc -> {
      JsonObject body = Http.body(rc);
      int modes = (body.containsKey("ids") ? 1 : 0) + (Boolean.TRUE.equals(body.getBoolean("all")) ? 1 : 0)
          + (body.containsKey("types") || body.containsKey("where") ? 1 : 0);
      if (modes != 1) {
        rc.fail(Failures.field(KithErrors.VALIDATION_FAILED, "ids",
            "give exactly one of ids, all: true, or a condition (types and/or where)"));
      } else if (body.containsKey("ids")) {
        Http.reply(rc, notifications.markRead(me(rc), ids(body)), json -> json);
      } else if (body.containsKey("all")) {
        Http.reply(rc, notifications.markAllRead(me(rc)), json -> json);
      } else {
        Http.reply(rc, notifications.markReadWhere(me(rc), condition(body)), json -> json);
      }
    });
    builder.getRoute("deleteNotifications").addHandler(rc -> {
      JsonObject body = Http.body(rc);
      boolean byIds = body.containsKey("ids");
      boolean byCondition = body.containsKey("types") || body.containsKey("where");
      if (byIds == byCondition) {
        rc.fail(Failures.field(KithErrors.VALIDATION_FAILED, "ids",
            "give either ids or a condition (types and/or where)"));
      } else if (byIds) {
        Http.reply(rc, notifications.delete(me(rc), ids(body)), json -> json);
      } else {
        Http.reply(rc, notifications.deleteWhere(me(rc), condition(body)), json -> json);
      }
    });
    builder.getRoute("getNotificationPreferences").addHandler(rc ->
        Http.reply(rc, notifications.preferences(me(rc)), json -> json));
    builder.getRoute("setNotificationPreferences").addHandler(rc ->
        Http.reply(rc, notifications.setPreferences(me(rc), Http.body(rc)), json -> json));
    builder.getRoute("muteUserNotifications").addHandler(rc ->
        Http.reply(rc, notifications.muteUser(me(rc), userId(rc)), json -> json));
    builder.getRoute("unmuteUserNotifications").addHandler(rc ->
        Http.reply(rc, notifications.unmuteUser(me(rc), userId(rc)), json -> json));
  }

  /**
   * The {@code types} query parameter (comma-separated in the URL, a list of known types once validated by the
   * contract); the service checks the names again.
   */
  private static void types(RoutingContext rc, JsonObject query) {
    RequestParameter p = param(rc, "types");
    if (p != null) {
      query.put("types", p.getJsonArray());
    }
  }

  private static JsonObject condition(JsonObject body) {
    JsonObject c = new JsonObject();
    if (body.containsKey("types")) {
      c.put("types", body.getValue("types"));
    }
    if (body.containsKey("where")) {
      c.put("where", body.getValue("where"));
    }
    return c;
  }

  private static List<Long> ids(JsonObject body) {
    JsonArray array = body.getJsonArray("ids", new JsonArray());
    List<Long> ids = new ArrayList<>(array.size());
    array.forEach(id -> ids.add(((Number) id).longValue()));
    return ids;
  }

  private static RequestParameter param(RoutingContext rc, String name) {
    RequestParameter p = Http.validated(rc).getQuery().get(name);
    return p == null || p.isNull() ? null : p;
  }

  private static long me(RoutingContext rc) {
    return Http.caller(rc).userId();
  }

  private static long userId(RoutingContext rc) {
    return Http.validated(rc).getPathParameters().get("userId").getLong();
  }
}
