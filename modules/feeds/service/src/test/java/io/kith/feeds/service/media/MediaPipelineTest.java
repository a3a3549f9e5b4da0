package io.kith.feeds.service.media;

import io.kith.platform.bus.Addresses;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.TestImages;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.awt.image.BufferedImage;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The media pipeline through {@code MediaClient}: images cleaned and resized, videos probed, refusals as states. */
class MediaPipelineTest extends MediaTestBase {

  @Override
  protected JsonObject mediaConfig() {
    return super.mediaConfig().put("image-max-bytes", 2_000_000).put("max-pixels", 4_000_000)
        .put("variant-sizes", "160,480").put("max-video-seconds", 3)
        .put("transcode", true).put("transcode-max-side", 96)
        .put("sweep-interval-seconds", 1).put("processing-timeout-seconds", 600);
  }

  /** The media's view as its uploader reads it. */
  private JsonObject info(long viewer, long id) throws Exception {
    return await(onContext(() -> media.info(viewer, id)));
  }

  private JsonObject awaitSettled(long owner, long id) throws Exception {
    await(Poll.until(vertx, Duration.ofSeconds(60), "media " + id + " to leave processing",
        () -> onContext(() -> media.info(owner, id)).map(v -> !"processing".equals(v.getString("state")))));
    return info(owner, id);
  }

  private byte[] bytes(long viewer, long id, String variant) throws Exception {
    return await(onContext(() -> media.read(viewer, id, variant, null).compose(download -> {
      Collector out = new Collector();
      return download.pipeTo(out).map(v -> out.bytes);
    }))).getBytes();
  }

  private static JsonObject variant(JsonObject view, String name) {
    return view.getJsonArray("variants").stream().map(v -> (JsonObject) v)
        .filter(v -> name.equals(v.getString("name"))).findFirst().orElseThrow(() -> new AssertionError(
            "no variant " + name + " in " + view.encode()));
  }

  /** What the event bus delivers to a user's address while open (as the bridge would forward it). */
  private final class Pushes implements AutoCloseable {
    private final List<JsonObject> received = new CopyOnWriteArrayList<>();
    private final MessageConsumer<JsonObject> listener;

    Pushes(long user) throws Exception {
      listener = vertx.eventBus().consumer(Addresses.user(user), m -> received.add(m.body()));
      await(listener.completion());
    }

    /** The first push of {@code kind}, waiting for it with a generous deadline. */
    JsonObject take(String kind) throws Exception {
      await(Poll.until(vertx, Duration.ofSeconds(60), "a " + kind + " push", () -> Future.succeededFuture(
          received.stream().anyMatch(p -> kind.equals(p.getString("kind"))))));
      return received.stream().filter(p -> kind.equals(p.getString("kind"))).findFirst().orElseThrow();
    }

    @Override
    public void close() throws Exception {
      await(listener.unregister());
    }
  }

  @Test
  @DisplayName("a phone JPEG comes back upright, without its EXIF block and GPS position, with its variants")
  void jpegStrippedAndOriented() throws Exception {
    long owner = newUser();
    byte[] photo = TestImages.jpegWithExif(640, 400, 6);
    assertTrue(TestImages.hasExif(photo), "the test photo carries EXIF");
    JsonObject view = await(upload(owner, "image/jpeg", Buffer.buffer(photo)));
    assertEquals("ready", view.getString("state"));
    // orientation 6: stored pixels are turned a quarter clockwise, so width and height swap
    assertEquals(400, view.getInteger("width"));
    assertEquals(640, view.getInteger("height"));
    byte[] stored = bytes(owner, view.getLong("id"), null);
    assertFalse(TestImages.hasExif(stored), "the stored original has no EXIF segment");
    BufferedImage upright = TestImages.decode(stored);
    assertEquals(400, upright.getWidth());
    assertEquals(640, upright.getHeight());
    JsonArray variants = view.getJsonArray("variants");
    assertEquals(List.of("w160", "w480"), variants.stream().map(v -> ((JsonObject) v).getString("name")).toList());
    for (Object v : variants) {
      JsonObject variant = (JsonObject) v;
      assertEquals("image/jpeg", variant.getString("content_type"));
      assertTrue(variant.getString("url").endsWith("?variant=" + variant.getString("name")));
      byte[] thumb = bytes(owner, view.getLong("id"), variant.getString("name"));
      assertFalse(TestImages.hasExif(thumb), "a variant has no EXIF segment");
      BufferedImage decoded = TestImages.decode(thumb);
      assertEquals(variant.getInteger("width"), decoded.getWidth());
      assertEquals(variant.getInteger("height"), decoded.getHeight());
      assertEquals(Integer.parseInt(variant.getString("name").substring(1)),
          Math.max(decoded.getWidth(), decoded.getHeight()));
    }
    assertEquals(view, info(owner, view.getLong("id")));
  }

