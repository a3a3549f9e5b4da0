package io.kith.gateway.http;

import io.kith.messaging.api.WhiteboardService;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.validation.RequestParameter;

import java.util.ArrayList;
import java.util.List;

/**
 * HTTP operations of whiteboards: create, list, read and delete boards, page a board's strokes (a late joiner), draw
 * and clear, and change an ad-hoc board's members. Every operation acts as the token's user; who may read or draw is
 * decided by the service, the same as for bridge clients.
 */
public final class WhiteboardRoutes implements ApiRoutes {

  private final WhiteboardService boards;

  /** Creates the routes over the whiteboard service proxy. */
  public WhiteboardRoutes(WhiteboardService boards) {
    this.boards = boards;
  }

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("createBoard").addHandler(rc -> Http.replyCreated(rc, boards.create(me(rc), Http.body(rc))));
    builder.getRoute("listBoards").addHandler(rc ->
        Paging.reply(rc, boards.boards(me(rc), query(rc, "group"), Paging.byCursor(rc)), "before"));
    builder.getRoute("getBoard").addHandler(rc ->
        Http.reply(rc, boards.board(me(rc), pathId(rc, "boardId")), json -> json));
    builder.getRoute("deleteBoard").addHandler(rc ->
        Http.replyEmpty(rc, boards.delete(me(rc), pathId(rc, "boardId"))));
    builder.getRoute("listBoardStrokes").addHandler(rc ->
        Paging.reply(rc, boards.strokes(me(rc), pathId(rc, "boardId"), MessagingRoutes.afterSeq(rc))));
    builder.getRoute("drawStroke").addHandler(rc ->
        Http.replyCreated(rc, boards.draw(me(rc), pathId(rc, "boardId"), Http.body(rc))));
    builder.getRoute("clearBoard").addHandler(rc ->
        Http.reply(rc, boards.clear(me(rc), pathId(rc, "boardId")), json -> json));
    builder.getRoute("addBoardMembers").addHandler(rc -> {
      List<Long> users = new ArrayList<>();
      Http.body(rc).getJsonArray("users", new JsonArray()).forEach(u -> users.add(((Number) u).longValue()));
      Http.reply(rc, boards.addMembers(me(rc), pathId(rc, "boardId"), users), json -> json);
    });
    builder.getRoute("removeBoardMember").addHandler(rc ->
        Http.replyEmpty(rc, boards.removeMember(me(rc), pathId(rc, "boardId"), pathId(rc, "userId"))));
  }

  /** The named integer query parameters that are present. */
  private static JsonObject query(RoutingContext rc, String... names) {
    JsonObject query = new JsonObject();
    for (String name : names) {
      RequestParameter p = Http.validated(rc).getQuery().get(name);
      if (p != null && !p.isNull()) {
        query.put(name, p.getLong());
      }
    }
    return query;
  }

  private static long me(RoutingContext rc) {
    return Http.caller(rc).userId();
  }

  private static long pathId(RoutingContext rc, String name) {
    return Http.validated(rc).getPathParameters().get(name).getLong();
  }
}
