package io.kith.gateway.bridge;

import io.vertx.core.Future;

/**
 * Decides whether a user may listen on a room address ({@code kith.room.<roomId>}). Messaging and whiteboards
 * provide the real rule; until then no room is open to anyone.
 */
@FunctionalInterface
public interface RoomAccess {

  /** Nobody may listen on any room. */
  RoomAccess NONE = (userId, roomId) -> Future.succeededFuture(false);

  /** Whether {@code userId} may receive what is published on room {@code roomId}. */
  Future<Boolean> mayListen(long userId, String roomId);
}
