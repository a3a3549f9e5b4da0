package io.kith.messaging.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * How the messaging lists take a {@link PageRequest} and answer a {@link Page}: the page's limit and cursor are put
 * back among the list's filters under the names the lists have always read and checked, so the same checks and
 * error codes apply.
 *
 * <p>The cursor travels as the page's string {@code cursor} because several of these cursors are sequence numbers
 * where 0 is a real position ({@code after_seq: 0} is not "none", as a 0 id would be). A numeric cursor is put back
 * as a number when it reads as one, and otherwise as the raw string, which the list's own parsing refuses as before
 * (e.g. {@code after: "x"}).
 */
final class PageQuery {

  private PageQuery() {
  }

  /** The query a list reads: {@code filters} with the page's limit and its cursor under {@code cursorName}. */
  static JsonObject paged(JsonObject filters, PageRequest page, String cursorName, boolean numeric) {
    JsonObject query = filters == null ? new JsonObject() : filters.copy();
    if (page == null) {
      return query;
    }
    if (page.limit() != null) {
      query.put("limit", page.limit());
    }
    if (page.cursor() != null) {
      query.put(cursorName, numeric ? number(page.cursor()) : page.cursor());
    }
    return query;
  }

  /** A list's body as a page: every messaging list holds its items under {@code items}. */
  static Future<Page> items(Future<JsonObject> body) {
    return body.map(json -> Page.of("items", json));
  }

  private static Object number(String cursor) {
    try {
      return Long.parseLong(cursor.trim());
    } catch (NumberFormatException e) {
      return cursor;
    }
  }
}
