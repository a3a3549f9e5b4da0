package io.kith.app.feeds;

import io.kith.app.support.BridgeSocket;
import io.kith.app.support.Conformance;
import io.kith.app.support.Reply;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.feeds.service.media.TestVideos;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.TestImages;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.awt.image.BufferedImage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The media pipeline over HTTP and the bridge on one node: a phone photo uploaded is stored upright without its EXIF
 * block, offered in the configured sizes, described by GET /api/v1/media/{id}/info as the OpenAPI document says, and
 * announced to the uploader's bridge connection; a decompression bomb fails from its header.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MediaPipelineHttpTest {

  private static final String API = "/api/v1";
  private final Conformance contract = Conformance.load();
  private FeedsKith kith;

  @BeforeAll
  void start() {
    kith = FeedsKith.start();
  }

  @AfterAll
  void stop() {
    kith.close();
  }

  private Reply upload(User user, String type, byte[] bytes) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", type);
    return Await.result(kith.send(HttpMethod.POST, API + "/media", user.access(), headers, Buffer.buffer(bytes)));
  }

  @Test
  @DisplayName("a phone photo is stored upright without EXIF, in the configured sizes, and its readiness is pushed")
  void photoProcessedAndPushed() {
    User owner = kith.register();
    try (BridgeSocket socket = kith.bridge(owner)) {
      Reply created = upload(owner, "image/jpeg", TestImages.jpegWithExif(1600, 1200, 6));
      JsonObject view = created.expect(201);
      assertEquals(List.of(), contract.problems("uploadMedia", 201, view), "the upload's body is as documented");
      assertEquals("ready", view.getString("state"));
      assertEquals(1200, view.getInteger("width"));
      assertEquals(1600, view.getInteger("height"));
      long id = view.getLong("id");

      JsonObject pushed = socket.takeDelivery(owner.address(), Duration.ofSeconds(60),
          body -> "media.ready".equals(body.getString("kind"))).getJsonObject("body");
      assertEquals(id, pushed.getJsonObject("media").getLong("id"));

      JsonObject info = kith.get("/media/" + id + "/info", owner).expect(200);
      assertEquals(List.of(), contract.problems("getMediaInfo", 200, info), "the view is as documented");
      assertEquals(view, info);
      Reply original = kith.get("/media/" + id, owner);
      assertEquals(200, original.status());
      assertEquals("image/jpeg", original.header("Content-Type"));
      assertFalse(TestImages.hasExif(original.body().getBytes()), "no EXIF (and no GPS) in the stored photo");

      JsonArray variants = info.getJsonArray("variants");
      assertEquals(List.of(160, 480, 1080), variants.stream()
          .map(v -> Math.max(((JsonObject) v).getInteger("width"), ((JsonObject) v).getInteger("height"))).toList());
      for (Object v : variants) {
        JsonObject variant = (JsonObject) v;
        Reply bytes = kith.get(variant.getString("url").substring(API.length()), owner);
        assertEquals(200, bytes.status(), bytes.text());
        BufferedImage image = TestImages.decode(bytes.body().getBytes());
        assertEquals(variant.getInteger("width"), image.getWidth());
        assertTrue(image.getHeight() > image.getWidth(), "each variant is upright (portrait)");
        assertFalse(TestImages.hasExif(bytes.body().getBytes()));
      }
    }
  }

  @Test
  @DisplayName("a 50000x50000 PNG header fails as too_many_pixels; others and unknown variants get 404")
  void bombAndRefusals() {
    User owner = kith.register();
    User other = kith.register();
    JsonObject bomb = upload(owner, "image/png", TestImages.pngBomb(50_000, 50_000)).expect(201);
    assertEquals("failed", bomb.getString("state"));
    assertEquals("too_many_pixels", bomb.getString("reason"));
    long id = bomb.getLong("id");
    kith.get("/media/" + id + "/info", other).problem(404, "media_not_found");
    kith.get("/media/" + id + "/info", null).problem(404, "media_not_found");
    kith.get("/media/" + (id + 1_000_000) + "/info", owner).problem(404, "media_not_found");
    kith.get("/media/" + id + "?variant=w160", owner).problem(404, "media_not_found");
    kith.get("/media/" + id + "?variant=../x", owner).problem(400, "validation_failed");
    kith.post("/posts", owner, new JsonObject().put("text", "bomb").put("media", new JsonArray().add(id)))
        .problem(400, "invalid_media");
  }

  @Test
  @DisplayName("a post's photo carries its state, size and variants as documented, and a reader fetches a thumbnail "
      + "by its url")
  void postPhotoWithVariants() {
    User author = kith.register();
    User reader = kith.register();
    long photo = upload(author, "image/jpeg", TestImages.jpegWithExif(1600, 1200, 1)).expect(201).getLong("id");
    long post = kith.post("/posts", author, new JsonObject().put("text", "view").put("visibility", "public")
        .put("media", new JsonArray().add(photo))).expect(201).getLong("id");
    JsonObject read = kith.get("/posts/" + post, reader).expect(200);
    assertEquals(List.of(), contract.problems("getPost", 200, read), "the post is as documented");
    JsonObject media = read.getJsonArray("media").getJsonObject(0);
    assertEquals(photo, media.getLong("id"));
    assertEquals("ready", media.getString("state"));
    assertEquals(1600, media.getInteger("width"));
    assertEquals(1200, media.getInteger("height"));
    assertEquals(kith.get("/media/" + photo + "/info", author).expect(200).getJsonArray("variants"),
        media.getJsonArray("variants"));
    JsonObject small = media.getJsonArray("variants").getJsonObject(0);
    assertEquals("w160", small.getString("name"));
    Reply thumb = kith.get(small.getString("url").substring(API.length()), reader);
    assertEquals(200, thumb.status(), thumb.text());
    assertEquals(160, TestImages.decode(thumb.body().getBytes()).getWidth());
  }

  @Test
  @DisplayName("a video published while it is processed shows processing in the post, then ready with its cover "
      + "frame once processed")
  void postVideoFollowsProcessing() throws Exception {
    User author = kith.register();
    User reader = kith.register();
    long post;
    long video;
    try (TestKith.HeldMediaPool held = kith.holdMediaPool()) {
      video = upload(author, "video/mp4", TestVideos.mp4(64, 48, 3)).expect(201).getLong("id");
      post = kith.post("/posts", author, new JsonObject().put("text", "clip").put("visibility", "public")
          .put("media", new JsonArray().add(video))).expect(201).getLong("id");
      JsonObject waiting = kith.get("/posts/" + post, reader).expect(200).getJsonArray("media").getJsonObject(0);
      assertEquals("processing", waiting.getString("state"), waiting.encode());
      assertTrue(waiting.getJsonArray("variants").isEmpty(), waiting.encode());
    }
    AtomicReference<JsonObject> ready = new AtomicReference<>();
    Await.result(Poll.until(kith.client(), Duration.ofSeconds(90), "the post's video to be ready",
        () -> kith.send(HttpMethod.GET, API + "/posts/" + post, reader.access(), null).map(r -> {
          ready.set(r.json().getJsonArray("media").getJsonObject(0));
          return "ready".equals(ready.get().getString("state"));
        })));
    JsonObject media = ready.get();
    assertEquals(64, media.getInteger("width"));
    assertTrue(media.getLong("duration_ms") > 0, media.encode());
    JsonObject cover = media.getJsonArray("variants").getJsonObject(0);
    assertEquals("cover", cover.getString("name"));
    Reply frame = kith.get(cover.getString("url").substring(API.length()), reader);
    assertEquals(200, frame.status(), frame.text());
    assertEquals("image/jpeg", frame.header("Content-Type"));
    assertEquals(media, kith.get("/posts/" + post, author).expect(200).getJsonArray("media").getJsonObject(0));
  }
}
