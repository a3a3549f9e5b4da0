package io.kith.gateway.http;

import io.kith.messaging.api.MessagingService;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.validation.RequestParameter;

import java.util.List;

/**
 * HTTP operations of the messaging domain: send a direct message, the conversations list, one conversation, its
 * history by sequence, the read marker, typing, recall and the caller's messaging settings. Every operation acts as
 * the token's user; who may read or write what is decided by the service, the same as for bridge clients.
 */
public final class MessagingRoutes implements ApiRoutes {

  private final MessagingService messaging;

  /** Creates the routes over the messaging service proxy. */
  public MessagingRoutes(MessagingService messaging) {
    this.messaging = messaging;
  }

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("sendDirectMessage").addHandler(rc -> {
      long to = pathId(rc, "userId");
      messaging.send(me(rc), to, Http.body(rc)).onComplete(ar -> {
        if (ar.succeeded()) {
          Http.send(rc, ar.result().getBoolean("duplicate", false) ? 200 : 201, ar.result());
        } else {
          rc.fail(ar.cause());
        }
      });
    });
    builder.getRoute("listConversations").addHandler(rc -> {
      JsonObject query = new JsonObject();
      RequestParameter limit = param(rc, "limit");
      if (limit != null) {
        query.put("limit", limit.getLong());
      }
      RequestParameter before = param(rc, "before");
      if (before != null) {
        query.put("before", before.getString());
      }
      Http.reply(rc, messaging.conversations(me(rc), query), json -> json);
    });
    builder.getRoute("getDirectConversation").addHandler(rc ->
        Http.reply(rc, messaging.directConversation(me(rc), pathId(rc, "userId")), json -> json));
    builder.getRoute("getConversation").addHandler(rc ->
        Http.reply(rc, messaging.conversation(me(rc), pathId(rc, "conversationId")), json -> json));
    builder.getRoute("listMessages").addHandler(rc -> {
      JsonObject query = new JsonObject();
      for (String name : List.of("before_seq", "after_seq", "limit")) {
        RequestParameter p = param(rc, name);
        if (p != null) {
          query.put(name, p.getLong());
        }
      }
      Http.reply(rc, messaging.history(me(rc), pathId(rc, "conversationId"), query), json -> json);
    });
    builder.getRoute("markConversationRead").addHandler(rc ->
        Http.reply(rc, messaging.markRead(me(rc), pathId(rc, "conversationId"), Http.body(rc).getLong("seq")),
            json -> json));
    builder.getRoute("sendTyping").addHandler(rc ->
        Http.replyEmpty(rc, messaging.typing(me(rc), pathId(rc, "conversationId"))));
    builder.getRoute("recallMessage").addHandler(rc ->
        Http.reply(rc, messaging.recall(me(rc), pathId(rc, "messageId")), json -> json));
    builder.getRoute("getMessagingSettings").addHandler(rc ->
        Http.reply(rc, messaging.settings(me(rc)), json -> json));
    builder.getRoute("updateMessagingSettings").addHandler(rc ->
        Http.reply(rc, messaging.updateSettings(me(rc), Http.body(rc)), json -> json));
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
