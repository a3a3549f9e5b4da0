package io.kith.gateway.bridge;

import io.kith.accounts.api.AccountsService;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * Reports bridge connections to the accounts service, which derives presence from them. Failures (accounts not
 * deployed, a timeout) are logged at debug level: a lost report is repaired by the next heartbeat or lapses by
 * expiry.
 */
public final class AccountsPresence implements ConnectionListener {

  private static final Logger LOG = LoggerFactory.getLogger(AccountsPresence.class);
  /** Users per heartbeat message, to keep event-bus messages small. */
  static final int CHUNK = 1000;

  private final AccountsService accounts;

  /** Creates the listener over the accounts service proxy. */
  public AccountsPresence(AccountsService accounts) {
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
  public void alive(Map<Long, List<String>> connections) {
    JsonObject chunk = new JsonObject();
    for (Map.Entry<Long, List<String>> e : connections.entrySet()) {
      chunk.put(Long.toString(e.getKey()), new JsonArray(e.getValue()));
      if (chunk.size() >= CHUNK) {
        send(chunk);
        chunk = new JsonObject();
      }
    }
    if (!chunk.isEmpty()) {
      send(chunk);
    }
  }

  private void send(JsonObject chunk) {
    accounts.connectionsAlive(chunk)
        .onFailure(e -> LOG.debug("Presence heartbeat failed: {}", e.toString()));
  }
}
