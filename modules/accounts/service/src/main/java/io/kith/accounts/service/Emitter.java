package io.kith.accounts.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.platform.Platform;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Appends an accounts event to the event log, after its write is committed; a failure is logged. */
final class Emitter {

  private static final Logger LOG = LoggerFactory.getLogger(Emitter.class);

  private final Platform platform;

  Emitter(Platform platform) {
    this.platform = platform;
  }

  void emit(String type, JsonObject payload) {
    platform.events().append(AccountsEvents.DOMAIN, type, payload)
        .onFailure(e -> LOG.error("Could not append {} {} to the event log: {}", type, payload, e.toString()));
  }
}
