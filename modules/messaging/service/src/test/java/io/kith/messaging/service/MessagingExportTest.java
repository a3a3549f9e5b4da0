package io.kith.messaging.service;

import io.kith.messaging.api.WhiteboardService;
import io.kith.platform.events.Exports;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.BulkOperation;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The messaging part of an account export, asked at {@code kith.export.messaging} page after page as the exporter
 * does: the user's conversations, the messages they sent or could read, their groups and boards, nobody else's.
 */
class MessagingExportTest extends GroupTestBase {

  private static final long TIMEOUT = 60_000;

  /** Every page of {@code user}'s part, in order. */
  private List<Exports.Page> pages(long user) throws Exception {
    List<Exports.Page> pages = new ArrayList<>();
    String cursor = null;
    do {
      Exports.Page page = await(Exports.fetch(vertx, Erasure.DOMAIN, user, cursor, TIMEOUT));
      pages.add(page);
      cursor = page.cursor();
    } while (cursor != null && pages.size() < 100);
    assertNull(cursor, "the export ends");
    return pages;
  }

  private static Map<String, List<JsonObject>> files(List<Exports.Page> pages) {
    Map<String, List<JsonObject>> files = new HashMap<>();
    pages.forEach(p -> p.records().forEach(r -> files.computeIfAbsent(r.file(), f -> new ArrayList<>())
        .add(r.item())));
    return files;
  }

  /** Stores {@code n} messages of {@code sender} in a direct conversation straight in MongoDB, in one bulk write. */
  private void storeMessages(long conversation, long sender, long to, int n) throws Exception {
    List<BulkOperation> inserts = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (int i = 0; i < n; i++) {
      inserts.add(BulkOperation.createInsert(new JsonObject().put("_id", platform.ids().next())
          .put("conversation", conversation).put("seq", 1_000L + i).put("sender", sender).put("to", to)
          .put("client_id", UUID.randomUUID().toString()).put("created", now).put("text", "bulk " + i)));
    }
    await(platform.mongo().bulkWrite(MessageStore.MESSAGES, inserts));
  }

  @Test
  @DisplayName("an export pages the user's conversations, messages, groups and boards across the 500-record "
      + "boundary, and holds nothing of conversations the user is not in")
  void exportsOwnData() throws Exception {
    List<Long> users = newUsers(3);
    long p = users.get(0);
    long q = users.get(1);
    long r = users.get(2);
    befriend(p, q);
    long direct = send(p, q, "hello q").getLong("conversation");
    send(q, p, "hello p");
    storeMessages(direct, q, p, 520);
    long group = topicGroup(q, "export group", "tests").getLong("id");
    await(messaging.joinGroup(p, group));
    groupSend(q, group, "in the group");
    long board = await(WhiteboardService.proxy(vertx).create(p, new JsonObject().put("title", "p's board")
        .put("members", new JsonArray().add(q)))).getLong("id");
    // not p's: q and r talk, r owns a board
    long others = send(r, q, "not for p").getLong("conversation");
    await(WhiteboardService.proxy(vertx).create(r, new JsonObject().put("title", "r's board")));

    List<Exports.Page> pages = pages(p);
    Map<String, List<JsonObject>> files = files(pages);

    assertTrue(pages.stream().anyMatch(page -> page.records().size() == Exports.MAX_RECORDS),
        "a full page of messages");
    assertEquals(Set.of("conversations.json", "messages.json", "groups.json", "whiteboards.json"), files.keySet());
    List<JsonObject> conversations = files.get("conversations.json");
    assertEquals(Set.of(direct, group), ids(conversations, "id"));
    JsonObject directView = conversations.stream().filter(c -> c.getLong("id") == direct).findFirst().orElseThrow();
    assertEquals(q, directView.getJsonObject("peer").getLong("id"));

    List<JsonObject> messages = files.get("messages.json");
    assertEquals(2 + 520 + 1, messages.size());
    assertEquals(messages.size(), ids(messages, "id").size(), "no message twice across pages");
    assertEquals(Set.of(direct, group), ids(messages, "conversation"));
    assertFalse(messages.stream().anyMatch(m -> m.getLong("conversation") == others));
    assertTrue(messages.stream().allMatch(m -> m.getJsonObject("sender_summary") != null));

    List<JsonObject> groups = files.get("groups.json");
    assertEquals(1, groups.size());
    assertEquals(group, groups.get(0).getLong("id"));
    assertEquals("member", groups.get(0).getString("role"));

    List<JsonObject> boards = files.get("whiteboards.json");
    assertEquals(Set.of(board), ids(boards, "id"));
  }

  @Test
  @DisplayName("the export of a user messaging does not know is one empty last page")
  void unknownUser() throws Exception {
    List<Exports.Page> pages = pages(platform.ids().next());
    assertEquals(1, pages.size());
    assertTrue(pages.get(0).records().isEmpty());
  }

  @Test
  @DisplayName("a cursor messaging did not make is refused, never answered as a short page")
  void badCursor() {
    Throwable failure = assertThrowsAny(Exports.fetch(vertx, Erasure.DOMAIN, 1L, "nonsense", TIMEOUT));
    assertTrue(failure.getMessage().contains("messaging export failed"), failure.getMessage());
  }

  private static Throwable assertThrowsAny(Future<?> future) {
    try {
      await(future);
    } catch (Exception e) {
      return e.getCause() != null ? e.getCause() : e;
    }
    throw new AssertionError("expected a failure");
  }

  private static Set<Long> ids(List<JsonObject> items, String key) {
    Set<Long> out = new HashSet<>();
    items.forEach(i -> out.add(i.getLong(key)));
    return out;
  }
}
