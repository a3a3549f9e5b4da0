package io.kith.notifications.service;

import io.kith.notifications.api.Notifications;
import io.kith.platform.page.Page;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.RedisNodes;
import io.kith.relations.api.RelationsEvents;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Filtered queries, paging, mark read, delete, grouping and refusals")
class QueriesTest extends NotificationsTestBase {

  /** Gives {@code user} a follower, a friend and a follow-request notification from each of {@code from}. */
  private void fill(long user, List<Long> from) throws Exception {
    for (long f : from) {
      relationsEvent(RelationsEvents.USER_FOLLOWED, f, user);
      relationsEvent(RelationsEvents.FRIENDSHIP_FORMED, f, user);
      relationsEvent(RelationsEvents.FOLLOW_REQUESTED, f, user);
    }
    drain(user);
  }

  private static List<Long> ids(List<JsonObject> items) {
    return items.stream().map(n -> n.getLong("id")).toList();
  }

  @Test
  @DisplayName("types and field conditions filter inside the list, newest first, paged by max_id, since_id, offset")
  void filtersAndPaging() throws Exception {
    long alice = KithTestKit.newUserId();
    List<Long> from = List.of(KithTestKit.newUserId(), KithTestKit.newUserId(), KithTestKit.newUserId());
    fill(alice, from);
    List<JsonObject> everything = all(alice);
    assertEquals(9, everything.size());
    List<Long> order = ids(everything);
    List<Long> sorted = new ArrayList<>(order);
    sorted.sort((a, b) -> Long.compare(b, a));
    assertEquals(sorted, order, "newest first");

    List<JsonObject> two = all(alice, types(Notifications.FRIEND, Notifications.FOLLOW_REQUEST)
        .put("where", new JsonObject().put("from_user", from.get(1))));
    assertEquals(2, two.size(), two.toString());
    assertTrue(two.stream().allMatch(n -> n.getLong("from_user").equals(from.get(1))));
    assertEquals(3, all(alice, types(Notifications.FOLLOWER)).size());

    JsonObject first = await(notifications.list(alice, filters(new JsonObject().put("limit", 4)),
        pageOf(new JsonObject().put("limit", 4))).map(Page::toJson));
    assertEquals(order.subList(0, 4), ids(items(first)));
    assertEquals(order.get(3), first.getLong("next_max_id"));
    assertEquals(order.get(0), first.getLong("newest_id"));
    JsonObject second = await(notifications.list(alice, filters(new JsonObject().put("limit", 4)
        .put("max_id", first.getLong("next_max_id"))), pageOf(new JsonObject().put("limit", 4)
        .put("max_id", first.getLong("next_max_id")))).map(Page::toJson));
    assertEquals(order.subList(4, 8), ids(items(second)));
    JsonObject offset = await(notifications.list(alice, filters(new JsonObject().put("limit", 3).put("offset", 5)),
        pageOf(new JsonObject().put("limit", 3).put("offset", 5))).map(Page::toJson));
    assertEquals(order.subList(5, 8), ids(items(offset)));
    JsonObject since = await(notifications.list(alice, filters(new JsonObject().put("since_id", order.get(2))),
        pageOf(new JsonObject().put("since_id", order.get(2)))).map(Page::toJson));
    assertEquals(order.subList(0, 2), ids(items(since)));
    assertNull(since.getLong("next_max_id"), "a short page ends the list");

    // read state is a condition too
    await(notifications.markRead(alice, List.of(order.get(0), order.get(1))));
    assertEquals(7, all(alice, where("unread", true)).size());
    assertEquals(order.subList(0, 2), ids(all(alice, where("unread", false))));
  }

  private static List<JsonObject> items(JsonObject page) {
    List<JsonObject> out = new ArrayList<>();
    page.getJsonArray("items").forEach(n -> out.add((JsonObject) n));
    return out;
  }

