package io.kith.feeds.service;

import io.kith.platform.error.KithErrors;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@DisplayName("Author counters: works, likes received and likes given, exact under concurrency")
class AuthorCountsTest extends FeedsTestBase {

  @Override
  protected JsonObject feedsConfig() {
    return new JsonObject().put("recount-settle-seconds", 1).put("recount-every-seconds", 1);
  }

  private JsonObject counts(long viewer, long user) throws Exception {
    return await(feeds.authorCounts(viewer, List.of(user))).getJsonObject(Long.toString(user));
  }

  private static JsonObject of(long works, long received, long given) {
    return new JsonObject().put("works", works).put("likes_received", received).put("likes_given", given);
  }

  @Test
  @DisplayName("concurrent likes and unlikes end with total likes received and given equal to the like records, "
      + "also after the posts' counters are recounted")
  void concurrentLikes() throws Exception {
    List<Long> u = newUsers(11);
    long author = u.get(0);
    List<Long> likers = u.subList(1, 11);
    long first = publishPublic(author);
    long second = publishPublic(author);
    for (int wave = 0; wave < 5; wave++) {
      List<Future<?>> writes = new ArrayList<>();
      for (int i = 0; i < likers.size(); i++) {
        long liker = likers.get(i);
        // even waves like both posts; odd waves take back every third liker's like of the first post
        writes.add(wave % 2 == 1 && i % 3 == 0 ? feeds.unlike(liker, first) : feeds.like(liker, first));
        writes.add(feeds.like(liker, second));
      }
      await(Future.join(writes));
    }
    // the last wave liked both posts again: every liker likes both
    assertEquals(of(2, 20, 0), counts(author, author));
    for (long liker : likers) {
      assertEquals(of(0, 0, 2), counts(author, liker));
    }
    // a recount of the posts' counters (the source of likes received) leaves the totals as they are
    await(Poll.until(vertx, FAN_OUT_DEADLINE, "posts recounted and off the recount set", () -> platform.redisApi()
        .zscore(CounterRecount.key(second), Long.toString(second)).map(score -> score == null)));
    PostStore store = new PostStore(platform.mongo());
    long recounted = await(store.countInteractions(first)).getLong("likes")
        + await(store.countInteractions(second)).getLong("likes");
    assertEquals(recounted, counts(author, author).getLong("likes_received"));
  }

  @Test
  @DisplayName("works count live original posts only: a repost and a deleted post are not works")
  void works() throws Exception {
    List<Long> u = newUsers(2);
    long author = u.get(0);
    long other = u.get(1);
    long kept = publishPublic(author);
    long gone = publishPublic(author);
    long theirs = publishPublic(other);
    await(feeds.repost(author, theirs, new JsonObject().put("text", "re")));
    await(feeds.delete(author, gone));
    await(feeds.like(other, kept));
    await(feeds.like(author, theirs));
    assertEquals(of(1, 1, 1), counts(other, author));
    assertEquals(of(1, 1, 1), counts(author, other));
  }

  @Test
  @DisplayName("every asked id has an entry (zeros for a user with nothing); no ids or more than 100 are refused")
  void bounds() throws Exception {
    long user = newUser();
    JsonObject none = await(feeds.authorCounts(0, List.of(user, user + 1_000_000)));
    assertEquals(of(0, 0, 0), none.getJsonObject(Long.toString(user)));
    assertEquals(of(0, 0, 0), none.getJsonObject(Long.toString(user + 1_000_000)));
    assertRefused(() -> await(feeds.authorCounts(user, List.of())));
    List<Long> many = new ArrayList<>();
    for (long i = 1; i <= 101; i++) {
      many.add(i);
    }
    assertRefused(() -> await(feeds.authorCounts(user, many)));
  }

  private static void assertRefused(org.junit.jupiter.api.function.Executable call) {
    Exception e = assertThrows(Exception.class, call);
    Throwable cause = e instanceof ServiceException ? e : e.getCause();
    assertEquals(KithErrors.VALIDATION_FAILED.status(), ((ServiceException) cause).failureCode());
    assertEquals("ids", ((ServiceException) cause).getDebugInfo().getString("field"));
  }
}
