package io.kith.gateway.http;

import io.kith.moderation.api.ContentFiltersService;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;

/**
 * HTTP operations of the content filters under {@code /api/v1/admin/filters}; who may use them (admins change,
 * moderators read) is decided by the service from the token's user.
 */
public final class FilterRoutes implements ApiRoutes {

  private final ContentFiltersService filters;

  /** Creates the routes over the content filters service proxy. */
  public FilterRoutes(ContentFiltersService filters) {
    this.filters = filters;
  }

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("addContentFilter").addHandler(rc -> Http.replyCreated(rc, filters.add(me(rc),
        Http.body(rc))));
    builder.getRoute("listContentFilters").addHandler(rc -> Http.reply(rc, filters.list(me(rc)), json -> json));
    builder.getRoute("removeContentFilter").addHandler(rc -> Http.replyEmpty(rc, filters.remove(me(rc),
        Http.validated(rc).getPathParameters().get("filterId").getLong())));
  }

  private static long me(RoutingContext rc) {
    return Http.caller(rc).userId();
  }
}
