package io.kith.relations.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.Erasures;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.RedisAPI;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A deleted account's relations are erased on accounts' {@code AccountDeleted}, appended as accounts' deletion sweeper
 * appends it, with the other users' counts, groups, lists and hot sets left exact.
 */
class ErasureTest extends RelationsTestBase {

  /** {@link #everyKind()}, with the others' hot sets and a's follower list copy built, so their cleaning is checked. */
  private EveryKind scenario() throws Exception {
    EveryKind cast = everyKind();
    long me = cast.me();
    long a = cast.a();
    long c = cast.c();
    for (long other : others(cast)) {
      await(relationsInternal.ties(other, List.of(me)));
    }
    await(relationsInternal.eligibleFollowers(a, PageRequest.first(100)));
    assertTrue(await(relationsInternal.ties(c, List.of(me))).getJsonObject(Long.toString(me)).getBoolean("friend"));
    return cast;
  }

  private static List<Long> others(EveryKind k) {
    return List.of(k.a(), k.b(), k.c(), k.d(), k.p1(), k.e(), k.f());
  }

  /** Appends {@code AccountDeleted} on the accounts stream, as the deletion sweeper does. */
  private DomainEvent delete(long user) throws Exception {
    return await(platform.events().publisher(AccountsEvents.DOMAIN)
        .append(new AccountDeleted(user, System.currentTimeMillis())));
  }

  private JsonObject finishedReport(long user) throws Exception {
    Erasures erasures = new Erasures(platform.mongo());
    pollUntil("relations erased " + user, () -> erasures.report(Erasure.DOMAIN, user)
        .map(r -> r != null && r.getLong("finished_at") != null));
    return await(erasures.report(Erasure.DOMAIN, user));
  }

  private long count(String collection, JsonObject query) throws Exception {
    return await(platform.mongo().count(collection, query));
  }

  private static JsonObject either(String x, String y, long user) {
    return new JsonObject().put("$or", new JsonArray().add(new JsonObject().put(x, user))
        .add(new JsonObject().put(y, user)));
  }

  /** Every other user's counts equal a recount of their edges. */
  private void assertCountsExact(List<Long> users) throws Exception {
    for (long user : users) {
      JsonObject counts = await(relationsInternal.counts(user));
      String who = "counts of " + user;
      assertEquals(count(EdgeStore.EDGES, new JsonObject().put("t", "f").put("a", user)),
          counts.getLong("following_count"), who);
      assertEquals(count(EdgeStore.EDGES, new JsonObject().put("t", "f").put("b", user)),
          counts.getLong("follower_count"), who);
      assertEquals(count(EdgeStore.EDGES, new JsonObject().put("t", "F").put("a", user)),
          counts.getLong("friend_count"), who);
    }
  }

  @Test
  @DisplayName("relations reads the accounts event by the names accounts appends it with")
  void eventNamesMatchAccounts() {
    assertEquals(AccountsEvents.DOMAIN, Erasure.ACCOUNTS_STREAM);
    assertEquals(AccountsEvents.ACCOUNT_DELETED, Erasure.ACCOUNT_DELETED);
    assertEquals(Map.of("user_id", 7L, "deleted_at", 9L), new AccountDeleted(7, 9).toJson().getMap());
  }

