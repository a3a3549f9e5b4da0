package io.kith.relations.service;

import io.kith.platform.Platform;
import io.kith.relations.api.RelationsEvents;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Appends a relations event {from, to} to the event log, after its write is committed; a failure is logged. */
final class Emitter {

  private static final Logger LOG = LoggerFactory.getLogger(Emitter.class);

  private final Platform platform;

  Emitter(Platform platform) {
    this.platform = platform;
  }

  void emit(String type, long from, long to) {
    platform.events().append(RelationsEvents.DOMAIN, type, new JsonObject().put("from", from).put("to", to))
        .onFailure(e -> LOG.error("Could not append {} {}->{}: {}", type, from, to, e.toString()));
  }
}