  @Test
  @DisplayName("filters over many types and conditions read the indexes page by page and agree with a plain filter")
  void filtersAcrossPages() throws Exception {
    long alice = KithTestKit.newUserId();
    List<Long> from = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      from.add(KithTestKit.newUserId());
    }
    fill(alice, from);
    List<JsonObject> everything = all(alice);
    assertEquals(90, everything.size());
    long target = from.get(3);
    JsonObject query = types(Notifications.FOLLOWER, Notifications.FRIEND);
    List<Long> expectedTypes = ids(everything.stream().filter(n -> n.getString("type").equals(Notifications.FOLLOWER)
        || n.getString("type").equals(Notifications.FRIEND)).toList());
    assertEquals(expectedTypes, ids(all(alice, query)), "two types, newest first, across index pages");
    List<Long> small = new ArrayList<>();
    Long maxId = null;
    do {
      JsonObject q = query.copy().put("limit", 7);
      if (maxId != null) {
        q.put("max_id", maxId);
      }
      JsonObject page = await(notifications.list(alice, filters(q), pageOf(q)).map(Page::toJson));
      page.getJsonArray("items").forEach(n -> small.add(((JsonObject) n).getLong("id")));
      maxId = page.getLong("next_max_id");
    } while (maxId != null);
    assertEquals(expectedTypes, small, "the same ids in pages of 7");
    JsonObject withCondition = query.copy().put("where", where("from_user", target).getJsonObject("where"));
    List<Long> expected = ids(everything.stream().filter(n -> expectedTypes.contains(n.getLong("id"))
        && n.getLong("from_user") == target).toList());
    assertEquals(2, expected.size());
    assertEquals(expected, ids(all(alice, withCondition)));
  }

  @Test
  @DisplayName("queries and writes keep working after Redis forgot the scripts (they run by SHA, reloaded on NOSCRIPT)")
  void scriptsReloaded() throws Exception {
    long alice = KithTestKit.newUserId();
    fill(alice, List.of(KithTestKit.newUserId(), KithTestKit.newUserId()));
    long before = await(notifications.unreadCounts(alice)).getLong("total");
    forgetScripts();
    assertEquals(before, await(notifications.unreadCounts(alice)).getLong("total"));
    forgetScripts();
    JsonObject marked = await(notifications.markAllRead(alice));
    assertEquals(0L, marked.getJsonObject("counts").getLong("total"));
    assertCountersMatchScan(alice);
  }

  /** SCRIPT FLUSH on every master: a cluster client would send it to one node only. */
  private void forgetScripts() throws Exception {
    await(RedisNodes.onEveryMaster(vertx, platform.redis(), () -> Request.cmd(Command.SCRIPT).arg("FLUSH")));
  }

  @Test
  @DisplayName("mark read and delete by ids, all and condition keep the counters equal to a scan")
  void markAndDelete() throws Exception {
    long alice = KithTestKit.newUserId();
    List<Long> from = List.of(KithTestKit.newUserId(), KithTestKit.newUserId());
    fill(alice, from);
    JsonObject counts = await(notifications.unreadCounts(alice));
    assertEquals(6L, counts.getLong("total"));
    assertEquals(2L, counts.getJsonObject("by_type").getLong(Notifications.FRIEND));

    JsonObject marked = await(notifications.markReadWhere(alice, types(Notifications.FRIEND)));
    assertEquals(2, marked.getInteger("changed"));
    assertEquals(0L, marked.getJsonObject("counts").getJsonObject("by_type").getLong(Notifications.FRIEND));
    assertEquals(4L, marked.getJsonObject("counts").getLong("total"));
    assertEquals(0, await(notifications.markReadWhere(alice, types(Notifications.FRIEND))).getInteger("changed"),
        "marking again changes nothing");
    assertCountersMatchScan(alice);

    JsonObject gone = await(notifications.deleteWhere(alice, where("from_user", from.get(0))));
    assertEquals(3, gone.getInteger("deleted"));
    assertEquals(3, all(alice).size());
    assertCountersMatchScan(alice);

    List<Long> left = ids(all(alice));
    JsonObject one = await(notifications.delete(alice, List.of(left.get(0))));
    assertEquals(1, one.getInteger("deleted"));
    JsonObject allRead = await(notifications.markAllRead(alice));
    assertEquals(0L, allRead.getJsonObject("counts").getLong("total"));
    assertCountersMatchScan(alice);
  }

  @Test
  @DisplayName("another user's notification ids match nothing: not read, not marked, not deleted")
  void othersNotifications() throws Exception {
    long alice = KithTestKit.newUserId();
    long mallory = KithTestKit.newUserId();
    fill(alice, List.of(KithTestKit.newUserId()));
    fill(mallory, List.of(KithTestKit.newUserId()));
    List<Long> alices = ids(all(alice));

    assertEquals(0, await(notifications.markRead(mallory, alices)).getInteger("changed"));
    assertEquals(0, await(notifications.delete(mallory, alices)).getInteger("deleted"));
    assertEquals(alices, ids(all(alice)));
    assertEquals(3L, await(notifications.unreadCounts(alice)).getLong("total"), "alice's stay unread");
    assertTrue(all(mallory).stream().noneMatch(n -> alices.contains(n.getLong("id"))));
    assertCountersMatchScan(alice);
    assertCountersMatchScan(mallory);
  }

  @Test
  @DisplayName("the grouped view folds same-type notifications about the same object with the latest actors")
  void grouped() throws Exception {
    long alice = KithTestKit.newUserId();
    List<Long> from = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      from.add(KithTestKit.newUserId());
    }
    for (long f : from) {
      relationsEvent(RelationsEvents.USER_FOLLOWED, f, alice);
    }
    relationsEvent(RelationsEvents.FRIENDSHIP_FORMED, from.get(0), alice);
    drain(alice);
    JsonObject page = await(notifications.grouped(alice, filters(new JsonObject()), pageOf(new JsonObject()))
        .map(Page::toJson));
    JsonArray groups = page.getJsonArray("items");
    assertEquals(2, groups.size(), page.encode());
    JsonObject friends = groups.getJsonObject(0);
    assertEquals(Notifications.FRIEND, friends.getString("type"), "the newest group first: " + page.encode());
    JsonObject followers = groups.getJsonObject(1);
    assertEquals(5, followers.getInteger("count"));
    assertEquals(5, followers.getInteger("actor_count"));
    assertEquals(5, followers.getInteger("unread"));
    assertEquals(from.get(4), followers.getJsonObject("latest").getLong("from_user"));

    JsonObject limited = await(notifications.grouped(alice, filters(new JsonObject().put("limit", 1)),
        pageOf(new JsonObject().put("limit", 1))).map(Page::toJson));
    assertEquals(1, limited.getJsonArray("items").size());
    JsonObject next = await(notifications.grouped(alice, filters(new JsonObject().put("limit", 1)
        .put("max_id", limited.getLong("next_max_id"))), pageOf(new JsonObject().put("limit", 1)
        .put("max_id", limited.getLong("next_max_id")))).map(Page::toJson));
    assertEquals(Notifications.FOLLOWER, next.getJsonArray("items").getJsonObject(0).getString("type"));
    assertEquals(5, next.getJsonArray("items").getJsonObject(0).getInteger("count"), "a group is never split");
  }

  @Test
  @DisplayName("unknown types, unknown fields, bad values and out-of-range limits are refused naming them")
  void refusals() throws Exception {
    long alice = KithTestKit.newUserId();
    failsWith("validation_failed", "types", notifications.list(alice, filters(types("likes")), pageOf(types("likes")))
        .map(Page::toJson));
    failsWith("validation_failed", "where.colour", notifications.list(alice, filters(where("colour", 1)),
        pageOf(where("colour", 1))).map(Page::toJson));
    failsWith("validation_failed", "where.post", notifications.list(alice, filters(where("post", "x")),
        pageOf(where("post", "x"))).map(Page::toJson));
    failsWith("validation_failed", "where.post", notifications.list(alice, filters(where("post", -1)),
        pageOf(where("post", -1))).map(Page::toJson));
    failsWith("validation_failed", "where.unread", notifications.list(alice, filters(where("unread", 1)),
        pageOf(where("unread", 1))).map(Page::toJson));
    failsWith("validation_failed", "limit", notifications.list(alice, filters(new JsonObject().put("limit", 0)),
        pageOf(new JsonObject().put("limit", 0))).map(Page::toJson));
    failsWith("validation_failed", "limit", notifications.list(alice, filters(new JsonObject().put("limit", 101)),
        pageOf(new JsonObject().put("limit", 101))).map(Page::toJson));
    failsWith("validation_failed", "offset", notifications.list(alice, filters(new JsonObject().put("offset", 1_001)),
        pageOf(new JsonObject().put("offset", 1_001))).map(Page::toJson));
    failsWith("validation_failed", "max_id", notifications.list(alice, filters(new JsonObject().put("max_id", -5)),
        pageOf(new JsonObject().put("max_id", -5))).map(Page::toJson));
    failsWith("validation_failed", "types", notifications.markReadWhere(alice, types("comment", "poke")));
    failsWith("validation_failed", "where", notifications.deleteWhere(alice, new JsonObject()));
    failsWith("validation_failed", "ids", notifications.markRead(alice, List.of()));
    List<Long> tooMany = new ArrayList<>();
    for (long i = 1; i <= 1_001; i++) {
      tooMany.add(i);
    }
    failsWith("validation_failed", "ids", notifications.delete(alice, tooMany));
    failsWith("validation_failed", "limit", notifications.grouped(alice, filters(new JsonObject().put("limit", 500)),
        pageOf(new JsonObject().put("limit", 500))).map(Page::toJson));
    failsWith("unauthenticated", null, notifications.list(0, filters(new JsonObject()), pageOf(new JsonObject()))
        .map(Page::toJson));
  }
}
