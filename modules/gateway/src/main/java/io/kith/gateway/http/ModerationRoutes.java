package io.kith.gateway.http;

import io.kith.moderation.api.ModerationService;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.validation.RequestParameter;

import java.util.List;

/**
 * HTTP operations of moderation: anyone's reports and role, and the operator routes under {@code /api/v1/admin}
 * (the queue, decisions, content by id, roles, the audit log). Whether the caller may use an operator route is decided by the
 * moderation service from the token's user, like every other rule.
 */
public final class ModerationRoutes implements ApiRoutes {

  static final List<String> QUEUE_FILTERS =
      List.of("state", "category", "target_type", "target_id", "assignee", "older_than");
  static final List<String> AUDIT_FILTERS = List.of("action", "actor", "target_id");

  private final ModerationService moderation;

  /** Creates the routes over the moderation service proxy. */
  public ModerationRoutes(ModerationService moderation) {
    this.moderation = moderation;
  }

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("getMyRole").addHandler(rc -> Http.reply(rc, moderation.myRole(me(rc)), json -> json));
    builder.getRoute("fileReport").addHandler(rc -> Http.replyCreated(rc, moderation.fileReport(me(rc),
        Http.body(rc))));
    builder.getRoute("listMyReports").addHandler(rc -> Paging.reply(rc, moderation.myReports(me(rc),
        Paging.byId(rc))));
    builder.getRoute("listModerationReports").addHandler(rc -> Paging.reply(rc, moderation.queue(me(rc),
        filters(rc, QUEUE_FILTERS), Paging.byId(rc))));
    builder.getRoute("listReportedTargets").addHandler(rc -> Http.reply(rc, moderation.queueByTarget(me(rc),
        filters(rc, QUEUE_FILTERS)), json -> json));
    builder.getRoute("getModerationReport").addHandler(rc -> Http.reply(rc, moderation.report(me(rc),
        id(rc, "reportId")), json -> json));
    builder.getRoute("assignReport").addHandler(rc -> Http.reply(rc, moderation.assign(me(rc), id(rc, "reportId"),
        Http.body(rc).getLong("assignee", 0L)), json -> json));
    builder.getRoute("decideReport").addHandler(rc -> Http.reply(rc, moderation.decide(me(rc), id(rc, "reportId"),
        Http.body(rc)), json -> json));
    builder.getRoute("findUserForModeration").addHandler(rc -> Http.reply(rc, moderation.userOverviewByUsername(
        me(rc), Http.validated(rc).getQuery().get("username").getString()), json -> json));
    builder.getRoute("getUserModerationRecord").addHandler(rc -> Http.reply(rc, moderation.userOverview(me(rc),
        id(rc, "userId")), json -> json));
    builder.getRoute("getModerationSummary").addHandler(rc -> Http.reply(rc, moderation.summary(me(rc)),
        json -> json));
    builder.getRoute("setUserRole").addHandler(rc -> Http.reply(rc, moderation.setRole(me(rc), id(rc, "userId"),
        Http.body(rc).getString("role")), json -> json));
    builder.getRoute("warnUser").addHandler(rc -> sanction(rc, "warn"));
    builder.getRoute("suspendUser").addHandler(rc -> sanction(rc, "suspend"));
    builder.getRoute("unsuspendUser").addHandler(rc -> sanction(rc, "unsuspend"));
    builder.getRoute("limitUser").addHandler(rc -> sanction(rc, "limit"));
    builder.getRoute("unlimitUser").addHandler(rc -> sanction(rc, "unlimit"));
    builder.getRoute("fileAppeal").addHandler(rc -> Http.replyCreated(rc, moderation.fileAppeal(me(rc),
        Http.body(rc))));
    builder.getRoute("appealSuspension").addHandler(rc -> Http.replyCreated(rc, moderation.appealSuspension(
        Http.body(rc))));
    builder.getRoute("listAppeals").addHandler(rc -> Paging.reply(rc, moderation.appeals(me(rc),
        filters(rc, List.of("state")), Paging.byId(rc))));
    builder.getRoute("decideAppeal").addHandler(rc -> Http.reply(rc, moderation.decideAppeal(me(rc),
        id(rc, "appealId"), Http.body(rc)), json -> json));
    builder.getRoute("getModeratedContent").addHandler(rc -> Http.reply(rc, moderation.content(me(rc),
        Http.validated(rc).getPathParameters().get("type").getString(), id(rc, "id")), json -> json));
    builder.getRoute("listAuditLog").addHandler(rc -> Paging.reply(rc, moderation.audit(me(rc),
        filters(rc, AUDIT_FILTERS), Paging.byId(rc))));
  }

  private void sanction(RoutingContext rc, String kind) {
    Http.reply(rc, moderation.sanction(me(rc), id(rc, "userId"), kind, Http.body(rc)), json -> json);
  }

  private static long me(RoutingContext rc) {
    return Http.caller(rc).userId();
  }

  private static long id(RoutingContext rc, String name) {
    return Http.validated(rc).getPathParameters().get(name).getLong();
  }

  // the validated query parameters among names, with the type the contract gives them
  private static JsonObject filters(RoutingContext rc, List<String> names) {
    JsonObject filter = new JsonObject();
    for (String name : names) {
      RequestParameter p = Http.validated(rc).getQuery().get(name);
      if (p != null && !p.isNull()) {
        filter.put(name, p.get());
      }
    }
    return filter;
  }
}