  @Test
  @DisplayName("a media left in processing (its node died) is taken up again by a sweep and becomes ready")
  void staleProcessingResumed() throws Exception {
    long owner = newUser();
    long id = await(upload(owner, "image/png", Buffer.buffer(TestImages.png(300, 200)))).getLong("id");
    String cleanFile = record(id).getString("file");
    // as a node that died after taking the upload would leave it: processing, started long ago
    await(platform.mongo().updateCollection(MediaStore.ITEMS, new JsonObject().put("_id", id), new JsonObject()
        .put("$set", new JsonObject().put(MediaPipeline.STATUS, MediaPipeline.PROCESSING).put(MediaPipeline.SINCE, 1L))));
    assertEquals("processing", info(owner, id).getString("state"));
    JsonObject settled = awaitSettled(owner, id);
    assertEquals("ready", settled.getString("state"));
    assertEquals(300, settled.getInteger("width"));
    assertTrue(record(id).getLong(MediaPipeline.SINCE) > 1L);
    assertEquals(0, gridFsDocuments(cleanFile), "the bytes it replaced are gone");
  }

  @Test
  @DisplayName("a PNG keeps its format and gets only the variants smaller than itself")
  void pngVariants() throws Exception {
    long owner = newUser();
    JsonObject view = await(upload(owner, "image/png", Buffer.buffer(TestImages.png(300, 200))));
    assertEquals("ready", view.getString("state"));
    assertEquals("image/png", view.getString("content_type"));
    JsonArray variants = view.getJsonArray("variants");
    assertEquals(1, variants.size());
    assertEquals(160, variants.getJsonObject(0).getInteger("width"));
    assertEquals(107, variants.getJsonObject(0).getInteger("height"), 1);
  }

  @Test
  @DisplayName("a PNG whose header claims 50000x50000 pixels is refused from its header, never decoded")
  void decompressionBombRefused() throws Exception {
    long owner = newUser();
    JsonObject view = await(upload(owner, "image/png", Buffer.buffer(TestImages.pngBomb(50_000, 50_000))));
    assertEquals("failed", view.getString("state"));
    assertEquals("too_many_pixels", view.getString("reason"));
    assertTrue(view.getJsonArray("variants").isEmpty());
    failsWith("invalid_media", store.attach(owner, List.of(view.getLong("id")), KithTestKit.newUserId()));
  }

  @Test
  @DisplayName("a video longer than max-video-seconds fails with reason too_long and cannot be attached")
  void overLongVideoRefused() throws Exception {
    long owner = newUser();
    long id = await(upload(owner, "video/mp4", Buffer.buffer(TestVideos.mp4(64, 48, 25)))).getLong("id");
    JsonObject failed = awaitSettled(owner, id);
    assertEquals("failed", failed.getString("state"));
    assertEquals("too_long", failed.getString("reason"));
    failsWith("invalid_media", store.attach(owner, List.of(id), KithTestKit.newUserId()));
  }

