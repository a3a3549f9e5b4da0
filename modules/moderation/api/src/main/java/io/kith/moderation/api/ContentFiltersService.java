package io.kith.moderation.api;

import io.kith.platform.bus.ServiceProxies;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * The operators' content filters (word and pattern lists that the domain services apply through
 * {@code io.kith.platform.text.ContentFilters}): admins add and remove them, moderators and admins read them. Every
 * change is appended to the audit log ({@code filter.add}, {@code filter.remove}) and reaches every node's copy at
 * once by a publish, within seconds by its refresh otherwise.
 */
@ProxyGen
@VertxGen
public interface ContentFiltersService {

  /** Event-bus address of the service. */
  String ADDRESS = "kith.moderation.filters";

  /** A proxy to the service (on any node of the cluster that runs moderation). */
  @GenIgnore
  static ContentFiltersService proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, ContentFiltersService.class, ADDRESS);
  }

  /**
   * Adds a filter {@code {kind: word|pattern, value, action: refuse, contexts?}} (contexts default to all); admins
   * only. A pattern that does not compile, or any field out of bounds, is {@code validation_failed}.
   *
   * @return the stored filter {@code {id, kind, value, action, contexts, created_by, created_at}}
   */
  Future<JsonObject> add(long actor, JsonObject filter);

  /** Every filter, newest first: {@code {items}}; moderators and admins. */
  Future<JsonObject> list(long actor);

  /** Removes a filter; admins only; an unknown id is {@code filter_not_found} (codes in {@link ContentFilterErrors}). */
  Future<Void> remove(long actor, long filterId);
}
