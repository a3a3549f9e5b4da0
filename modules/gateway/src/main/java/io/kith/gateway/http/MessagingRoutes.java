package io.kith.gateway.http;

import io.kith.messaging.api.MessagingService;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.validation.RequestParameter;

import java.util.ArrayList;
import java.util.List;

/**
 * HTTP operations of the messaging domain: send a direct message, the conversations list, one conversation, its
 * history by sequence, the read marker, typing, recall, the caller's messaging settings, and chat groups (create,
 * search, view, change, dissolve, join, leave, invite, members, kick, roles, send, the caller's invitations). Every
 * operation acts as the token's user; who may read or write what is decided by the service, the same as for bridge
 * clients.
 */
public final class MessagingRoutes implements ApiRoutes {

  private final MessagingService messaging;

  /** Creates the routes over the messaging service proxy. */
  public MessagingRoutes(MessagingService messaging) {
    this.messaging = messaging;
  }

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("sendDirectMessage").addHandler(rc ->
        sent(rc, messaging.send(me(rc), pathId(rc, "userId"), Http.body(rc))));
    builder.getRoute("listConversations").addHandler(rc ->
        Paging.reply(rc, messaging.conversations(me(rc), Paging.byCursor(rc)), "before"));
    builder.getRoute("getDirectConversation").addHandler(rc ->
        Http.reply(rc, messaging.directConversation(me(rc), pathId(rc, "userId")), json -> json));
    builder.getRoute("getConversation").addHandler(rc ->
        Http.reply(rc, messaging.conversation(me(rc), pathId(rc, "conversationId")), json -> json));
    builder.getRoute("listMessages").addHandler(rc -> {
      JsonObject query = new JsonObject();
      RequestParameter before = param(rc, "before_seq");
      if (before != null) {
        query.put("before_seq", before.getLong());
      }
      Paging.reply(rc, messaging.history(me(rc), pathId(rc, "conversationId"), query, afterSeq(rc)));
    });
    builder.getRoute("markConversationRead").addHandler(rc ->
        Http.reply(rc, messaging.markRead(me(rc), pathId(rc, "conversationId"), Http.body(rc).getLong("seq")),
            json -> json));
    builder.getRoute("sendTyping").addHandler(rc ->
        Http.replyEmpty(rc, messaging.typing(me(rc), pathId(rc, "conversationId"))));
    builder.getRoute("recallMessage").addHandler(rc ->
        Http.reply(rc, messaging.recall(me(rc), pathId(rc, "messageId")), json -> json));
    builder.getRoute("listMessageReaders").addHandler(rc ->
        Paging.reply(rc, messaging.messageReaders(me(rc), pathId(rc, "messageId"), Paging.byCursor(rc)),
            "after"));
    builder.getRoute("getMessagingSettings").addHandler(rc ->
        Http.reply(rc, messaging.settings(me(rc)), json -> json));
    builder.getRoute("updateMessagingSettings").addHandler(rc ->
        Http.reply(rc, messaging.updateSettings(me(rc), Http.body(rc)), json -> json));
    mountGroups(builder);
  }

  private void mountGroups(RouterBuilder builder) {
    builder.getRoute("createChatGroup").addHandler(rc ->
        Http.replyCreated(rc, messaging.createGroup(me(rc), Http.body(rc))));
    builder.getRoute("searchChatGroups").addHandler(rc -> {
      JsonObject query = new JsonObject().put("q", param(rc, "q").getString());
      Paging.reply(rc, messaging.searchGroups(me(rc), query, Paging.byCursor(rc)), "before");
    });
    builder.getRoute("getChatGroup").addHandler(rc ->
        Http.reply(rc, messaging.group(me(rc), pathId(rc, "groupId")), json -> json));
    builder.getRoute("updateChatGroup").addHandler(rc ->
        Http.reply(rc, messaging.updateGroup(me(rc), pathId(rc, "groupId"), Http.body(rc)), json -> json));
    builder.getRoute("dissolveChatGroup").addHandler(rc ->
        Http.replyEmpty(rc, messaging.dissolveGroup(me(rc), pathId(rc, "groupId"))));
    builder.getRoute("joinChatGroup").addHandler(rc ->
        Http.reply(rc, messaging.joinGroup(me(rc), pathId(rc, "groupId")), json -> json));
    builder.getRoute("leaveChatGroup").addHandler(rc ->
        Http.replyEmpty(rc, messaging.leaveGroup(me(rc), pathId(rc, "groupId"))));
    builder.getRoute("inviteToChatGroup").addHandler(rc -> {
      List<Long> users = new ArrayList<>();
      Http.body(rc).getJsonArray("users", new JsonArray()).forEach(id -> users.add(((Number) id).longValue()));
      Http.reply(rc, messaging.inviteToGroup(me(rc), pathId(rc, "groupId"), users), json -> json);
    });
    builder.getRoute("listChatGroupMembers").addHandler(rc ->
        Paging.reply(rc, messaging.groupMembers(me(rc), pathId(rc, "groupId"), Paging.byCursor(rc)), "after"));
    builder.getRoute("kickChatGroupMember").addHandler(rc ->
        Http.replyEmpty(rc, messaging.kickMember(me(rc), pathId(rc, "groupId"), pathId(rc, "userId"))));
    builder.getRoute("setChatGroupMemberRole").addHandler(rc ->
        Http.reply(rc, messaging.setMemberRole(me(rc), pathId(rc, "groupId"), pathId(rc, "userId"),
            Http.body(rc).getString("role")), json -> json));
    builder.getRoute("sendGroupMessage").addHandler(rc ->
        sent(rc, messaging.sendToGroup(me(rc), pathId(rc, "groupId"), Http.body(rc))));
    builder.getRoute("listGroupInvitations").addHandler(rc ->
        Paging.reply(rc, messaging.groupInvitations(me(rc), Paging.byCursor(rc)), "before"));
    builder.getRoute("declineGroupInvitation").addHandler(rc ->
        Http.replyEmpty(rc, messaging.declineInvitation(me(rc), pathId(rc, "groupId"))));
  }

  /** Answers a send: 201 for a new message, 200 for a retry of a stored client id. */
  private static void sent(RoutingContext rc, Future<JsonObject> result) {
    result.onComplete(ar -> {
      if (ar.succeeded()) {
        Http.send(rc, ar.result().getBoolean("duplicate", false) ? 200 : 201, ar.result());
      } else {
        rc.fail(ar.cause());
      }
    });
  }

  /**
   * The page of a list paged by sequence number (a message history, a board's strokes): its {@code limit}, and
   * {@code after_seq} as the page's string cursor, which keeps a position of 0 apart from none. A position is not a
   * page cursor: a client holds it from a push or a message it has (see "Paging" in the gateway README).
   */
  static PageRequest afterSeq(RoutingContext rc) {
    RequestParameter value = param(rc, "after_seq");
    return new PageRequest(Paging.limit(rc), 0, 0, value == null ? null : String.valueOf(value.getLong()));
  }

  private static RequestParameter param(RoutingContext rc, String name) {
    RequestParameter p = Http.validated(rc).getQuery().get(name);
    return p == null || p.isNull() ? null : p;
  }

  private static long me(RoutingContext rc) {
    return Http.caller(rc).userId();
  }

  private static long pathId(RoutingContext rc, String name) {
    return Http.validated(rc).getPathParameters().get(name).getLong();
  }
}
