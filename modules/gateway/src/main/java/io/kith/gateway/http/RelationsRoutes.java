package io.kith.gateway.http;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * HTTP operations of the relations domain: follows and follow requests, friends, circles (the service's friend
 * groups), contact tags, blocks, mutes, hides, and the caller's relationship to a batch of users. The acting user is always the token's; every rule
 * (privacy of tags and groups, silent blocks, limits) is decided by the relations service.
 */
public final class RelationsRoutes implements ApiRoutes {

  /**
   * Members of a relationship that the HTTP API does not show: whether the other user blocked the caller or hides
   * their posts from the caller. Both are silent to the caller; the service reports them for other domains only.
   */
  static final List<String> PRIVATE_FLAGS = List.of("blocked_by", "hidden_from");

  private final RelationsService relations;

  /** Creates the routes over the relations service proxy. */
  public RelationsRoutes(RelationsService relations) {
    this.relations = relations;
  }

  /**
   * One handler per operation of the contract. Why one long method: it is a table, a row per operation, which reads
   * best whole; each row only maps the request onto one service call.
   */
  @Override
  public void mount(RouterBuilder builder) {
    // follows
    builder.getRoute("followUser").addHandler(rc ->
        Http.reply(rc, relations.follow(me(rc), id(rc, "userId")), json -> json));
    builder.getRoute("unfollowUser").addHandler(rc ->
        Http.replyEmpty(rc, relations.unfollow(me(rc), id(rc, "userId"))));
    builder.getRoute("removeFollower").addHandler(rc ->
        Http.replyEmpty(rc, relations.removeFollower(me(rc), id(rc, "userId"))));
    builder.getRoute("listFollowers").addHandler(rc ->
        Paging.reply(rc, relations.followers(me(rc), id(rc, "userId"), Paging.byCursor(rc))));
    builder.getRoute("listFollowing").addHandler(rc ->
        Paging.reply(rc, relations.following(me(rc), id(rc, "userId"), Paging.byCursor(rc))));
    builder.getRoute("getRelationCounts").addHandler(rc ->
        Http.reply(rc, relations.countsFor(Http.caller(rc).userId(), id(rc, "userId")), json -> json));
    builder.getRoute("listFriends").addHandler(rc ->
        Paging.reply(rc, relations.friends(me(rc), Paging.byCursor(rc))));

    // follow requests
    builder.getRoute("listIncomingFollowRequests").addHandler(rc ->
        Paging.reply(rc, relations.incomingRequests(me(rc), Paging.byCursor(rc))));
    builder.getRoute("listOutgoingFollowRequests").addHandler(rc ->
        Paging.reply(rc, relations.outgoingRequests(me(rc), Paging.byCursor(rc))));
    builder.getRoute("acceptFollowRequest").addHandler(rc ->
        Http.replyEmpty(rc, relations.acceptRequest(me(rc), id(rc, "userId"))));
    builder.getRoute("rejectFollowRequest").addHandler(rc ->
        Http.replyEmpty(rc, relations.rejectRequest(me(rc), id(rc, "userId"))));

    // friend groups
    builder.getRoute("listCircles").addHandler(rc -> Http.reply(rc, relations.groups(me(rc)), json -> json));
    builder.getRoute("createCircle").addHandler(rc ->
        relations.createGroup(me(rc), Http.body(rc).getString("name")).onComplete(ar -> {
          if (ar.succeeded()) {
            Http.send(rc, 201, ar.result());
          } else {
            rc.fail(ar.cause());
          }
        }));
    builder.getRoute("renameCircle").addHandler(rc ->
        Http.reply(rc, relations.renameGroup(me(rc), id(rc, "circleId"), Http.body(rc).getString("name")), j -> j));
    builder.getRoute("deleteCircle").addHandler(rc ->
        Http.replyEmpty(rc, relations.deleteGroup(me(rc), id(rc, "circleId"))));
    builder.getRoute("listCircleMembers").addHandler(rc ->
        Paging.reply(rc, relations.groupMembers(me(rc), id(rc, "circleId"), Paging.byCursor(rc))));
    builder.getRoute("addCircleMembers").addHandler(rc ->
        Http.reply(rc, relations.addGroupMembers(me(rc), id(rc, "circleId"), ids(rc)), json -> json));
    builder.getRoute("removeCircleMembers").addHandler(rc ->
        Http.reply(rc, relations.removeGroupMembers(me(rc), id(rc, "circleId"), ids(rc)), json -> json));

    // contact tags
    builder.getRoute("listTags").addHandler(rc -> Http.reply(rc, relations.tags(me(rc)), json -> json));
    builder.getRoute("listTaggedUsers").addHandler(rc ->
        Paging.reply(rc, relations.taggedUsers(me(rc), Http.pathParam(rc, "tag"), Paging.byCursor(rc))));
    builder.getRoute("tagUser").addHandler(rc ->
        Http.replyEmpty(rc, relations.tagUser(me(rc), id(rc, "userId"), Http.pathParam(rc, "tag"))));
    builder.getRoute("untagUser").addHandler(rc ->
        Http.replyEmpty(rc, relations.untagUser(me(rc), id(rc, "userId"), Http.pathParam(rc, "tag"))));
    builder.getRoute("listTagsOnUser").addHandler(rc ->
        Http.reply(rc, relations.tagsOn(me(rc), id(rc, "userId")), json -> json));

    // blocks, mutes, hides: the same three operations each
    edgeRoutes(builder, "Blocks", "blockUser", "unblockUser", relations::blocks, relations::block,
        relations::unblock);
    edgeRoutes(builder, "Mutes", "muteUser", "unmuteUser", relations::mutes, relations::mute, relations::unmute);
    edgeRoutes(builder, "Hides", "hideFromUser", "unhideFromUser", relations::hides, relations::hide,
        relations::unhide);

    // the caller's relationship to many users
    builder.getRoute("queryRelationships").addHandler(rc ->
        Http.reply(rc, relations.relationships(me(rc), ids(rc)), RelationsRoutes::withoutPrivateFlags));
  }

