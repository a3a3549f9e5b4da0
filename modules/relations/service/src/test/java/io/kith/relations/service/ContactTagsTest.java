package io.kith.relations.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Contact tags: a user's private labels on other users. */
class ContactTagsTest extends RelationsTestBase {

  @Test
  @DisplayName("tagging is idempotent and case-insensitive; untagging removes only that tag")
  void tagAndUntag() throws Exception {
    List<Long> users = newUsers(2);
    long me = users.get(0);
    long bob = users.get(1);
    await(relations.tagUser(me, bob, "Work"));
    await(relations.tagUser(me, bob, "work"));
    await(relations.tagUser(me, bob, " WORK "));
    await(relations.tagUser(me, bob, "Chess club"));
    assertEquals(Set.of("Work", "Chess club"), strings(await(relations.tagsOn(me, bob)).getJsonArray("items")));

    await(relations.untagUser(me, bob, "WORK"));
    assertEquals(Set.of("Chess club"), strings(await(relations.tagsOn(me, bob)).getJsonArray("items")));
    await(relations.untagUser(me, bob, "work"));
    await(relations.untagUser(me, bob, "never used"));
    assertEquals(Set.of("Chess club"), strings(await(relations.tagsOn(me, bob)).getJsonArray("items")));
    assertTrue(await(relations.taggedUsers(me, "Work", PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    // tags do not depend on following, and do not create an edge
    JsonObject rel = await(relations.relationships(me, List.of(bob))).getJsonObject(Long.toString(bob));
    assertEquals(new JsonArray().add("Chess club"), rel.getJsonArray("tags"));
    assertEquals(Boolean.FALSE, rel.getBoolean("following"));
  }

  @Test
  @DisplayName("my tags are listed with how many users carry each, and each tag's users page newest first")
  void listsAndCounts() throws Exception {
    List<Long> users = newUsers(4);
    long me = users.get(0);
    List<Long> family = users.subList(1, 4);
    for (long u : family) {
      await(relations.tagUser(me, u, "Family"));
    }
    await(relations.tagUser(me, family.get(0), "Neighbours"));

    Map<String, Integer> counts = new HashMap<>();
    JsonArray items = await(relations.tags(me)).getJsonArray("items");
    for (int i = 0; i < items.size(); i++) {
      counts.put(items.getJsonObject(i).getString("tag"), items.getJsonObject(i).getInteger("count"));
    }
    assertEquals(Map.of("Family", 3, "Neighbours", 1), counts);

    JsonObject first = await(relations.taggedUsers(me, "family", PageRequest.first(2)).map(Page::toJson));
    assertEquals(List.of(family.get(2), family.get(1)), userIds(first));
    assertNotNull(first.getString("next"));
    JsonObject second = await(relations.taggedUsers(me, "FAMILY", PageRequest.after(first.getString("next"), 2))
        .map(Page::toJson));
    assertEquals(List.of(family.get(0)), userIds(second));
    assertNull(second.getString("next"));
    assertTrue(first.getJsonArray("items").getJsonObject(0).getLong("since") > 0);
    assertEquals(Set.of("Family", "Neighbours"), strings(await(relations.tagsOn(me, family.get(0))).getJsonArray("items")));
    assertTrue(await(relations.taggedUsers(me, "unknown", PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    failsWith("validation_failed", relations.taggedUsers(me, "", PageRequest.first(10)).map(Page::toJson));
  }

  @Test
  @DisplayName("tags are private: another user sees none of mine, through any call")
  void tagsArePrivate() throws Exception {
    List<Long> users = newUsers(3);
    long me = users.get(0);
    long other = users.get(1);
    long target = users.get(2);
    await(relations.tagUser(me, target, "Secret"));

    assertTrue(await(relations.tags(other)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.taggedUsers(other, "Secret", PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.tagsOn(other, target)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.relationships(other, List.of(target))).getJsonObject(Long.toString(target))
        .getJsonArray("tags").isEmpty());
    // nor does the tagged user see how they were tagged
    assertTrue(await(relations.tags(target)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.tagsOn(target, me)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.relationships(target, List.of(me))).getJsonObject(Long.toString(me))
        .getJsonArray("tags").isEmpty());

    // the other user's tag of the same name is their own
    await(relations.tagUser(other, target, "secret"));
    JsonArray mine = await(relations.tags(me)).getJsonArray("items");
    assertEquals(1, mine.size());
    assertEquals(1, mine.getJsonObject(0).getInteger("count"));
  }

  @Test
  @DisplayName("tags must be 1 to 30 characters; tagging yourself or a missing user is refused")
  void refusals() throws Exception {
    List<Long> users = newUsers(2);
    long me = users.get(0);
    long bob = users.get(1);
    await(relations.tagUser(me, bob, "t".repeat(30)));
    failsWith("validation_failed", relations.tagUser(me, bob, "t".repeat(31)));
    failsWith("validation_failed", relations.tagUser(me, bob, ""));
    failsWith("validation_failed", relations.tagUser(me, bob, "  "));
    failsWith("validation_failed", relations.tagUser(me, bob, "tab\there"));
    failsWith("self_relation", relations.tagUser(me, me, "me"));
    failsWith("user_not_found", relations.tagUser(me, 8_999_999_999_997L, "ghost"));
    assertEquals(1, await(relations.tags(me)).getJsonArray("items").size());
  }

  @Test
  @DisplayName("a user has at most 200 distinct tags: the 201st is refused, an existing tag still applies")
  void tagLimit() throws Exception {
    List<Long> users = newUsers(3);
    long me = users.get(0);
    long bob = users.get(1);
    long carol = users.get(2);
    List<Future<Void>> tagging = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      tagging.add(relations.tagUser(me, bob, "tag-" + i));
    }
    await(Future.all(tagging));
    assertEquals(200, await(relations.tags(me)).getJsonArray("items").size());

    failsWith("limit_reached", relations.tagUser(me, bob, "tag-200"));
    failsWith("limit_reached", relations.tagUser(me, carol, "another"));
    await(relations.tagUser(me, carol, "TAG-7"));
    JsonArray onCarol = await(relations.tagsOn(me, carol)).getJsonArray("items");
    assertEquals(1, onCarol.size());
    assertTrue("tag-7".equalsIgnoreCase(onCarol.getString(0)), onCarol.encode());
    assertEquals(200, await(relations.tags(me)).getJsonArray("items").size());

    // a tag that no longer carries anyone frees its place
    await(relations.untagUser(me, bob, "tag-0"));
    await(relations.tagUser(me, carol, "another"));
  }

  private static Set<String> strings(JsonArray array) {
    Set<String> out = new HashSet<>();
    for (int i = 0; i < array.size(); i++) {
      out.add(array.getString(i));
    }
    return out;
  }
}
