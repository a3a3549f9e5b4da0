package io.kith.platform.page;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The page types as the event bus carries them (through their JSON forms) and as the gateway renders them. */
class PageTest {

  @Test
  @DisplayName("a page renders as the list's body, items under the list's own name and its members in their order")
  void pageRendersTheListBody() {
    JsonObject body = new JsonObject().put("cursor_first", 1).put("posts", new JsonArray().add(3).add(2))
        .put("next_max_id", 2L).put("newest_id", 3L).put("next_cursor", null).put("total", 7);
    Page page = Page.of("posts", body);
    assertEquals(body, page.toJson());
    assertEquals(List.of("posts", "cursor_first", "next_max_id", "newest_id", "next_cursor", "total"),
        List.copyOf(page.toJson().fieldNames()));
    assertEquals(2L, page.nextMaxId());
    assertEquals(3L, page.newestId());
    assertNull(page.nextCursor());
    assertEquals(7L, page.total());
    // a member sent as null stays in the body as null
    assertEquals("null", String.valueOf(page.toJson().getValue("next_cursor")));
    assertEquals(true, page.toJson().containsKey("next_cursor"));
  }

  @Test
  @DisplayName("every list renders for clients with its items under items and its cursor, whatever its type, as next_cursor, a string or null")
  void pageRendersOneApiShape() {
    JsonObject byId = Page.of("posts", new JsonObject().put("posts", new JsonArray().add(3))
        .put("next_max_id", 233119421106784L).put("newest_id", 3L)).toApiJson();
    assertEquals(List.of("items", "next_cursor", "newest_id"), List.copyOf(byId.fieldNames()));
    assertEquals("233119421106784", byId.getValue("next_cursor"));
    assertEquals(3L, byId.getLong("newest_id"));
    JsonObject byOffset = Page.of("items", new JsonArray()).with("next_offset", 40).toApiJson();
    assertEquals("40", byOffset.getValue("next_cursor"));
    JsonObject last = Page.of("items", new JsonArray()).with("read_count", 2).with("next", null).toApiJson();
    assertEquals(List.of("items", "next_cursor", "read_count"), List.copyOf(last.fieldNames()));
    assertNull(last.getValue("next_cursor"));
    assertEquals("abc_1", Page.of("items", new JsonArray()).with("next", "abc_1").toApiJson().getValue("next_cursor"));
    // a list paged by position has no cursor and gets none
    JsonObject byPosition = Page.of("items", new JsonArray()).with("last_seq", 9L).toApiJson();
    assertEquals(List.of("items", "last_seq"), List.copyOf(byPosition.fieldNames()));
  }

  @Test
  @DisplayName("a page read back from its JSON, also once encoded, is the same page with the same items key")
  void pageRoundTrips() {
    Page page = Page.of("users", new JsonArray().add(new JsonObject().put("id", 1))).with("next", "abc")
        .with("extra", new JsonObject().put("a", 1));
    Page back = new Page(page.toJson());
    assertEquals(page, back);
    assertEquals("users", back.itemsKey());
    Page decoded = new Page(new JsonObject(page.toJson().encode()));
    assertEquals(page.toJson().encode(), decoded.toJson().encode());
    assertEquals("users", decoded.itemsKey());
  }

  @Test
  @DisplayName("a body without an items array is refused, not taken for a page")
  void notAPage() {
    assertThrows(IllegalArgumentException.class, () -> new Page(new JsonObject()));
    assertThrows(IllegalArgumentException.class, () -> new Page(new JsonObject().put("next", 1)));
    assertThrows(IllegalArgumentException.class, () -> Page.of("items", new JsonObject().put("posts",
        new JsonArray())));
    assertThrows(IllegalArgumentException.class, () -> Page.of("items", new JsonArray()).with("items", 1));
  }

  @Test
  @DisplayName("a page request read back from its JSON is the same request, members not given staying none")
  void requestRoundTrips() {
    for (PageRequest request : List.of(PageRequest.ids(10, 2, 5), PageRequest.after("c", 3), PageRequest.first(1),
        new PageRequest(null, 0, 0, null))) {
      assertEquals(request, new PageRequest(new JsonObject(request.toJson().encode())));
    }
    PageRequest none = new PageRequest(new JsonObject());
    assertNull(none.limit());
    assertEquals(PageRequest.DEFAULT_LIMIT, none.limitOrDefault());
    assertEquals(0, none.maxId());
    assertEquals(0, none.sinceId());
    assertNull(none.cursor());
    assertEquals(new JsonObject().put("limit", 5).put("max_id", 10L).put("since_id", 2L),
        PageRequest.ids(10, 2, 5).toJson());
  }
}
