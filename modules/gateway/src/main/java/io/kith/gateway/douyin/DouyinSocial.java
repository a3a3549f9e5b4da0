package io.kith.gateway.douyin;

import io.kith.messaging.api.MessagingErrors;
import io.kith.messaging.api.MessagingService;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The douyin social routes: follow and unfollow, the follow, follower and friend lists (a friend with the latest
 * message between the two and its direction), sending a direct message and reading a chat, over the relations and
 * messaging services.
 */
final class DouyinSocial {

  /** {@code msgType} of a friend's latest message the caller received. */
  static final int RECEIVED = 0;
  /** {@code msgType} of a friend's latest message the caller sent. */
  static final int SENT = 1;
  private static final String TO_USER = "to_user_id";

  private final RelationsService relations;
  private final MessagingService messaging;
  private final DouyinViews views;
  private final DouyinSettings settings;

  DouyinSocial(RelationsService relations, MessagingService messaging, DouyinViews views, DouyinSettings settings) {
    this.relations = relations;
    this.messaging = messaging;
    this.views = views;
    this.settings = settings;
  }

  void mount(Router r, DouyinRoutes.Authed authed) {
    r.post("/relation/action").handler(rc -> authed.run(rc, me -> {
      long target = DouyinReply.id(rc, TO_USER);
      return DouyinVideos.action(rc) == 1 ? relations.follow(me.userId(), target).map(j -> new JsonObject())
          : relations.unfollow(me.userId(), target).map(v -> new JsonObject());
    }));
    r.get("/relation/follow/list").handler(rc -> authed.run(rc, me -> users(rc, me.userId(),
        relations.following(me.userId(), DouyinReply.id(rc, "user_id"), page()))));
    r.get("/relation/follower/list").handler(rc -> authed.run(rc, me -> users(rc, me.userId(),
        relations.followers(me.userId(), DouyinReply.id(rc, "user_id"), page()))));
    r.get("/relation/friend/list").handler(rc -> authed.run(rc, me -> {
      if (DouyinReply.number(rc, "user_id", me.userId()) != me.userId()) {
        return Failures.fail(KithErrors.FORBIDDEN, "a user's friend list is visible to that user only");
      }
      return friends(rc, me.userId());
    }));
    r.post("/message/action").handler(rc -> authed.run(rc, me -> {
      long to = DouyinReply.id(rc, TO_USER);
      if (DouyinReply.number(rc, "action_type", 0) != 1) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "action_type", "action_type must be 1 (send)");
      }
      // douyin clients do not make sends idempotent: each request is a new message
      JsonObject message = new JsonObject().put("client_id", UUID.randomUUID().toString())
          .put("text", DouyinReply.required(rc, "content"));
      return messaging.send(me.userId(), to, message).map(sent -> new JsonObject());
    }));
    r.get("/message/chat").handler(rc -> authed.run(rc, me -> chat(rc, me.userId())));
  }

  private PageRequest page() {
    return PageRequest.first(settings.pageSize());
  }

  /** A page of {@code {user, since}} items as a douyin {@code user_list}, in the page's order. */
  private Future<JsonObject> users(RoutingContext rc, long viewer, Future<Page> page) {
    return page.compose(p -> {
      List<Long> ids = userIds(p);
      return views.users(viewer, ids, DouyinRoutes.base(rc, settings)).map(users -> {
        JsonArray out = new JsonArray();
        ids.forEach(id -> {
          JsonObject user = users.getJsonObject(Long.toString(id));
          if (user != null) {
            out.add(user);
          }
        });
        return new JsonObject().put("user_list", out);
      });
    });
  }

  private static List<Long> userIds(Page page) {
    List<Long> ids = new ArrayList<>();
    page.items().forEach(item -> ids.add(((JsonObject) item).getJsonObject("user").getLong("id")));
    return ids;
  }

  /** The caller's friends, each with the latest direct message between the two ({@code message}, {@code msgType}). */
  private Future<JsonObject> friends(RoutingContext rc, long me) {
    return users(rc, me, relations.friends(me, page())).compose(list -> {
      JsonArray users = list.getJsonArray("user_list");
      List<Future<JsonObject>> latest = new ArrayList<>();
      users.forEach(u -> latest.add(messaging.directConversation(me, ((JsonObject) u).getLong("id"))
          .recover(e -> Failures.is(e, MessagingErrors.CONVERSATION_NOT_FOUND) ? Future.succeededFuture(null)
              : Future.failedFuture(e))));
      return Future.all(latest).map(v -> {
        for (int i = 0; i < users.size(); i++) {
          JsonObject conversation = latest.get(i).result();
          JsonObject last = conversation == null ? null : conversation.getJsonObject("last_message");
          if (last != null && last.getString("text") != null) {
            users.getJsonObject(i).put("message", last.getString("text"))
                .put("msgType", senderOf(last) == me ? SENT : RECEIVED);
          }
        }
        return list;
      });
    });
  }

  /**
   * The chat with {@code to_user_id}: the messages after {@code pre_msg_time} (ms; 0 or absent: the latest) among the
   * newest {@code page-size}, oldest first, as douyin messages.
   */
  private Future<JsonObject> chat(RoutingContext rc, long me) {
    long peer = DouyinReply.id(rc, TO_USER);
    long after = DouyinReply.number(rc, "pre_msg_time", 0);
    return messaging.directConversation(me, peer)
        .compose(c -> messaging.history(me, c.getLong("id"), new JsonObject(), page()).map(Page::items))
        .recover(e -> Failures.is(e, MessagingErrors.CONVERSATION_NOT_FOUND)
            ? Future.succeededFuture(new JsonArray()) : Future.failedFuture(e))
        .map(items -> {
          JsonArray out = new JsonArray();
          items.forEach(m -> {
            JsonObject message = (JsonObject) m;
            if (message.getLong("created", 0L) > after && message.getString("text") != null) {
              long from = senderOf(message);
              out.add(new JsonObject().put("id", message.getLong("id")).put("from_user_id", from)
                  .put(TO_USER, from == me ? peer : me).put("content", message.getString("text"))
                  .put("create_time", message.getLong("created")));
            }
          });
          return new JsonObject().put("message_list", out);
        });
  }

  /** A message view's sender id (an erased sender is shown as an object: 0, never the caller). */
  private static long senderOf(JsonObject message) {
    Object sender = message.getValue("sender");
    return sender instanceof Number n ? n.longValue() : 0;
  }
}
