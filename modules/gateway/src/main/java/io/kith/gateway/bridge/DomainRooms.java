package io.kith.gateway.bridge;

import io.kith.messaging.api.MessagingService;
import io.kith.messaging.api.WhiteboardService;
import io.vertx.core.Future;

/**
 * The room rule of the bridges: a room id names its owner by its first letter and the owner decides. {@code g<id>}:
 * a chat group, asked of the messaging service; {@code b<id>}: a whiteboard, asked of the whiteboard service. Any
 * other room is closed. When the owner cannot be reached (the
 * domain is not running anywhere, a timeout), the registration is refused.
 */
public final class DomainRooms implements RoomAccess {

  private final MessagingService messaging;
  private final WhiteboardService whiteboards;

  public DomainRooms(MessagingService messaging, WhiteboardService whiteboards) {
    this.messaging = messaging;
    this.whiteboards = whiteboards;
  }

  @Override
  public Future<Boolean> mayListen(long userId, String roomId) {
    if (roomId == null || roomId.length() < 2) {
      return Future.succeededFuture(false);
    }
    switch (roomId.charAt(0)) {
      case 'g':
        return messaging.mayListen(userId, roomId).otherwise(false);
      case 'b':
        return whiteboards.mayListen(userId, roomId).otherwise(false);
      default:
        return Future.succeededFuture(false);
    }
  }
}