  @Test
  @DisplayName("a deleted account leaves no edge, group, tag or count, and the report counts what went")
  void erasesEverything() throws Exception {
    EveryKind k = scenario();
    long bystanderEdges = count(EdgeStore.EDGES, either("a", "b", k.bystander()));

    delete(k.me());
    JsonObject report = finishedReport(k.me());

    long me = k.me();
    assertEquals(0, count(EdgeStore.EDGES, either("a", "b", me)));
    assertEquals(0, count(EdgeStore.COUNTS, new JsonObject().put("user", me)));
    assertEquals(0, count(GroupStore.GROUPS, new JsonObject().put("owner", me)));
    assertEquals(0, count(GroupStore.MEMBERS, either("owner", "member", me)));
    assertEquals(0, count(TagStore.TAGS, either("owner", "target", me)));
    assertEquals(new JsonObject().put("follows", 4).put("friendships", 2).put("requests", 2).put("blocks", 2)
        .put("mutes", 2).put("hides", 2).put("friend_groups", 1).put("group_memberships", 1).put("tags", 1)
        .put("tagged_by", 1).put("counts", 1), copyWithout(report.getJsonObject("counts"), "redis"));
    assertEquals(12, report.getJsonArray("steps").size(), report.encode());

    assertTrue(await(relations.friends(me, PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.groups(me)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.tags(me)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.blocks(me, PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.incomingRequests(me, PageRequest.first(10)).map(Page::toJson))
        .getJsonArray("items").isEmpty());
    JsonObject counts = await(relationsInternal.counts(me));
    assertEquals(new JsonObject().put("following_count", 0L).put("follower_count", 0L).put("friend_count", 0L),
        counts);
    RedisAPI redis = RedisAPI.api(platform.redis());
    for (String set : HotSets.ALL) {
      assertEquals(0, await(redis.exists(List.of(HotSets.key(set, me)))).toInteger(), set);
    }
    assertEquals(0, await(redis.exists(List.of(FollowerLists.key(me)))).toInteger());

    assertEquals(bystanderEdges, count(EdgeStore.EDGES, either("a", "b", k.bystander())), "the bystander's edges");
    assertEquals(1, count(TagStore.TAGS, new JsonObject().put("owner", k.bystander())));
  }

  private static JsonObject copyWithout(JsonObject json, String field) {
    JsonObject copy = json.copy();
    copy.remove(field);
    return copy;
  }

  @Test
  @DisplayName("after an erasure the other users' counts equal a recount and their lists, groups and sets lack the user")
  void othersStayExact() throws Exception {
    EveryKind k = scenario();
    long me = k.me();

    delete(me);
    finishedReport(me);

    assertCountsExact(List.of(k.a(), k.b(), k.c(), k.d(), k.p1(), k.e(), k.f(), k.bystander()));
    assertEquals(new JsonObject().put("following_count", 1L).put("follower_count", 1L).put("friend_count", 1L),
        await(relationsInternal.counts(k.c())), "c keeps the bystander");
    assertEquals(1L, await(relationsInternal.counts(k.a())).getLong("follower_count"), "a keeps the bystander");
    for (long other : others(k)) {
      JsonObject ties = await(relationsInternal.ties(other, List.of(me))).getJsonObject(Long.toString(me));
      for (String tie : ties.fieldNames()) {
        assertFalse(ties.getBoolean(tie), other + " still has " + tie + ": " + ties);
      }
    }
    assertEquals(new JsonArray().add(k.bystander()),
        await(relationsInternal.eligibleFollowers(k.a(), PageRequest.first(100)).map(Page::toJson))
            .getJsonArray("items"));
    assertEquals(List.of(k.bystander()), userIds(await(relations.followers(k.a(), k.a(), PageRequest.first(10))
        .map(Page::toJson))));
    assertEquals(List.of(k.bystander()), userIds(await(relations.friends(k.c(), PageRequest.first(10))
        .map(Page::toJson))));
    assertEquals(List.of(k.bystander()), userIds(await(relations.groupMembers(k.c(), k.pals(), PageRequest.first(10))
        .map(Page::toJson))));
    assertEquals(1L, await(relations.groups(k.c())).getJsonArray("items").getJsonObject(0).getLong("size"));
    assertTrue(await(relations.tags(k.a())).getJsonArray("items").isEmpty());
    assertTrue(await(relations.blocks(k.f(), PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.mutes(k.a(), PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.hides(k.b(), PageRequest.first(10)).map(Page::toJson)).getJsonArray("items").isEmpty());
    assertTrue(await(relations.outgoingRequests(k.d(), PageRequest.first(10)).map(Page::toJson))
        .getJsonArray("items").isEmpty());
    assertTrue(await(relations.incomingRequests(k.p1(), PageRequest.first(10)).map(Page::toJson))
        .getJsonArray("items").isEmpty());
  }

  @Test
  @DisplayName("a second AccountDeleted for the same user changes nothing: the report and every count stay as they were")
  void secondDeliveryChangesNothing() throws Exception {
    EveryKind k = scenario();
    delete(k.me());
    JsonObject first = finishedReport(k.me());
    List<JsonObject> before = countsOf(k);

    DomainEvent again = delete(k.me());
    RedisAPI redis = RedisAPI.api(platform.redis());
    pollUntil("the second AccountDeleted handled", () -> redis.exists(List.of("events:done:{" + Erasure.GROUP + "}:"
        + again.id())).map(r -> r.toInteger() > 0));

    assertEquals(first, await(new Erasures(platform.mongo()).report(Erasure.DOMAIN, k.me())));
    assertEquals(before, countsOf(k));
    assertCountsExact(List.of(k.a(), k.b(), k.c(), k.bystander()));
  }

  private List<JsonObject> countsOf(EveryKind k) throws Exception {
    List<Future<JsonObject>> all = List.of(relationsInternal.counts(k.a()), relationsInternal.counts(k.b()),
        relationsInternal.counts(k.c()), relationsInternal.counts(k.bystander()));
    return await(Future.all(all)).list();
  }

  @Test
  @DisplayName("an erasure resumed after a crash skips the steps its report records and runs the rest")
  void resumeSkipsRecordedSteps() throws Exception {
    List<Long> u = newUsers(3);
    long me = u.get(0);
    await(relations.mute(me, u.get(1)));
    await(relations.follow(me, u.get(2)));
    // a run that crashed after recording its mutes step (as if that step had erased 5 mutes)
    await(new Erasures(platform.mongo()).step(Erasure.DOMAIN, me, "mutes", "mutes", 5));

    delete(me);
    JsonObject report = finishedReport(me);

    assertEquals(5L, report.getJsonObject("counts").getLong("mutes"), "the recorded step was not run again");
    assertEquals(1, count(EdgeStore.EDGES, new JsonObject().put("t", "m").put("a", me)));
    assertEquals(1L, report.getJsonObject("counts").getLong("follows"));
    assertEquals(0, count(EdgeStore.EDGES, new JsonObject().put("t", "f").put("a", me)));
    assertEquals(0L, await(relationsInternal.counts(u.get(2))).getLong("follower_count"));
  }

  @Test
  @DisplayName("an AccountDeleted of a user without relations finishes an empty report and touches nobody")
  void userWithoutRelations() throws Exception {
    List<Long> u = newUsers(3);
    befriend(u.get(1), u.get(2));

    delete(u.get(0));
    JsonObject report = finishedReport(u.get(0));

    assertEquals(0L, report.getJsonObject("counts").getLong("follows"));
    assertEquals(0L, report.getJsonObject("counts").getLong("friend_groups"));
    assertEquals(new JsonObject().put("following_count", 1L).put("follower_count", 1L).put("friend_count", 1L),
        await(relationsInternal.counts(u.get(1))));
  }
}
