package io.kith.feeds.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.feeds.api.FeedsErrors;
import io.kith.platform.events.Erasures;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The erasure of a deleted account ({@code AccountDeleted} appended on the accounts stream as accounts does): nothing
 * of the user is left, others' counters equal a recount, a repeated delivery changes nothing.
 */
class ErasureTest extends FeedsTestBase {

  /**
   * A deleted user {@code d} with data of every kind, {@code a} (follows d) and {@code b} (d's friend) interacting
   * with them, and {@code u}, whom nothing of d touches.
   */
  private record World(long d, long a, long b, long u, long p1, long p2, long media, long dRepost, long aPost,
                       long bPost, long uPost, long aRepost, long aReply, long aOnly) {
  }

  private World world() throws Exception {
    List<Long> users = newUsers(4);
    long d = users.get(0);
    long a = users.get(1);
    long b = users.get(2);
    long u = users.get(3);
    follow(a, d);
    befriend(b, d);
    long aPost = await(feeds.publish(a, body("public").put("mentions", new JsonArray().add(d)))).getLong("id");
    long bPost = publishPublic(b);
    long aOnly = publish(a, "only", audience(List.of(d, b), List.of(), List.of()));
    long uPost = publishPublic(u);
    long p2 = publish(d, "friends");
    long dRepost = await(feeds.repost(d, bPost, body("public"))).getLong("id");
    long dComment = comment(d, aPost, null);
    comment(d, aPost, null);
    long aReply = comment(a, aPost, dComment);
    await(feeds.like(d, aPost));
    await(feeds.like(d, bPost));
    long media = uploadPng(d);
    long p1 = await(feeds.publish(d, body("public").put("media", new JsonArray().add(media)))).getLong("id");
    comment(a, p1, null);
    comment(b, p1, null);
    await(feeds.like(b, p1));
    long aRepost = await(feeds.repost(a, p1, body("public"))).getLong("id");
    await(feeds.like(a, uPost));
    comment(a, uPost, null);
    awaitInHome(a, p1);
    awaitInHome(a, dRepost);
    awaitInMoments(b, p2);
    return new World(d, a, b, u, p1, p2, media, dRepost, aPost, bPost, uPost, aRepost, aReply, aOnly);
  }

  /** A world whose user {@code d} was deleted and erased. */
  private World erasedWorld() throws Exception {
    World w = world();
    deleted(w.d());
    finishedReport(w.d());
    return w;
  }

  private long comment(long actor, long post, Long replyTo) throws Exception {
    JsonObject body = new JsonObject().put("text", "comment by " + actor);
    if (replyTo != null) {
      body.put("reply_to", replyTo);
    }
    return await(feeds.comment(actor, post, body)).getLong("id");
  }

  /** Appends {@code AccountDeleted} as accounts' deletion sweeper does. */
  private void deleted(long user) throws Exception {
    await(platform.events().publisher(AccountsEvents.DOMAIN)
        .append(new AccountDeleted(user, System.currentTimeMillis())));
  }

  /** Waits until feeds' erasure report of {@code user} is finished; returns it. */
  private JsonObject finishedReport(long user) throws Exception {
    Erasures erasures = new Erasures(platform.mongo());
    pollUntil("the feeds erasure of " + user + " finished", () -> erasures.report("feeds", user)
        .map(r -> r != null && r.getLong("finished_at") != null));
    return await(erasures.report("feeds", user));
  }

  private long count(String collection, JsonObject query) throws Exception {
    return await(platform.mongo().count(collection, query));
  }

  /** The post's stored counters equal what its records hold. */
  private void assertCountersExact(long post) throws Exception {
    JsonObject doc = await(platform.mongo().findOne(PostStore.POSTS, new JsonObject().put("_id", post), null));
    JsonObject counted = new JsonObject()
        .put("likes", count(PostStore.LIKES, new JsonObject().put("p", post)))
        .put("comments", count(PostStore.COMMENTS, new JsonObject().put("post", post)))
        .put("reposts", count(PostStore.POSTS, new JsonObject().put("repost_of", post)
            .put("deleted", new JsonObject().put("$ne", true))))
        .put("reposts_total", count(PostStore.POSTS, new JsonObject().put("repost_of", post)));
    assertEquals(counted, PostStore.counters(doc), "counters of post " + post);
  }

  /** The report's counts but the Redis keys', which depend on which of the user's sets were ever read. */
  private static JsonObject withoutRedisKeys(JsonObject counts) {
    JsonObject out = counts.copy();
    out.remove("redis_keys");
    return out;
  }

  private static JsonObject withoutFollowerTimelines(JsonObject counts) {
    JsonObject out = counts.copy();
    out.remove("follower_timelines");
    return out;
  }