  private interface PageOf {
    Future<Page> page(long actor, PageRequest page);
  }

  private void edgeRoutes(RouterBuilder builder, String listSuffix, String set, String clear, PageOf list,
                          BiFunction<Long, Long, Future<Void>> add, BiFunction<Long, Long, Future<Void>> remove) {
    builder.getRoute("list" + listSuffix).addHandler(rc ->
        Paging.reply(rc, list.page(me(rc), Paging.byCursor(rc))));
    builder.getRoute(set).addHandler(rc -> Http.replyEmpty(rc, add.apply(me(rc), id(rc, "userId"))));
    builder.getRoute(clear).addHandler(rc -> Http.replyEmpty(rc, remove.apply(me(rc), id(rc, "userId"))));
  }

  /**
   * The relationships map without the members that would reveal another user's silent choices, the service's
   * friend groups named {@code circles} as everywhere in the HTTP API.
   */
  static JsonObject withoutPrivateFlags(JsonObject byId) {
    JsonObject out = new JsonObject();
    for (Map.Entry<String, Object> entry : byId) {
      if (entry.getValue() instanceof JsonObject) {
        JsonObject r = ((JsonObject) entry.getValue()).copy();
        PRIVATE_FLAGS.forEach(r::remove);
        if (r.containsKey("groups")) {
          r.put("circles", r.remove("groups"));
        }
        out.put(entry.getKey(), r);
      }
    }
    return out;
  }

  private static long me(RoutingContext rc) {
    return Http.caller(rc).userId();
  }

  private static long id(RoutingContext rc, String name) {
    return Http.validated(rc).getPathParameters().get(name).getLong();
  }

  /** The validated {@code ids} array of the body (the contract bounds its size and values). */
  private static List<Long> ids(RoutingContext rc) {
    JsonArray array = Http.body(rc).getJsonArray("ids", new JsonArray());
    List<Long> ids = new ArrayList<>(array.size());
    array.forEach(id -> ids.add(((Number) id).longValue()));
    return ids;
  }
}
