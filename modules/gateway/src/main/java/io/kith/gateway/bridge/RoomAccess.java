package io.kith.gateway.bridge;

import io.vertx.core.Future;

/**
 * Decides whether a user may listen on a room address ({@code kith.room.<roomId>}). The gateway's
 * {@code DomainRooms} asks messaging (chat groups) and whiteboards; {@link #NONE}, which opens no room, serves tests
 * of a gateway without them.
 */
@FunctionalInterface
public interface RoomAccess {

  /** Nobody may listen on any room. */
  RoomAccess NONE = (userId, roomId) -> Future.succeededFuture(false);

  /** Whether {@code userId} may receive what is published on room {@code roomId}. */
  Future<Boolean> mayListen(long userId, String roomId);
}
