package io.kith.gateway.bridge;

import io.kith.accounts.api.AccountsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reports bridge connections to the accounts service, which derives presence from them. Failures (accounts not
 * deployed, a timeout) are logged at debug level: a lost report is repaired by the next heartbeat or lapses by
 * expiry.
 *
 * <p>A heartbeat is sent in messages of {@value #CHUNK} users, one after the other: all at once, a node with many
 * bridge users would hand accounts (and its Redis) thousands of refreshes in the same instant.
 */
public final class AccountsPresence implements ConnectionListener {

  private static final Logger LOG = LoggerFactory.getLogger(AccountsPresence.class);
  /** Users per heartbeat message, to keep event-bus messages small. */
  static final int CHUNK = 1000;

  private final AccountsInternal accounts;

  /** Creates the listener over a proxy to the accounts internal operations. */
  public AccountsPresence(AccountsInternal accounts) {
    this.accounts = accounts;
  }

  @Override
  public void bound(long userId, String connectionId) {
    accounts.connectionChanged(userId, connectionId, true)
        .onFailure(e -> LOG.debug("Presence report (open) for {} failed: {}", userId, e.toString()));
  }

  @Override
  public void closed(long userId, String connectionId) {
    accounts.connectionChanged(userId, connectionId, false)
        .onFailure(e -> LOG.debug("Presence report (close) for {} failed: {}", userId, e.toString()));
  }

  @Override
  public Future<Void> alive(Map<Long, List<String>> connections) {
    List<JsonObject> chunks = new ArrayList<>();
    JsonObject chunk = new JsonObject();
    for (Map.Entry<Long, List<String>> e : connections.entrySet()) {
      chunk.put(Long.toString(e.getKey()), new JsonArray(e.getValue()));
      if (chunk.size() >= CHUNK) {
        chunks.add(chunk);
        chunk = new JsonObject();
      }
    }
    if (!chunk.isEmpty()) {
      chunks.add(chunk);
    }
    return send(chunks, 0);
  }

  /** Sends {@code chunks} from {@code next} on, each once the previous one was answered (or failed). */
  private Future<Void> send(List<JsonObject> chunks, int next) {
    if (next >= chunks.size()) {
      return Future.succeededFuture();
    }
    return accounts.connectionsAlive(chunks.get(next))
        .onFailure(e -> LOG.debug("Presence heartbeat failed: {}", e.toString()))
        .transform(ar -> send(chunks, next + 1));
  }
}
