package io.kith.app.messaging;

import io.kith.app.support.Conformance;
import io.kith.app.support.Reply;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.feeds.service.media.TestVideos;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.TestImages;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Chat images over HTTP (accounts, relations, feeds for media, messaging, gateway): a message's media is an upload of
 * the sender's, attached to the conversation, and readable by its members only; a chat video sent while processed
 * takes its final view once the pipeline settles it.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Chat images over HTTP")
class ChatMediaHttpTest {

  private final Conformance contract = Conformance.load();
  private TestKith kith;

  @BeforeAll
  void start() {
    // one node with what a chat image needs: media from feeds, conversations from messaging.
    kith = TestKith.node("cm", "accounts", "relations", "feeds", "messaging", "gateway");
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  private Reply sendDirect(User from, User to, Object media) {
    return kith.post("/direct/" + to.path() + "/messages", from, new JsonObject()
        .put("client_id", UUID.randomUUID().toString()).put("media", media));
  }

  private int read(long media, User as) {
    return kith.get("/media/" + media, as).status();
  }

  @Test
  @DisplayName("a direct message's image is readable by both members, and 404 to anyone else")
  void directImage() {
    User alice = kith.register();
    User bob = kith.register();
    User stranger = kith.register();
    long image = kith.uploadImage(alice);
    assertEquals(404, read(image, bob), "not attached yet: the uploader's only");

    JsonObject m = sendDirect(alice, bob, image).expect(201).getJsonObject("message");
    assertEquals(image, m.getJsonObject("media").getLong("id"));
    assertEquals("image", m.getJsonObject("media").getString("kind"));
    assertEquals(200, read(image, bob));
    assertEquals(200, read(image, alice));
    kith.get("/media/" + image, stranger).problem(404, "media_not_found");
    kith.get("/media/" + image, null).problem(404, "media_not_found");

    JsonObject inHistory = kith.get("/conversations/" + m.getLong("conversation") + "/messages", bob).expect(200)
        .getJsonArray("items").getJsonObject(0);
    assertEquals(image, inHistory.getJsonObject("media").getLong("id"));
  }

  @Test
  @DisplayName("a chat image carries its state and variants, as documented, and the other member fetches a "
      + "thumbnail by its url")
  void imageVariants() {
    User alice = kith.register();
    User bob = kith.register();
    long image = kith.upload(alice, "image/png", TestImages.png(600, 400)).expect(201).getLong("id");
    JsonObject sent = sendDirect(alice, bob, image).expect(201).getJsonObject("message");
    JsonObject page = kith.get("/conversations/" + sent.getLong("conversation") + "/messages", bob).expect(200);
    assertEquals(List.of(), contract.problems("listMessages", 200, page), "the history is as documented");
    JsonObject media = page.getJsonArray("items").getJsonObject(0).getJsonObject("media");
    assertEquals(sent.getJsonObject("media"), media);
    assertEquals("ready", media.getString("state"), media.encode());
    assertEquals(600, media.getInteger("width"));
    assertEquals(List.of("w160", "w480"), media.getJsonArray("variants").stream()
        .map(v -> ((JsonObject) v).getString("name")).toList());
    assertEquals(List.of(), contract.problems("getMediaInfo", 200, media), "the same view as the media's own");
    Reply thumb = kith.get(media.getJsonArray("variants").getJsonObject(0).getString("url")
        .substring(TestKith.API.length()), bob);
    assertEquals(200, thumb.status(), thumb.text());
    assertEquals(160, TestImages.decode(thumb.body().getBytes()).getWidth());
  }

  @Test
  @DisplayName("a group message's image is readable by the group's members, not by a non-member")
  void groupImage() {
    User alice = kith.register();
    User bob = kith.register();
    User outsider = kith.register();
    JsonObject spec = new JsonObject().put("kind", "topic").put("name", TestKith.unique("Pics "))
        .put("topic", "pictures");
    long group = kith.post("/groups", alice, spec).expect(201).getLong("id");
    kith.post("/groups/" + group + "/join", bob, null).expect(200);
    long image = kith.uploadImage(alice);
    kith.post("/groups/" + group + "/messages", alice, new JsonObject().put("client_id", UUID.randomUUID().toString())
        .put("media", image)).expect(201);
    assertEquals(200, read(image, bob));
    kith.get("/media/" + image, outsider).problem(404, "media_not_found");
  }

  @Test
  @DisplayName("a chat media that is another user's upload, failed processing (bytes that decode as nothing), unknown, "
      + "or not an id is 400, and nothing is sent")
  void badMedia() {
    User alice = kith.register();
    User bob = kith.register();
    long bobs = kith.uploadImage(bob);
    JsonObject problem = sendDirect(alice, bob, bobs).problem(400, "invalid_media");
    assertEquals(bobs, problem.getJsonArray("media").getLong(0), problem.encode());
    sendDirect(alice, bob, bobs + 987_654_321L).problem(400, "invalid_media");
    sendDirect(alice, bob, "https://example.test/cat.png").problem(400, "validation_failed");
    sendDirect(alice, bob, 0).problem(400, "validation_failed");
    assertEquals(404, read(bobs, alice), "a refused send attaches nothing");
    long garbage = kith.uploadGarbageImage(alice);
    JsonObject failed = sendDirect(alice, bob, garbage).problem(400, "invalid_media");
    assertEquals(garbage, failed.getJsonArray("media").getLong(0), failed.encode());
    assertEquals(404, read(garbage, bob), "a refused send attaches nothing");
  }

  @Test
  @DisplayName("a chat video sent while it is processed shows processing in the history, then ready with its cover "
      + "frame once processed, from the Redis window and from MongoDB alike, and as the conversation's last message")
  void videoFollowsProcessing() throws Exception {
    User alice = kith.register();
    User bob = kith.register();
    byte[] mp4 = TestVideos.mp4(64, 48, 3);
    long video;
    long conversation;
    try (TestKith.HeldMediaPool held = kith.holdMediaPool()) {
      video = kith.upload(alice, "video/mp4", mp4).expect(201).getLong("id");
      JsonObject sent = sendDirect(alice, bob, video).expect(201).getJsonObject("message");
      assertEquals("processing", sent.getJsonObject("media").getString("state"), sent.encode());
      conversation = sent.getLong("conversation");
      JsonObject page = history(bob, conversation);
      assertEquals(List.of(), contract.problems("listMessages", 200, page), "the history is as documented");
      JsonObject waiting = firstMedia(page);
      assertEquals("processing", waiting.getString("state"), waiting.encode());
      assertTrue(waiting.getJsonArray("variants").isEmpty(), waiting.encode());
    }
    JsonObject media = awaitMediaState(bob, conversation, "ready");
    assertEquals(video, media.getLong("id"));
    assertEquals(64, media.getInteger("width"));
    assertTrue(media.getLong("duration_ms") > 0, media.encode());
    assertEquals(kith.get("/media/" + video + "/info", alice).expect(200), media, "the media's own view");
    JsonObject cover = media.getJsonArray("variants").getJsonObject(0);
    assertEquals("cover", cover.getString("name"));
    Reply frame = kith.get(cover.getString("url").substring(TestKith.API.length()), bob);
    assertEquals(200, frame.status(), frame.text());
    assertEquals("image/jpeg", frame.header("Content-Type"));
    assertEquals(media, kith.get("/conversations", bob).expect(200).getJsonArray("items").stream()
        .map(c -> (JsonObject) c).filter(c -> c.getLong("id") == conversation).findFirst().orElseThrow()
        .getJsonObject("last_message").getJsonObject("media"), "the conversation's last message");

    dropWindow(conversation);
    assertEquals(media, firstMedia(history(alice, conversation)), "read from MongoDB, the window gone");
  }

  @Test
  @DisplayName("a chat video sent while it is processed that then fails shows failed with its reason in the history")
  void failedVideoShowsFailed() {
    User alice = kith.register();
    User bob = kith.register();
    long conversation;
    try (TestKith.HeldMediaPool held = kith.holdMediaPool()) {
      long video = kith.upload(alice, "video/mp4", garbageMp4()).expect(201).getLong("id");
      JsonObject sent = sendDirect(alice, bob, video).expect(201).getJsonObject("message");
      assertEquals("processing", sent.getJsonObject("media").getString("state"), sent.encode());
      conversation = sent.getLong("conversation");
    }
    JsonObject media = awaitMediaState(bob, conversation, "failed");
    assertEquals("undecodable", media.getString("reason"), media.encode());
    assertTrue(media.getJsonArray("variants").isEmpty(), media.encode());
    dropWindow(conversation);
    assertEquals(media, firstMedia(history(bob, conversation)), "read from MongoDB, the window gone");
  }

  private JsonObject history(User as, long conversation) {
    return kith.get("/conversations/" + conversation + "/messages", as).expect(200);
  }

  private static JsonObject firstMedia(JsonObject page) {
    return page.getJsonArray("items").getJsonObject(0).getJsonObject("media");
  }

  /** Polls the history (served by the Redis window) until its first message's media is in {@code state}. */
  private JsonObject awaitMediaState(User as, long conversation, String state) {
    // the processing of a video takes a while on a busy machine: a generous deadline, as for a post's video
    AtomicReference<JsonObject> last = new AtomicReference<>();
    Await.result(Poll.until(kith.client(), Duration.ofSeconds(90), "the chat video to be " + state,
        () -> kith.send(HttpMethod.GET, TestKith.API + "/conversations/" + conversation + "/messages", as.access(),
            null).map(r -> {
              last.set(r.json());
              return r.status() == 200 && state.equals(firstMedia(last.get()).getString("state"));
            })));
    JsonObject page = last.get();
    assertEquals(List.of(), contract.problems("listMessages", 200, page), "the history is as documented");
    return firstMedia(page);
  }

  /** Drops the conversation's Redis window, so that the next history read comes from MongoDB. */
  private void dropWindow(long conversation) {
    Await.result(kith.kith().platform().redisApi().del(List.of("msg:{c" + conversation + "}:recent")));
  }

  /** Bytes that open like an MP4 (an ftyp box) and decode as nothing: accepted as a video, failed by the pipeline. */
  private static byte[] garbageMp4() {
    byte[] b = new byte[50_000];
    ThreadLocalRandom.current().nextBytes(b);
    byte[] head = {0, 0, 0, 0x18, 'f', 't', 'y', 'p', 'i', 's', 'o', 'm'};
    System.arraycopy(head, 0, b, 0, head.length);
    return b;
  }
}
