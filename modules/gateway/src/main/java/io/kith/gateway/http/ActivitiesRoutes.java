package io.kith.gateway.http;

import io.kith.activities.api.ActivitiesService;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.validation.RequestParameter;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * HTTP operations of the activities domain: create, read, edit and cancel an activity; invite; join and leave;
 * participants and removing one; the caller's organised and joined activities; upcoming public activities nearby and
 * activities friends joined: one operation per method of {@link ActivitiesService} but {@code visibleActivities},
 * which is for other domains. Every operation acts as the token's user; who may see, join or change what is decided
 * by the activities service, the same for every client.
 */
public final class ActivitiesRoutes implements ApiRoutes {

  /** Query parameters of each list operation, passed to the service as its {@code query} object when present. */
  static final List<String> PARTICIPANTS_QUERY = List.of("status", "limit", "cursor");
  static final List<String> OWN_QUERY = List.of("when", "limit", "cursor");
  static final List<String> NEARBY_QUERY = List.of("lat", "lon", "radius_km", "order", "limit", "cursor");
  static final List<String> FRIENDS_QUERY = List.of("limit", "cursor");

  private final ActivitiesService activities;

  /** Creates the routes over the activities service proxy. */
  public ActivitiesRoutes(ActivitiesService activities) {
    this.activities = activities;
  }

  @Override
  public void mount(RouterBuilder builder) {
    // organiser
    builder.getRoute("createActivity").addHandler(rc ->
        Http.replyCreated(rc, activities.create(me(rc), Http.body(rc))));
    builder.getRoute("updateActivity").addHandler(rc ->
        Http.reply(rc, activities.update(me(rc), id(rc, "activityId"), Http.body(rc)), json -> json));
    builder.getRoute("cancelActivity").addHandler(rc ->
        Http.reply(rc, activities.cancel(me(rc), id(rc, "activityId")), json -> json));
    builder.getRoute("inviteToActivity").addHandler(rc ->
        Http.reply(rc, activities.invite(me(rc), id(rc, "activityId"), ids(Http.body(rc).getJsonArray("users"))),
            json -> json));
    builder.getRoute("removeActivityParticipant").addHandler(rc ->
        Http.replyEmpty(rc, activities.removeParticipant(me(rc), id(rc, "activityId"), id(rc, "userId"))));

    // participants
    builder.getRoute("joinActivity").addHandler(rc ->
        Http.reply(rc, activities.join(me(rc), id(rc, "activityId")), json -> json));
    builder.getRoute("leaveActivity").addHandler(rc ->
        Http.reply(rc, activities.leave(me(rc), id(rc, "activityId")), json -> json));
    builder.getRoute("listActivityParticipants").addHandler(rc ->
        listed(rc, PARTICIPANTS_QUERY, (q, page) -> activities.participants(me(rc), id(rc, "activityId"), q, page)));

    // reading
    builder.getRoute("getActivity").addHandler(rc ->
        Http.reply(rc, activities.activity(me(rc), id(rc, "activityId")), json -> json));
    builder.getRoute("listOrganisedActivities").addHandler(rc ->
        listed(rc, OWN_QUERY, (q, page) -> activities.organised(me(rc), q, page)));
    builder.getRoute("listJoinedActivities").addHandler(rc ->
        listed(rc, OWN_QUERY, (q, page) -> activities.joined(me(rc), q, page)));
    builder.getRoute("listNearbyActivities").addHandler(rc ->
        listed(rc, NEARBY_QUERY, (q, page) -> activities.nearby(me(rc), q, page)));
    builder.getRoute("listFriendsActivities").addHandler(rc ->
        listed(rc, FRIENDS_QUERY, (q, page) -> activities.friendsActivities(me(rc), page)));
  }

  private static long me(RoutingContext rc) {
    return Http.caller(rc).userId();
  }

  private static long id(RoutingContext rc, String name) {
    return Http.validated(rc).getPathParameters().get(name).getLong();
  }

  /**
   * Replies with a page of a list: the query parameters {@code names} read as {@link #query} does, their
   * {@code limit} and {@code cursor} passed as the page request and the others as the list's filters.
   */
  private static void listed(RoutingContext rc, List<String> names,
                             BiFunction<JsonObject, PageRequest, Future<Page>> list) {
    JsonObject filters = query(rc, names);
    Integer limit = (Integer) filters.remove("limit");
    PageRequest page = new PageRequest(limit, 0, 0, (String) filters.remove("cursor"));
    Http.reply(rc, list.apply(filters, page), p -> page(p.toApiJson()));
  }

  /**
   * The given query parameters as the service reads them: {@code limit} an integer, coordinates and radius numbers,
   * the others strings. Absent ones are left out (the service applies its defaults).
   */
  private static JsonObject query(RoutingContext rc, List<String> names) {
    JsonObject query = new JsonObject();
    for (String name : names) {
      RequestParameter p = Http.validated(rc).getQuery().get(name);
      if (p == null || p.isNull()) {
        continue;
      }
      switch (name) {
        case "limit" -> query.put(name, p.getInteger());
        case "lat", "lon", "radius_km" -> query.put(name, p.getDouble());
        case "cursor" -> query.put(name, serviceCursor(p.getString()));
        default -> query.put(name, p.getString());
      }
    }
    return query;
  }

  /**
   * The service's cursor for an HTTP one. The service's cursors may hold a dot ({@code <start>.<id>}); over HTTP the
   * dot is an underscore, because the contract validator reads a query value such as {@code 1700000000000.42} as a
   * JSON number whatever the parameter's declared type, and refuses it (or would lose digits). Only values of word
   * characters stay strings.
   */
  static String serviceCursor(String http) {
    return http.replace('_', '.');
  }

  /** A page in the one shape of every list, with its {@code next_cursor} in the HTTP form (see {@link #serviceCursor}). */
  static JsonObject page(JsonObject page) {
    Object next = page.getValue(Page.NEXT_CURSOR);
    if (next instanceof String) {
      page.put(Page.NEXT_CURSOR, ((String) next).replace('.', '_'));
    }
    return page;
  }

  /** User ids of a validated body array (the contract admits only integer ids). */
  private static List<Long> ids(JsonArray array) {
    List<Long> ids = new ArrayList<>(array.size());
    for (Object id : array) {
      ids.add(((Number) id).longValue());
    }
    return ids;
  }
}
