package io.kith.relations.api;

import io.kith.platform.bus.ServiceProxies;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * What relations needs to know about users, declared by relations and provided by the accounts module (which binds
 * an implementation at {@link #ADDRESS}): whether users exist, whether each requires approval of new followers, and
 * the summaries a list of users shows. Relations asks this port instead of the accounts api, so that the two domains
 * do not depend on each other (accounts asks relations about friends and blocks). Internal: not for clients, and not
 * reachable through the bridges.
 */
@ProxyGen
@VertxGen
public interface UserDirectory {

  /** Event-bus address where the accounts module binds the directory. */
  String ADDRESS = "kith.relations.directory";

  /** A proxy to the directory (on any node of the cluster that runs accounts). */
  @GenIgnore
  static UserDirectory proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, UserDirectory.class, ADDRESS);
  }

  /**
   * Which of these users exist and whether each requires approval of new followers:
   * {@code {"<id>": {follow_approval: bool}}}; unknown ids are absent. At most 1,000 ids.
   */
  Future<JsonObject> followSettings(List<Long> userIds);

  /**
   * Profile summaries ({@code id, username, nickname, photo_url}) as {@code viewer} sees them, keyed by id; unknown
   * ids are absent. At most 1,000 ids.
   */
  Future<JsonObject> summaries(long viewer, List<Long> userIds);
}
