package io.kith.messaging.service;

import io.kith.messaging.api.MessagingService;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

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

  /** Every message of the conversation, by after_seq paging (7 a page) as a reconnecting client reads it. */
  static Future<List<JsonObject>> allMessages(MessagingService messaging, long reader, long conversation) {
    return allFrom(messaging, reader, conversation, 0, new ArrayList<>());
  }

  private static Future<List<JsonObject>> allFrom(MessagingService messaging, long reader, long conversation,
                                                  long after, List<JsonObject> all) {
    return messaging.history(reader, conversation, new JsonObject(), PageRequest.after(String.valueOf(after), 7))
        .map(Page::toJson).compose(page -> {
          if (page.getJsonArray("items").isEmpty()) {
            return Future.succeededFuture(all);
          }
          page.getJsonArray("items").forEach(m -> all.add((JsonObject) m));
          return allFrom(messaging, reader, conversation, all.get(all.size() - 1).getLong("seq"), all);
        });
  }
}
