package io.kith.gateway.bridge;

import io.kith.messaging.api.MessagingInternal;
import io.kith.messaging.api.WhiteboardInternal;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;

/**
 * The room rule of the bridges: a room id names its owner by its first letter and the owner decides. {@code g<id>}:
 * a chat group, asked of messaging's internal operations; {@code b<id>}: a whiteboard, asked of the whiteboards'. Any
 * other room is closed. When the owner cannot be reached (the
 * domain is not running anywhere, a timeout), the answer fails with {@code unavailable}: the bridge tells the client
 * to send the registration again, instead of refusing a room the user may well belong to.
 */
public final class DomainRooms implements RoomAccess {

  private final MessagingInternal messaging;
  private final WhiteboardInternal whiteboards;

  public DomainRooms(MessagingInternal messaging, WhiteboardInternal whiteboards) {
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
        return unreachable(messaging.mayListen(userId, roomId));
      case 'b':
        return unreachable(whiteboards.mayListen(userId, roomId));
      default:
        return Future.succeededFuture(false);
    }
  }

  /** The owner's answer; its failure (no handler, a timeout, the owner's own outage) as {@code unavailable}. */
  private static Future<Boolean> unreachable(Future<Boolean> answer) {
    return answer.recover(e -> Future.failedFuture(Failures.of(KithErrors.UNAVAILABLE,
        "the room's owner cannot be reached")));
  }
}
