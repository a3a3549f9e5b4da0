package io.kith.messaging.service;

import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingService;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The addresses bridge clients send to ({@link Messaging#BRIDGE_SEND} for direct and group messages,
 * {@link Messaging#BRIDGE_READ},
 * {@link Messaging#BRIDGE_TYPING}). The acting user is the one the bridge stamped in
 * {@link Addresses#SENDER_HEADER}, never a member of the body; a message without it (sent on the bus by code that
 * is not a bridge) is refused. Failures answer with the HTTP status as failure code and the stable code as message.
 */
final class BridgeInbound {

  private final Vertx vertx;
  private final MessagingService service;
  private final List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();

  BridgeInbound(Vertx vertx, MessagingService service) {
    this.vertx = vertx;
    this.service = service;
  }

  Future<Void> start() {
    on(Messaging.BRIDGE_SEND, (actor, body) -> {
      if (body.containsKey("to") == body.containsKey("group")) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "to", "give exactly one of to (a user) and group");
      }
      return body.containsKey("group") ? service.sendToGroup(actor, id(body, "group"), body)
          : service.send(actor, id(body, "to"), body);
    });
    on(Messaging.BRIDGE_READ, (actor, body) ->
        service.markRead(actor, id(body, "conversation"), id(body, "seq")));
    on(Messaging.BRIDGE_TYPING, (actor, body) ->
        service.typing(actor, id(body, "conversation")).map(v -> new JsonObject()));
    return Future.all(consumers.stream().map(MessageConsumer::completion).toList()).mapEmpty();
  }

  Future<Void> stop() {
    return Future.all(consumers.stream().map(MessageConsumer::unregister).toList()).mapEmpty();
  }

  private void on(String address, BiFunction<Long, JsonObject, Future<JsonObject>> handler) {
    consumers.add(vertx.eventBus().<JsonObject>consumer(address, msg -> handle(msg, handler)));
  }

  /** A required positive integer field of a bridge frame; anything else is validation_failed naming it. */
  static long id(JsonObject body, String field) {
    Object v = body.getValue(field);
    if (!(v instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.longValue() <= 0) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must be a positive integer id");
    }
    return n.longValue();
  }

  /**
   * Answers one bridge frame with {@code handler}'s result, acting as the stamped sender (also used by
   * {@link WhiteboardInbound}).
   */
  static void handle(Message<JsonObject> msg, BiFunction<Long, JsonObject, Future<JsonObject>> handler) {
    long actor;
    try {
      actor = Long.parseLong(msg.headers().get(Addresses.SENDER_HEADER));
    } catch (RuntimeException e) {
      msg.fail(KithErrors.UNAUTHENTICATED.status(), KithErrors.UNAUTHENTICATED.code());
      return;
    }
    if (!msg.isSend()) {
      // a published frame would reach every node's consumer: these addresses take point-to-point sends only
      msg.fail(KithErrors.VALIDATION_FAILED.status(), KithErrors.VALIDATION_FAILED.code());
      return;
    }
    Object raw = msg.body();
    if (!(raw instanceof JsonObject)) {
      msg.fail(KithErrors.VALIDATION_FAILED.status(), KithErrors.VALIDATION_FAILED.code());
      return;
    }
    Failures.guard(() -> handler.apply(actor, (JsonObject) raw)).onComplete(ar -> {
      if (ar.succeeded()) {
        msg.reply(ar.result());
      } else if (ar.cause() instanceof ServiceException se && Failures.codeOf(se) != null) {
        msg.fail(se.failureCode(), Failures.codeOf(se));
      } else {
        msg.fail(KithErrors.INTERNAL.status(), KithErrors.INTERNAL.code());
      }
    });
  }
}