  @Test
  @DisplayName("bytes that only look like an image fail with reason undecodable")
  void garbageImageFails() throws Exception {
    JsonObject view = await(upload(newUser(), "image/png", png(5_000)));
    assertEquals("failed", view.getString("state"));
    assertEquals("undecodable", view.getString("reason"));
  }

  @Test
  @DisplayName("a video is probed after the upload: ready with duration, size, codec, a JPEG cover and a capped H.264 "
      + "rendition, pushed")
  void videoProbedWithCover() throws Exception {
    long owner = newUser();
    try (Pushes pushes = new Pushes(owner)) {
      JsonObject view = await(upload(owner, "video/mp4", Buffer.buffer(TestVideos.mp4(160, 120, 10))));
      assertTrue(List.of("processing", "ready").contains(view.getString("state")), view.encode());
      JsonObject ready = awaitSettled(owner, view.getLong("id"));
      assertEquals("ready", ready.getString("state"), ready.encode());
      assertEquals(160, ready.getInteger("width"));
      assertEquals(120, ready.getInteger("height"));
      assertTrue(ready.getLong("duration_ms") >= 1_000, ready.encode());
      assertEquals("mpeg4", ready.getString("codec"));
      JsonObject cover = variant(ready, "cover");
      assertEquals("image/jpeg", cover.getString("content_type"));
      BufferedImage frame = TestImages.decode(bytes(owner, view.getLong("id"), "cover"));
      assertNotNull(frame, "the cover is a decodable JPEG");
      assertEquals(160, frame.getWidth());
      JsonObject h264 = variant(ready, "h264");
      assertEquals("video/mp4", h264.getString("content_type"));
      assertEquals(96, h264.getInteger("width"));
      assertEquals(72, h264.getInteger("height"));
      java.io.File rendition = java.io.File.createTempFile("kith-test-h264-", ".mp4");
      try {
        java.nio.file.Files.write(rendition.toPath(), bytes(owner, view.getLong("id"), "h264"));
        ws.schild.jave.info.MultimediaInfo probe = new ws.schild.jave.MultimediaObject(rendition).getInfo();
        assertTrue(probe.getVideo().getDecoder().startsWith("h264"), probe.getVideo().getDecoder());
        assertEquals(96, probe.getVideo().getSize().getWidth());
      } finally {
        rendition.delete();
      }
      assertEquals(ready, pushes.take("media.ready").getJsonObject("media"));
    }
  }

  @Test
  @DisplayName("garbage labelled video/mp4 fails with reason undecodable, the failure is pushed, and it cannot be "
      + "attached")
  void garbageVideoFails() throws Exception {
    long owner = newUser();
    try (Pushes pushes = new Pushes(owner)) {
      long id = await(upload(owner, "video/mp4", mp4(50_000))).getLong("id");
      JsonObject failed = awaitSettled(owner, id);
      assertEquals("failed", failed.getString("state"));
      assertEquals("undecodable", failed.getString("reason"));
      assertNotNull(failed.getString("detail"));
      assertEquals(id, pushes.take("media.failed").getJsonObject("media").getLong("id"));
      failsWith("invalid_media", store.attach(owner, List.of(id), KithTestKit.newUserId()));
    }
  }

  @Test
  @DisplayName("a media's view and its variants are refused to others and for unknown variants, like its bytes")
  void infoRefusals() throws Exception {
    long owner = newUser();
    long id = await(upload(owner, "image/png", Buffer.buffer(TestImages.png(300, 200)))).getLong("id");
    failsWith("media_not_found", onContext(() -> media.info(newUser(), id)));
    failsWith("media_not_found", onContext(() -> media.info(0, id)));
    failsWith("media_not_found", onContext(() -> media.info(owner, id + 1_000_000)));
    failsWith("media_not_found", onContext(() -> media.read(newUser(), id, "w160", null)));
    failsWith("media_not_found", onContext(() -> media.read(owner, id, "w9999", null)));
    assertNull(MediaPipeline.variantRecord(record(id), "nope"));
  }
}
