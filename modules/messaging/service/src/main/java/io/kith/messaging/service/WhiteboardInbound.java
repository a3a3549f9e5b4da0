package io.kith.messaging.service;

import io.kith.messaging.api.Whiteboards;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;

/**
 * What whiteboards hear on the bus besides their service: the bridge-reachable addresses
 * ({@link Whiteboards#BRIDGE_STROKE}, {@link Whiteboards#BRIDGE_CLEAR}; the acting user is the stamped sender header,
 * exactly as for {@link BridgeInbound}), and room revocations of groups, which reach the group's boards.
 */
final class WhiteboardInbound {

  private final Vertx vertx;
  private final WhiteboardServiceImpl service;
  private final List<MessageConsumer<JsonObject>> consumers = new ArrayList<>();

  WhiteboardInbound(Vertx vertx, WhiteboardServiceImpl service) {
    this.vertx = vertx;
    this.service = service;
  }

  Future<Void> start() {
    on(Whiteboards.BRIDGE_STROKE, (actor, body) ->
        service.draw(actor, BridgeInbound.id(body, "board"), stroke(body)));
    on(Whiteboards.BRIDGE_CLEAR, (actor, body) -> service.clear(actor, BridgeInbound.id(body, "board")));
    consumers.add(vertx.eventBus().<JsonObject>consumer(Addresses.ROOMS_REVOKED,
        msg -> service.groupRoomRevoked(msg.body())));
    return Future.all(consumers.stream().map(MessageConsumer::completion).toList()).mapEmpty();
  }

  Future<Void> stop() {
    return Future.all(consumers.stream().map(MessageConsumer::unregister).toList()).mapEmpty();
  }

  private void on(String address, BiFunction<Long, JsonObject, Future<JsonObject>> handler) {
    consumers.add(vertx.eventBus().<JsonObject>consumer(address, msg -> BridgeInbound.handle(msg, handler)));
  }

  private static JsonObject stroke(JsonObject body) {
    Object stroke = body.getValue("stroke");
    if (!(stroke instanceof JsonObject)) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "stroke", "stroke must be an object");
    }
    return (JsonObject) stroke;
  }
}
