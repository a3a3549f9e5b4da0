package io.kith.moderation.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Function;

/** Id-paged lists of moderation's collections, newest first. */
final class Pages {

  /** The most items of one page. */
  static final int MAX_LIMIT = 100;

  private Pages() {
  }

  /**
   * The page of {@code docs} (read newest first with one more than {@code limit}, so that a further page is known to
   * exist), each shown by {@code view}, with {@code next_max_id} the last shown id or null at the end.
   */
  static Page byId(List<JsonObject> docs, int limit, Function<JsonObject, JsonObject> view) {
    boolean more = docs.size() > limit;
    JsonArray items = new JsonArray();
    Long last = null;
    for (JsonObject doc : more ? docs.subList(0, limit) : docs) {
      items.add(view.apply(doc));
      last = doc.getLong("_id");
    }
    return Page.of("items", items).with("next_max_id", more ? last : null);
  }

  /** The limit a request asks, within 1 and {@link #MAX_LIMIT}. */
  static int limit(PageRequest page) {
    return Math.max(1, Math.min(MAX_LIMIT, page.limitOrDefault()));
  }
}
