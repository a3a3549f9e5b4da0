package io.kith.app.feeds;

import io.kith.app.support.User;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static io.kith.app.feeds.FeedsKith.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Timelines over HTTP: home, moments, a user's posts, latest, paging by max_id, since_id and latest_time")
class TimelinesHttpTest {

  private FeedsKith kith;

  @BeforeAll
  void start() {
    kith = FeedsKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("home shows the viewer's own post and, after fan-out, the post of a user they follow")
  void home() {
    User reader = kith.register();
    User author = kith.register();
    User other = kith.register();
    // the reader's timeline exists before the fan-out
    kith.get("/timelines/home", reader).expect(200);
    kith.follow(reader, author);
    long mine = kith.publish(reader, "mine");

    long theirs = kith.publish(author, "theirs");
    long unrelated = kith.publish(other, "not followed");

    JsonObject page = kith.awaitPage("/timelines/home", reader, "the followed user's post in home",
        p -> ids(p).contains(theirs));
    assertTrue(ids(page).contains(mine), page.encode());
    assertFalse(ids(page).contains(unrelated), page.encode());
    assertTrue(ids(page).indexOf(theirs) < ids(page).indexOf(mine), "newest first: " + ids(page));
    assertEquals("theirs", FeedsKith.item(page, theirs).getString("text"));
    assertEquals(true, FeedsKith.item(page, theirs).getJsonObject("viewer").getBoolean("following"));
  }

  @Test
  @DisplayName("moments hold friends' posts and the viewer's own, not those of users merely followed")
  void moments() {
    User reader = kith.register();
    User friend = kith.register();
    User followed = kith.register();
    kith.get("/timelines/moments", reader).expect(200);
    kith.befriend(reader, friend);
    kith.follow(reader, followed);
    long followedPost = kith.publish(followed, "followed only");
    long friendPost = kith.publish(friend, "from a friend", "friends").getLong("id");
    long mine = kith.publish(reader, "mine");

    // both fan-outs are done once both posts are in home; only then is moments' absence meaningful
    kith.awaitPage("/timelines/home", reader, "both posts in home",
        p -> ids(p).contains(followedPost) && ids(p).contains(friendPost));
    JsonObject moments = kith.awaitPage("/timelines/moments", reader, "the friend's post in moments",
        p -> ids(p).contains(friendPost));
    assertTrue(ids(moments).contains(mine), moments.encode());
    assertFalse(ids(moments).contains(followedPost), moments.encode());
  }

  @Test
  @DisplayName("a user's posts: everyone sees the public ones, friends also friends-only, the author everything")
  void userPosts() {
    User author = kith.register();
    User friend = kith.register();
    User stranger = kith.register();
    kith.befriend(author, friend);
    long open = kith.publish(author, "public");
    long friends = kith.publish(author, "friends", "friends").getLong("id");
    long priv = kith.publish(author, "private", "private").getLong("id");
    String path = "/users/" + author.path() + "/posts";

    assertEquals(List.of(open), ids(kith.get(path, null).expect(200)));
    assertEquals(List.of(open), ids(kith.get(path, stranger).expect(200)));
    assertEquals(List.of(friends, open), ids(kith.get(path, friend).expect(200)));
    assertEquals(List.of(priv, friends, open), ids(kith.get(path, author).expect(200)));
  }

  @Test
  @DisplayName("lists page newest first by next_cursor, each post once; since_id gives only newer posts")
  void paging() {
    User author = kith.register();
    List<Long> posted = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      posted.add(kith.publish(author, "post " + i));
    }
    List<Long> newestFirst = new ArrayList<>(posted);
    Collections.reverse(newestFirst);
    String path = "/users/" + author.path() + "/posts";

    JsonObject first = kith.get(path + "?limit=3", null).expect(200);
    assertEquals(newestFirst.subList(0, 3), ids(first));
    assertTrue(first.getValue("next_cursor") instanceof String, "the cursor is a string, not an id: " + first.encode());
    assertEquals(newestFirst, kith.allIds(path, null, 3));
    assertEquals(newestFirst, kith.allIds(path, author, 100));
    JsonObject all = kith.get(path + "?limit=100", author).expect(200);
    assertNull(all.getValue("next_cursor"), "the last page says so: " + all.encode());

    long newest = first.getLong("newest_id");
    assertEquals(List.of(), ids(kith.get(path + "?since_id=" + newest, author).expect(200)));
    long later = kith.publish(author, "later");
    assertEquals(List.of(later), ids(kith.get(path + "?since_id=" + newest, author).expect(200)));
    assertEquals(List.of(later), ids(kith.get("/timelines/home?since_id=" + newest, author).expect(200)));
  }

  @Test
  @DisplayName("latest holds everyone's public posts for anonymous and signed-in readers, not friends-only ones")
  void latest() {
    User a = kith.register();
    User b = kith.register();
    long open = kith.publish(a, "everyone sees this");
    long closed = kith.publish(b, "friends only", "friends").getLong("id");

    JsonObject anon = kith.get("/timelines/latest?limit=100", null).expect(200);
    assertTrue(ids(anon).contains(open), anon.encode());
    assertFalse(ids(anon).contains(closed), anon.encode());
    JsonObject signed = kith.get("/timelines/latest?limit=100", b).expect(200);
    assertTrue(ids(signed).contains(open), signed.encode());
    assertFalse(ids(signed).contains(closed), "latest is public posts only, even the reader's own");
  }

  @Test
  @DisplayName("latest_time pages latest to posts created strictly before that time")
  void latestTime() {
    User a = kith.register();
    long first = kith.publish(a, "first");
    long second = kith.publish(a, "second");
    long secondTime = IdGenerator.timeOf(second);

    JsonObject before = kith.get("/timelines/latest?limit=100&latest_time=" + secondTime, null).expect(200);
    assertFalse(ids(before).contains(second), before.encode());
    assertTrue(ids(before).stream().allMatch(id -> IdGenerator.timeOf(id) < secondTime), "all older: " + before);
    JsonObject after = kith.get("/timelines/latest?limit=100&latest_time=" + (secondTime + 1), null).expect(200);
    assertTrue(ids(after).contains(second) && ids(after).contains(first), after.encode());
    assertEquals(List.of(), ids(kith.get("/timelines/latest?latest_time=" + IdGenerator.EPOCH, null).expect(200)));
    kith.get("/timelines/latest?latest_time=" + secondTime + "&cursor=" + second, null)
        .problem(400, "validation_failed", "latest_time");
  }

  @Test
  @DisplayName("home and moments need a token; a user's posts and latest do not")
  void tokens() {
    User a = kith.register();
    kith.get("/timelines/home", null).problem(401, "unauthenticated");
    kith.get("/timelines/moments", null).problem(401, "unauthenticated");
    kith.get("/me/likes", null).problem(401, "unauthenticated");
    kith.get("/users/" + a.path() + "/posts", null).expect(200);
    kith.get("/timelines/latest", null).expect(200);
  }
}
