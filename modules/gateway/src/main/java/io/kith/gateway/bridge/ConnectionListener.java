package io.kith.gateway.bridge;

import io.vertx.core.Future;

import java.util.List;
import java.util.Map;

/**
 * Told about bridge connections as users come and go: the source of presence. Called on the guard's event loop;
 * implementations must not block.
 */
public interface ConnectionListener {

  /** Ignores everything. */
  ConnectionListener NONE = new ConnectionListener() {
    @Override
    public void bound(long userId, String connectionId) {
    }

    @Override
    public void closed(long userId, String connectionId) {
    }

    @Override
    public Future<Void> alive(Map<Long, List<String>> connections) {
      return Future.succeededFuture();
    }
  };

  /** A connection was authenticated as {@code userId} (once per connection). */
  void bound(long userId, String connectionId);

  /** An authenticated connection closed. */
  void closed(long userId, String connectionId);

  /**
   * The connections the guard still holds, by user (sent periodically). The future completes when the report is
   * done, whatever its outcome; the guard sends no other report until then.
   */
  Future<Void> alive(Map<Long, List<String>> connections);
}
