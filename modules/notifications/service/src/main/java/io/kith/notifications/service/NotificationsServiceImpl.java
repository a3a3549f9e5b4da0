package io.kith.notifications.service;

import io.kith.notifications.api.NotificationsService;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Supplier;

/**
 * The notifications service: refuses a call without an acting user, then delegates it to the feature that owns it
 * (see the module README's "Files" table). Reads are {@link Listing} (and {@link HotStore} for the counts), the
 * user's marks and deletes {@link Changes}, preferences {@link Preferences}. Making notifications is not a service
 * method: the producers store them through {@link Delivery} and take them back through {@link SystemChanges}.
 */
final class NotificationsServiceImpl implements NotificationsService {

  private final Listing listing;
  private final HotStore hot;
  private final Changes changes;
  private final Preferences preferences;

  NotificationsServiceImpl(Listing listing, HotStore hot, Changes changes, Preferences preferences) {
    this.listing = listing;
    this.hot = hot;
    this.changes = changes;
    this.preferences = preferences;
  }

  @Override
  public Future<Page> list(long actor, JsonObject query, PageRequest page) {
    return guard(actor, () -> listing.list(actor, Query.paged(query, page))).map(Query::page);
  }

  @Override
  public Future<String> listJson(long actor, JsonObject query, PageRequest page) {
    return list(actor, query, page).map(found -> found.toApiJson().encode());
  }

  @Override
  public Future<Page> grouped(long actor, JsonObject query, PageRequest page) {
    return guard(actor, () -> listing.grouped(actor, Query.paged(query, page))).map(Query::page);
  }

  @Override
  public Future<JsonObject> unreadCounts(long actor) {
    return guard(actor, () -> hot.counts(actor));
  }

  @Override
  public Future<JsonObject> markRead(long actor, List<Long> ids) {
    return guard(actor, () -> changes.markRead(actor, ids));
  }

  @Override
  public Future<JsonObject> markAllRead(long actor) {
    return guard(actor, () -> changes.markAllRead(actor));
  }

  @Override
  public Future<JsonObject> markReadWhere(long actor, JsonObject condition) {
    return guard(actor, () -> changes.markReadWhere(actor, condition));
  }

  @Override
  public Future<JsonObject> delete(long actor, List<Long> ids) {
    return guard(actor, () -> changes.delete(actor, ids));
  }

  @Override
  public Future<JsonObject> deleteWhere(long actor, JsonObject condition) {
    return guard(actor, () -> changes.deleteWhere(actor, condition));
  }

  @Override
  public Future<JsonObject> preferences(long actor) {
    return guard(actor, () -> preferences.preferences(actor));
  }

  @Override
  public Future<JsonObject> setPreferences(long actor, JsonObject preferences) {
    return guard(actor, () -> this.preferences.setPreferences(actor, preferences));
  }

  @Override
  public Future<JsonObject> muteUser(long actor, long userId) {
    return guard(actor, () -> preferences.muteUser(actor, userId));
  }

  @Override
  public Future<JsonObject> unmuteUser(long actor, long userId) {
    return guard(actor, () -> preferences.unmuteUser(actor, userId));
  }

  private static <T> Future<T> guard(long actor, Supplier<Future<T>> body) {
    if (actor < 1) {
      return Failures.fail(KithErrors.UNAUTHENTICATED, "a user is required");
    }
    return Failures.guard(body);
  }
}
