package io.kith.app.douyin;

import io.kith.app.douyin.DouyinKith.DUser;
import io.kith.app.support.Reply;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.TestImages;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.awt.image.BufferedImage;
import java.util.List;
import java.util.Map;

import static io.kith.app.douyin.DouyinKith.ok;
import static io.kith.app.douyin.DouyinKith.refused;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("The douyin adapter over HTTP, driven as the douyin simple-demo clients drive it")
class DouyinHttpTest {

  private DouyinKith kith;

  @BeforeAll
  void start() {
    kith = DouyinKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  private JsonObject user(DUser viewer, long id) {
    return ok(kith.get("/user/", Map.of("token", viewer.token(), "user_id", id))).getJsonObject("user");
  }

  private JsonArray list(String path, DUser viewer, long userId, String key) {
    return ok(kith.get(path, Map.of("token", viewer.token(), "user_id", userId))).getJsonArray(key);
  }

  private static List<Long> ids(JsonArray items) {
    return items.stream().map(i -> ((JsonObject) i).getLong("id")).toList();
  }

  private static JsonObject byId(JsonArray items, long id) {
    return items.stream().map(JsonObject.class::cast).filter(i -> i.getLong("id") == id).findFirst().orElse(null);
  }

  @Test
  @DisplayName("register answers user_id and a token that works; login by form answers the same user; a taken "
      + "username, a wrong password and a missing password are refused with a non-zero status_code")
  void registerAndLogin() {
    String name = DouyinKith.unique("reg");
    JsonObject registered = ok(kith.postQuery("/user/register/", Map.of("username", name, "password", "Sunny-42-x!")));
    long id = registered.getLong("user_id");
    assertTrue(id > 0);
    assertEquals(name, user(new DUser(id, registered.getString("token")), id).getString("name"));

    JsonObject login = ok(kith.post("/user/login/", Map.of("username", name, "password", "Sunny-42-x!")));
    assertEquals(id, login.getLong("user_id"));
    assertEquals(id, user(new DUser(id, login.getString("token")), id).getLong("id"));

    JsonObject taken = kith.postQuery("/user/register/", Map.of("username", name, "password", "Other-42-x!"));
    assertEquals(1, taken.getInteger("status_code"));
    assertFalse(taken.getString("status_msg").isBlank());
    JsonObject wrong = kith.post("/user/login/", Map.of("username", name, "password", "Wrong-42-x!"));
    assertEquals(1, wrong.getInteger("status_code"));
    assertFalse(wrong.containsKey("token"));
    refused(kith.post("/user/login/", Map.of("username", name)), "validation_failed");
  }

  @Test
  @DisplayName("user info carries follow counts, is_follow and the author counters; an unknown user is refused")
  void userInfo() {
    DUser author = kith.user();
    DUser fan = kith.user();
    ok(kith.post("/relation/action/", Map.of("token", fan.token(), "to_user_id", author.id(), "action_type", 1)));
    JsonObject seen = user(fan, author.id());
    assertEquals(author.id(), seen.getLong("id"));
    assertEquals(1, seen.getInteger("follower_count"));
    assertEquals(0, seen.getInteger("follow_count"));
    assertTrue(seen.getBoolean("is_follow"));
    for (String field : List.of("avatar", "background_image", "signature")) {
      assertNotNull(seen.getString(field), field);
    }
    assertEquals(0L, seen.getLong("work_count"));
    assertEquals(0L, seen.getLong("total_favorited"));
    assertEquals(0L, seen.getLong("favorite_count"));
    assertFalse(user(author, fan.id()).getBoolean("is_follow"));
    assertEquals(1, user(author, fan.id()).getInteger("follow_count"));
    refused(kith.get("/user/", Map.of("token", fan.token(), "user_id", author.id() + 7_777_777)), "user_not_found");
  }

  @Test
  @DisplayName("a published video is in the author's list and the feed with a play_url and cover_url that resolve; "
      + "latest_time pages to older videos by next_time; bytes that are no video are refused")
  void publishAndFeed() {
    DUser author = kith.user();
    byte[] bytes = DouyinKith.mp4();
    ok(kith.publish(author.token(), "first clip", bytes));
    JsonObject first = byId(list("/publish/list/", author, author.id(), "video_list"),
        ids(list("/publish/list/", author, author.id(), "video_list")).get(0));
    assertEquals("first clip", first.getString("title"));
    assertEquals(author.id(), first.getJsonObject("author").getLong("id"));
    assertEquals(1L, first.getJsonObject("author").getLong("work_count"));
    Reply play = kith.fetch(first.getString("play_url"));
    assertEquals(200, play.status());
    assertArrayEquals(bytes, play.body().getBytes());
    // the default cover while the video is processed, a redirect to its frame once ready (see videoCover)
    Reply cover = kith.fetch(first.getString("cover_url"));
    assertTrue(cover.status() == 200 || cover.status() == 302, cover.text());
    long second = kith.video(author, "second clip").getLong("id");

    JsonObject feed = ok(kith.get("/feed/", Map.of("latest_time", System.currentTimeMillis() + 60_000)));
    List<Long> shown = ids(feed.getJsonArray("video_list"));
    assertTrue(shown.indexOf(second) >= 0 && shown.indexOf(second) < shown.indexOf(first.getLong("id")), shown.toString());
    long next = feed.getLong("next_time");
    List<Long> older = ids(ok(kith.get("/feed/", Map.of("latest_time", next))).getJsonArray("video_list"));
    assertFalse(older.contains(second) || older.contains(first.getLong("id")), older.toString());
    // seconds are read as seconds; a time before any post shows nothing
    assertTrue(ids(ok(kith.get("/feed/", Map.of("latest_time", System.currentTimeMillis() / 1000 + 60)))
        .getJsonArray("video_list")).contains(second));
    assertTrue(ok(kith.get("/feed/", Map.of("latest_time", 1))).getJsonArray("video_list").isEmpty());

    refused(kith.publish(author.token(), "not a video", "just some text, no video at all".getBytes()),
        "unsupported_media");
    refused(kith.get("/feed/", Map.of("latest_time", "yesterday")), "validation_failed");
  }

  @Test
  @DisplayName("a video's cover_url shows the default cover while the video is processed, then the frame the media "
      + "pipeline took from it; a cover of an unknown or malformed id is refused")
  void videoCover() throws Exception {
    DUser author = kith.user();
    JsonObject video;
    // both threads of the node's media pool held, so the video stays in processing until released
    try (TestKith.HeldMediaPool held = kith.holdMediaPool()) {
      video = kith.video(author, "cover me");
      Reply waiting = kith.fetch(video.getString("cover_url"));
      assertEquals(200, waiting.status(), waiting.text());
      assertEquals("image/png", waiting.header("Content-Type"));
      assertEquals("no-cache", waiting.header("Cache-Control"));
    }
    String url = video.getString("cover_url");
    Reply redirect = kith.awaitFetch(url, r -> r.status() == 302);
    String location = redirect.header("Location");
    assertTrue(location.endsWith("/api/v1/media/" + DouyinKith.lastSegment(url) + "?variant=cover"), location);
    Reply frame = kith.fetch(location);
    assertEquals(200, frame.status(), frame.text());
    assertEquals("image/jpeg", frame.header("Content-Type"));
    BufferedImage image = TestImages.decode(frame.body().getBytes());
    assertEquals(64, image.getWidth());
    assertEquals(48, image.getHeight());

    refused(kith.get("/cover/" + (Long.parseLong(DouyinKith.lastSegment(url)) + 9_999_999), Map.of()),
        "media_not_found");
    refused(kith.get("/cover/abc", Map.of()), "validation_failed");
  }

  @Test
  @DisplayName("favorite action likes and unlikes; the video, the liker's favorite list, the feed read with the liker's "
      + "token and both users' counters follow; someone else's favorite list and a bad action_type are refused")
  void favorites() {
    DUser author = kith.user();
    DUser fan = kith.user();
    long video = kith.video(author, "like me").getLong("id");
    ok(kith.post("/favorite/action/", Map.of("token", fan.token(), "video_id", video, "action_type", 1)));
    JsonArray liked = list("/favorite/list/", fan, fan.id(), "video_list");
    assertEquals(List.of(video), ids(liked));
    assertTrue(liked.getJsonObject(0).getBoolean("is_favorite"));
    assertEquals(1L, liked.getJsonObject(0).getLong("favorite_count"));
    assertEquals(1L, user(fan, author.id()).getLong("total_favorited"));
    assertEquals(1L, user(fan, fan.id()).getLong("favorite_count"));
    assertFalse(byId(list("/publish/list/", author, author.id(), "video_list"), video).getBoolean("is_favorite"));
    // the feed's token is optional: with it the video is the fan's favorite, without it nobody's
    long later = System.currentTimeMillis() + 60_000;
    assertTrue(byId(ok(kith.get("/feed/", Map.of("token", fan.token(), "latest_time", later)))
        .getJsonArray("video_list"), video).getBoolean("is_favorite"));
    assertFalse(byId(ok(kith.get("/feed/", Map.of("latest_time", later))).getJsonArray("video_list"), video)
        .getBoolean("is_favorite"));
    refused(kith.get("/feed/", Map.of("token", "not-a-token")), "token_invalid");

    ok(kith.post("/favorite/action/", Map.of("token", fan.token(), "video_id", video, "action_type", 2)));
    assertTrue(list("/favorite/list/", fan, fan.id(), "video_list").isEmpty());
    assertEquals(0L, user(fan, author.id()).getLong("total_favorited"));
    assertEquals(0L, byId(list("/publish/list/", fan, author.id(), "video_list"), video).getLong("favorite_count"));

    refused(kith.get("/favorite/list/", Map.of("token", author.token(), "user_id", fan.id())), "forbidden");
    refused(kith.post("/favorite/action/", Map.of("token", fan.token(), "video_id", video, "action_type", 3)),
        "validation_failed");
    refused(kith.post("/favorite/action/", Map.of("token", fan.token(), "video_id", video + 9_999_999,
        "action_type", 1)), "post_not_found");
  }

  @Test
  @DisplayName("comment action publishes and deletes; the list shows comments with their users; deleting someone "
      + "else's comment is refused")
  void comments() {
    DUser author = kith.user();
    DUser a = kith.user();
    DUser b = kith.user();
    long video = kith.video(author, "talk").getLong("id");
    JsonObject comment = ok(kith.post("/comment/action/", Map.of("token", a.token(), "video_id", video,
        "action_type", 1, "comment_text", "nice one"))).getJsonObject("comment");
    assertEquals("nice one", comment.getString("content"));
    assertEquals(a.id(), comment.getJsonObject("user").getLong("id"));
    assertTrue(comment.getString("create_date").matches("\\d\\d-\\d\\d"));
    long id = comment.getLong("id");
    JsonArray listed = ok(kith.get("/comment/list/", Map.of("token", b.token(), "video_id", video)))
        .getJsonArray("comment_list");
    assertEquals(List.of(id), ids(listed));
    assertEquals(1L, byId(list("/publish/list/", b, author.id(), "video_list"), video).getLong("comment_count"));

    refused(kith.post("/comment/action/", Map.of("token", b.token(), "video_id", video, "action_type", 2,
        "comment_id", id)), "not_author");
    assertEquals(List.of(id), ids(ok(kith.get("/comment/list/", Map.of("video_id", video)))
        .getJsonArray("comment_list")));
    ok(kith.post("/comment/action/", Map.of("token", a.token(), "video_id", video, "action_type", 2,
        "comment_id", id)));
    assertTrue(ok(kith.get("/comment/list/", Map.of("token", a.token(), "video_id", video)))
        .getJsonArray("comment_list").isEmpty());
    refused(kith.post("/comment/action/", Map.of("token", a.token(), "video_id", video, "action_type", 1)),
        "validation_failed");
  }

  @Test
  @DisplayName("relation action follows and unfollows; follow and follower lists follow; the friend list shows each "
      + "friend's latest message and whether it was sent (1) or received (0)")
  void relations() {
    DUser a = kith.user();
    DUser b = kith.user();
    ok(kith.post("/relation/action/", Map.of("token", a.token(), "to_user_id", b.id(), "action_type", 1)));
    assertEquals(List.of(b.id()), ids(list("/relation/follow/list/", a, a.id(), "user_list")));
    JsonArray followers = list("/relation/follower/list/", b, b.id(), "user_list");
    assertEquals(List.of(a.id()), ids(followers));
    assertFalse(followers.getJsonObject(0).getBoolean("is_follow"));
    assertTrue(list("/relation/friend/list/", a, a.id(), "user_list").isEmpty());

    ok(kith.post("/relation/action/", Map.of("token", b.token(), "to_user_id", a.id(), "action_type", 1)));
    ok(kith.post("/message/action/", Map.of("token", a.token(), "to_user_id", b.id(), "action_type", 1,
        "content", "hi b")));
    JsonObject friendOfA = list("/relation/friend/list/", a, a.id(), "user_list").getJsonObject(0);
    assertEquals(b.id(), friendOfA.getLong("id"));
    assertEquals("hi b", friendOfA.getString("message"));
    assertEquals(1, friendOfA.getInteger("msgType"));
    JsonObject friendOfB = list("/relation/friend/list/", b, b.id(), "user_list").getJsonObject(0);
    assertEquals(a.id(), friendOfB.getLong("id"));
    assertEquals(0, friendOfB.getInteger("msgType"));
    refused(kith.get("/relation/friend/list/", Map.of("token", b.token(), "user_id", a.id())), "forbidden");

    ok(kith.post("/relation/action/", Map.of("token", a.token(), "to_user_id", b.id(), "action_type", 2)));
    assertTrue(list("/relation/follow/list/", a, a.id(), "user_list").isEmpty());
    assertTrue(list("/relation/friend/list/", a, a.id(), "user_list").isEmpty());
    refused(kith.post("/relation/action/", Map.of("token", a.token(), "to_user_id", b.id(), "action_type", 5)),
        "validation_failed");
  }

  @Test
  @DisplayName("message action sends; the chat lists the messages after pre_msg_time, oldest first, with sender and "
      + "recipient; a send without content or with another action_type is refused")
  void messages() {
    DUser a = kith.user();
    DUser b = kith.user();
    assertTrue(ok(kith.get("/message/chat/", Map.of("token", a.token(), "to_user_id", b.id())))
        .getJsonArray("message_list").isEmpty());
    ok(kith.post("/message/action/", Map.of("token", a.token(), "to_user_id", b.id(), "action_type", 1,
        "content", "one")));
    ok(kith.post("/message/action/", Map.of("token", b.token(), "to_user_id", a.id(), "action_type", 1,
        "content", "two")));
    JsonArray chat = ok(kith.get("/message/chat/", Map.of("token", b.token(), "to_user_id", a.id(),
        "pre_msg_time", 0))).getJsonArray("message_list");
    assertEquals(2, chat.size());
    JsonObject one = chat.getJsonObject(0);
    assertEquals("one", one.getString("content"));
    assertEquals(a.id(), one.getLong("from_user_id"));
    assertEquals(b.id(), one.getLong("to_user_id"));
    assertEquals("two", chat.getJsonObject(1).getString("content"));
    assertEquals(a.id(), chat.getJsonObject(1).getLong("to_user_id"));

    long after = one.getLong("create_time");
    JsonArray newer = ok(kith.get("/message/chat/", Map.of("token", b.token(), "to_user_id", a.id(),
        "pre_msg_time", after))).getJsonArray("message_list");
    assertFalse(ids(newer).contains(one.getLong("id")));
    newer.forEach(m -> assertTrue(((JsonObject) m).getLong("create_time") > after));

    refused(kith.post("/message/action/", Map.of("token", a.token(), "to_user_id", b.id(), "action_type", 1)),
        "validation_failed");
    refused(kith.post("/message/action/", Map.of("token", a.token(), "to_user_id", b.id(), "action_type", 2,
        "content", "x")), "validation_failed");
  }

  @Test
  @DisplayName("a block is the services' own: the blocked user cannot see the blocker, their videos, nor message "
      + "them")
  void blocks() {
    DUser blocker = kith.user();
    DUser blocked = kith.user();
    long video = kith.video(blocker, "not for you").getLong("id");
    kith.put("/me/blocks/" + blocked.id(), new User(blocker.id(), "", blocker.token())).expectNoContent();
    refused(kith.get("/user/", Map.of("token", blocked.token(), "user_id", blocker.id())), "user_not_found");
    assertTrue(ok(kith.get("/publish/list/", Map.of("token", blocked.token(), "user_id", blocker.id())))
        .getJsonArray("video_list").isEmpty());
    refused(kith.post("/favorite/action/", Map.of("token", blocked.token(), "video_id", video, "action_type", 1)),
        "post_not_found");
    JsonObject sent = kith.post("/message/action/", Map.of("token", blocked.token(), "to_user_id", blocker.id(),
        "action_type", 1, "content", "hello?"));
    assertEquals(1, sent.getInteger("status_code"), sent.encode());
  }

  @Test
  @DisplayName("every route that needs a token refuses a bad one (token_invalid) and a missing one "
      + "(unauthenticated) with a non-zero status_code")
  void tokens() {
    DUser a = kith.user();
    Map<String, String> posts = Map.of("/publish/action/", "", "/favorite/action/", "video_id=1&action_type=1",
        "/comment/action/", "video_id=1&action_type=1&comment_text=x", "/relation/action/",
        "to_user_id=1&action_type=1", "/message/action/", "to_user_id=1&action_type=1&content=x");
    List<String> gets = List.of("/user/", "/publish/list/", "/favorite/list/", "/relation/follow/list/",
        "/relation/follower/list/", "/relation/friend/list/", "/message/chat/");
    for (String path : gets) {
      refused(kith.get(path, Map.of("token", "not-a-token", "user_id", a.id(), "to_user_id", a.id())),
          "token_invalid");
      refused(kith.get(path, Map.of("user_id", a.id(), "to_user_id", a.id())), "unauthenticated");
    }
    posts.forEach((path, params) -> {
      refused(kith.post(path, Map.of("token", "not-a-token", "user_id", a.id(), "to_user_id", a.id(),
          "video_id", 1, "action_type", 1, "content", "x", "comment_text", "x")), "token_invalid");
      refused(kith.post(path, Map.of("to_user_id", a.id(), "video_id", 1, "action_type", 1, "content", "x")),
          "unauthenticated");
    });
    refused(kith.publish(null, "anonymous", DouyinKith.mp4()), "unauthenticated");
    refused(kith.publish("not-a-token", "bad", DouyinKith.mp4()), "token_invalid");
    refused(kith.get("/no/such/route/", Map.of()), "not_found");
  }
}