  private JsonObject counts(long viewer, long post) throws Exception {
    return await(feeds.post(viewer, post)).getJsonObject("counts");
  }

  private boolean exists(String key) throws Exception {
    return await(platform.redis().send(Request.cmd(Command.EXISTS).arg(key))).toInteger() == 1;
  }

  @Test
  @DisplayName("a deleted user's posts, reposts, comments, likes and media leave feeds, and the report counts them")
  void erasesEverythingOfTheUser() throws Exception {
    World w = world();
    home(w.b());
    assertNotNull(await(platform.redis().send(Request.cmd(Command.ZSCORE)
        .arg(ViewerFlags.key(ViewerFlags.LIKED, w.b())).arg(w.p1()))), "b's liked set was built with p1");

    deleted(w.d());
    JsonObject counts = finishedReport(w.d()).getJsonObject("counts");

    // relations erases the user's follows from the same event at the same time: the followers feeds reached are
    // those relations still knew when feeds asked (both, or fewer; a timeline entry left behind is skipped at read,
    // staleTimelineEntryIsSkipped), never more
    long reached = counts.getLong("follower_timelines");
    assertTrue(reached >= 0 && reached <= 2, "follower timelines reached: " + reached);
    assertEquals(new JsonObject().put("comments", 2L).put("likes", 2L)
        .put("comments_received", 2L).put("likes_received", 1L).put("reposts", 1L).put("posts", 2L).put("media", 1L)
        .put("references", 3L), withoutFollowerTimelines(withoutRedisKeys(counts)));
    long d = w.d();
    List<Long> dPosts = List.of(w.p1(), w.p2(), w.dRepost());
    assertEquals(0, count(PostStore.POSTS, new JsonObject().put("author", d)));
    assertEquals(0, count(PostStore.COMMENTS, new JsonObject().put("author", d)));
    assertEquals(0, count(PostStore.COMMENTS, new JsonObject().put("reply_to_author", d)));
    assertEquals(0, count(PostStore.COMMENTS, new JsonObject().put("post", new JsonObject().put("$in", dPosts))));
    assertEquals(0, count(PostStore.LIKES, new JsonObject().put("u", d)));
    assertEquals(0, count(PostStore.LIKES, new JsonObject().put("a", d)));
    assertEquals(0, count(PostStore.POSTS, new JsonObject().put("mentions", d)));
    assertEquals(0, count(PostStore.POSTS, new JsonObject().put("aud.users", d)));
    assertEquals(0, count("media_items", new JsonObject().put("owner", d)));
    assertEquals(0, count("media.files", new JsonObject().put("filename", Long.toString(w.media()))));
  }

  @Test
  @DisplayName("after the erasure the service answers not found for the user's posts and no list shows them")
  void serviceShowsNothingOfTheUser() throws Exception {
    World w = erasedWorld();

    failsWith(FeedsErrors.POST_NOT_FOUND.code(), feeds.post(w.a(), w.p1()));
    failsWith(FeedsErrors.POST_NOT_FOUND.code(), feeds.post(w.b(), w.p2()));
    failsWith(FeedsErrors.POST_NOT_FOUND.code(), feeds.post(w.a(), w.dRepost()));
    failsWith(FeedsErrors.POST_NOT_FOUND.code(), feeds.comment(w.a(), w.p1(), new JsonObject().put("text", "late")));
    assertEquals(List.of(), userPosts(w.a(), w.d()));
    List<Long> home = home(w.a());
    assertFalse(home.contains(w.p1()) || home.contains(w.dRepost()), "a's home still shows d's posts: " + home);
    assertFalse(moments(w.b()).contains(w.p2()));
    assertFalse(latest(w.a()).contains(w.p1()));
    List<Object> held = await(platform.redis().send(Request.cmd(Command.LRANGE)
        .arg(Timelines.key(Timelines.HOME, w.a())).arg(0).arg(-1))).stream().map(r -> (Object) r.toString()).toList();
    assertFalse(held.contains(Long.toString(w.p1())), "a's home timeline in Redis still holds p1");
    for (String kind : List.of(Timelines.HOME, Timelines.MOMENTS, Timelines.OWN)) {
      assertFalse(exists(Timelines.key(kind, w.d())), "d's " + kind + " timeline is left");
    }
    assertFalse(exists(ViewerFlags.key(ViewerFlags.LIKED, w.d())));
    assertNull(await(platform.redis().send(Request.cmd(Command.ZSCORE)
        .arg(ViewerFlags.key(ViewerFlags.LIKED, w.b())).arg(w.p1()))), "b's liked set still holds p1");
    // others' reposts of the user's posts stay, their original shown as deleted
    assertEquals("deleted", await(feeds.post(w.a(), w.aRepost())).getJsonObject("repost_of").getString("state"));
  }

