package io.kith.messaging.service;

import io.kith.messaging.api.WhiteboardInternal;
import io.vertx.core.Future;

/** The whiteboard operations the gateway calls on trust; it only delegates to {@link WhiteboardServiceImpl}. */
final class WhiteboardInternalImpl implements WhiteboardInternal {

  private final WhiteboardServiceImpl whiteboards;

  WhiteboardInternalImpl(WhiteboardServiceImpl whiteboards) {
    this.whiteboards = whiteboards;
  }

  @Override
  public Future<Boolean> mayListen(long userId, String roomId) {
    return whiteboards.mayListen(userId, roomId);
  }
}
