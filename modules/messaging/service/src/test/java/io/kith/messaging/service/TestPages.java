package io.kith.messaging.service;

import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonObject;

/** Page requests of the tests' list calls. */
final class TestPages {

  /** The first page at the list's default limit. */
  static final PageRequest FIRST = new PageRequest(null, 0, 0, null);

  private TestPages() {
  }

  /** The page request of a list query: its {@code limit}, and its member {@code cursor} as the page's cursor. */
  static PageRequest page(JsonObject query, String cursor) {
    Object value = query.getValue(cursor);
    return new PageRequest(query.getInteger("limit"), 0, 0, value == null ? null : String.valueOf(value));
  }
}