  @Test
  @DisplayName("others' counters equal a recount, a reply to the user reads as a plain comment, and mentions go")
  void othersStayExact() throws Exception {
    World w = erasedWorld();

    for (long post : List.of(w.aPost(), w.bPost(), w.uPost(), w.aRepost())) {
      assertCountersExact(post);
    }
    assertEquals(new JsonObject().put("likes", 0L).put("comments", 1L).put("reposts", 0L).put("reposts_total", 0L),
        counts(w.a(), w.aPost()));
    assertEquals(new JsonObject().put("likes", 0L).put("comments", 0L).put("reposts", 0L).put("reposts_total", 0L),
        counts(w.b(), w.bPost()));
    JsonObject comments = await(feeds.comments(w.a(), w.aPost(), PageRequest.ids(0, 0, 100)).map(Page::toJson));
    assertEquals(List.of(w.aReply()), ids(comments));
    assertNull(comments.getJsonArray("items").getJsonObject(0).getValue("reply_to"));
    assertEquals(new JsonArray(), await(feeds.post(w.a(), w.aPost())).getJsonArray("mentions"));
    assertEquals(new JsonArray().add(w.b()), await(feeds.post(w.a(), w.aOnly())).getJsonObject("audience")
        .getJsonArray("users"));
    assertEquals(w.aOnly(), await(feeds.post(w.b(), w.aOnly())).getLong("id"));
  }

  @Test
  @DisplayName("a second delivery changes nothing, and a run again after a lost report erases nothing more")
  void repeatedDeliveryChangesNothing() throws Exception {
    World w = world();
    deleted(w.d());
    JsonObject first = finishedReport(w.d());
    Map<Long, JsonObject> before = Map.of(w.aPost(), counts(w.a(), w.aPost()), w.bPost(), counts(w.b(), w.bPost()),
        w.uPost(), counts(w.u(), w.uPost()));

    deleted(w.d());
    // the consumer handles the stream in order: once a later user's erasure finished, the repeat was handled
    long marker = newUser();
    deleted(marker);
    finishedReport(marker);
    assertEquals(first, await(new Erasures(platform.mongo()).report("feeds", w.d())));

    await(platform.mongo().removeDocument(Erasures.COLLECTION, new JsonObject().put("_id", "feeds:" + w.d())));
    deleted(w.d());
    JsonObject again = finishedReport(w.d()).getJsonObject("counts");
    for (String kind : again.fieldNames()) {
      assertEquals(0L, again.getLong(kind), kind + " erased again: " + again.encode());
    }
    assertEquals(before, Map.of(w.aPost(), counts(w.a(), w.aPost()), w.bPost(), counts(w.b(), w.bPost()),
        w.uPost(), counts(w.u(), w.uPost())));
  }

  @Test
  @DisplayName("an unrelated user's posts, likes and timelines are untouched by the erasure")
  void unrelatedUserUntouched() throws Exception {
    World w = world();
    List<Long> uHome = home(w.u());
    List<Long> aLiked = ids(await(feeds.likedPosts(w.a(), PageRequest.ids(0, 0, 100)).map(Page::toJson)));
    deleted(w.d());
    finishedReport(w.d());

    assertEquals(new JsonObject().put("likes", 1L).put("comments", 1L).put("reposts", 0L).put("reposts_total", 0L),
        counts(w.u(), w.uPost()));
    assertEquals(uHome, home(w.u()));
    assertEquals(List.of(w.uPost()), userPosts(w.a(), w.u()));
    assertEquals(aLiked, ids(await(feeds.likedPosts(w.a(), PageRequest.ids(0, 0, 100)).map(Page::toJson))));
    assertTrue(aLiked.contains(w.uPost()));
  }

  @Test
  @DisplayName("a follower's home skips an erased post its timeline still holds")
  void staleTimelineEntryIsSkipped() throws Exception {
    World w = erasedWorld();
    // as when relations erased the follow before feeds could take the post out of the follower's timeline
    Timelines timelines = new Timelines(platform.redis(), FeedsSettings.from(platform.config().section("feeds")));
    await(timelines.push(Timelines.HOME, List.of(w.a()), w.p1()));
    assertTrue(await(timelines.range(Timelines.HOME, w.a(), 0, 0, 100)).contains(w.p1()));

    await(timelines.close());

    List<Long> home = home(w.a());
    assertFalse(home.contains(w.p1()), "a's home shows an erased post: " + home);
    assertTrue(home.contains(w.aRepost()));
  }
}
