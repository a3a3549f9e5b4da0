package io.kith.relations.service;

import io.kith.platform.events.Exports;
import io.kith.relations.api.RelationsEvents;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Relations' part of an account export, asked at {@code kith.export.relations} as the exporter asks it. */
class ExportTest extends RelationsTestBase {

  /** Every page of {@code user}'s part, in order. */
  private List<Exports.Page> pages(long user) throws Exception {
    List<Exports.Page> pages = new ArrayList<>();
    String cursor = null;
    do {
      Exports.Page page = await(Exports.fetch(vertx, RelationsEvents.DOMAIN, user, cursor, 30_000));
      assertTrue(page.records().size() <= Exports.MAX_RECORDS);
      pages.add(page);
      cursor = page.cursor();
      assertTrue(pages.size() < 1_000, "paging ends");
    } while (cursor != null);
    return pages;
  }

  /** The items of every page, by archive file. */
  private static Map<String, List<JsonObject>> files(List<Exports.Page> pages) {
    Map<String, List<JsonObject>> files = new LinkedHashMap<>();
    pages.forEach(p -> p.records().forEach(r -> files.computeIfAbsent(r.file(), f -> new ArrayList<>()).add(r.item())));
    return files;
  }

  private static List<Long> users(List<JsonObject> items) {
    return items == null ? List.of() : items.stream().map(i -> i.getJsonObject("user").getLong("id")).toList();
  }

  @Test
  @DisplayName("an export holds the user's own relations of every kind, and never who blocks, mutes, hides or tags them")
  void ownRelations() throws Exception {
    EveryKind k = everyKind();
    long me = k.me();
    long a = k.a();
    long b = k.b();
    long c = k.c();

    Map<String, List<JsonObject>> files = files(pages(me));

    assertEquals(List.of(a, c), users(files.get("following.json")));
    assertEquals(List.of(b, c), users(files.get("followers.json")));
    assertEquals(List.of(c), users(files.get("friends.json")));
    List<JsonObject> requests = files.get("requests.json");
    assertEquals(List.of(k.p1(), k.d()), users(requests));
    assertEquals(List.of("sent", "received"), requests.stream().map(r -> r.getString("direction")).toList());
    JsonObject groupItem = files.get("friend_groups.json").get(0);
    assertEquals(k.mine(), groupItem.getLong("id"));
    assertEquals("close", groupItem.getString("name"));
    assertEquals(List.of(c), groupItem.getJsonArray("members").getList());
    assertEquals(List.of(a), users(files.get("tags.json")));
    assertEquals("work", files.get("tags.json").get(0).getString("tag"));
    assertEquals(List.of(k.e()), users(files.get("blocks.json")));
    assertEquals(List.of(a), users(files.get("mutes.json")));
    assertEquals(List.of(b), users(files.get("hides.json")));
    assertTrue(files.get("following.json").get(0).getLong("since") > 0);
    assertEquals(Set.of("following.json", "followers.json", "friends.json", "requests.json", "friend_groups.json",
        "tags.json", "blocks.json", "mutes.json", "hides.json"), files.keySet());
    // a mutes, b hides from, a tags and f blocks me: the lists above are only mine, and f is nowhere
    assertFalse(files.values().stream().flatMap(List::stream)
        .anyMatch(item -> item.encode().contains(Long.toString(k.f()))), "nothing of who blocks the user");
  }

  @Test
  @DisplayName("a kind longer than a page pages across the cursor by id, each record once, and other users' items stay out")
  void pagesAcrossTheCursor() throws Exception {
    List<Long> u = newUsers(2);
    long me = u.get(0);
    long other = u.get(1);
    // more mutes than a page holds, written straight to the store (their users need not exist: the item keeps the id)
    List<JsonObject> rows = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (int i = 0; i < Exports.MAX_RECORDS + 23; i++) {
      rows.add(RelationsSeeder.edge(platform.ids().next(), EdgeStore.MUTE, me, 9_000_000_000L + i, now));
      rows.add(RelationsSeeder.edge(platform.ids().next(), EdgeStore.MUTE, other, 9_000_000_000L + i, now));
    }
    for (JsonObject row : rows) {
      await(platform.mongo().insert(EdgeStore.EDGES, row));
    }
    await(relations.mute(other, me));

    List<Exports.Page> pages = pages(me);

    List<JsonObject> mutes = files(pages).get("mutes.json");
    List<Long> ids = users(mutes);
    assertEquals(Exports.MAX_RECORDS + 23, ids.size());
    assertEquals(Exports.MAX_RECORDS + 23, new HashSet<>(ids).size(), "each once");
    for (int i = 0; i < ids.size(); i++) {
      assertEquals(9_000_000_000L + i, ids.get(i), "oldest first");
    }
    assertTrue(pages.stream().filter(p -> p.records().stream().anyMatch(r -> r.file().equals("mutes.json")))
        .count() >= 2, "the mutes span two pages");
    assertEquals(Set.of("mutes.json"), files(pages).keySet(), "the other user's mute of me is not mine");
  }

  @Test
  @DisplayName("an unknown user's part is empty, and a cursor that is not relations' is refused")
  void unknownUser() throws Exception {
    Exports.Page page = await(Exports.fetch(vertx, RelationsEvents.DOMAIN, 8_999_999_999L, null, 30_000));
    assertTrue(page.records().isEmpty());
    List<Exports.Page> all = pages(8_999_999_999L);
    assertTrue(all.stream().allMatch(p -> p.records().isEmpty()));
    assertNull(all.get(all.size() - 1).cursor());
    assertTrue(Exports.fetch(vertx, RelationsEvents.DOMAIN, newUser(), "bogus", 30_000)
        .toCompletionStage().toCompletableFuture().handle((p, err) -> err != null).get());
  }
}
