package io.kith.feeds.service.media;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MediaUploadTest extends MediaTestBase {

  @Test
  @DisplayName("an uploaded PNG is stored with the type read from its bytes and reads back byte for byte")
  void pngRoundTrip() throws Exception {
    long owner = newUser();
    Buffer bytes = png(40_000);
    JsonObject stored = await(upload(owner, "image/png", bytes));
    assertEquals("image", stored.getString("kind"));
    assertEquals("image/png", stored.getString("content_type"));
    assertEquals(40_000L, stored.getLong("size"));
    Read read = await(read(owner, stored.getLong("id"), null));
    assertEquals(bytes, read.bytes());
    assertEquals("image/png", read.info().getString("content_type"));
    assertEquals(false, read.info().getBoolean("partial"));
    assertEquals(40_000L, read.info().getLong("length"));
  }

  @Test
  @DisplayName("each accepted format is recognised from its bytes, whatever subtype was declared")
  void formats() throws Exception {
    long owner = newUser();
    assertEquals("image/jpeg", await(upload(owner, "image/png", jpeg(2_000))).getString("content_type"));
    assertEquals("image/gif", await(upload(owner, "image/jpeg", gif(2_000))).getString("content_type"));
    assertEquals("image/webp", await(upload(owner, "image/webp", webp(2_000))).getString("content_type"));
    assertEquals("video/mp4", await(upload(owner, "video/mp4", mp4(2_000))).getString("content_type"));
    assertEquals("video/quicktime", await(upload(owner, "video/mp4", quicktime(2_000))).getString("content_type"));
    JsonObject webm = await(upload(owner, "application/octet-stream", webm(2_000)));
    assertEquals("video/webm", webm.getString("content_type"));
    assertEquals("video", webm.getString("kind"));
  }

  @Test
  @DisplayName("a video larger than one message and one GridFS chunk is stored in chunks and reads back whole")
  void multiChunkVideo() throws Exception {
    long owner = newUser();
    Buffer bytes = mp4(700_000);
    JsonObject stored = await(upload(owner, "video/mp4", bytes));
    assertEquals("video", stored.getString("kind"));
    assertEquals(700_000L, stored.getLong("size"));
    JsonObject record = record(stored.getLong("id"));
    // 700,000 bytes in chunks of 255 KiB: 3 chunks, and the files document
    assertEquals(4, gridFsDocuments(record.getString("file")));
    Read read = await(read(owner, stored.getLong("id"), null));
    assertEquals(bytes, read.bytes());
  }

  @Test
  @DisplayName("bytes of no accepted format are refused with 415 even when declared image/png, and nothing is kept")
  void sniffedNotDeclared() throws Exception {
    long owner = newUser();
    Buffer text = Buffer.buffer("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>"
        + "x".repeat(500));
    failsWith("unsupported_media", upload(owner, "image/png", text));
    // an ISO file with an image brand (HEIC) is not a video
    Buffer heic = withAscii(withAscii(withHead(3_000, 0, 0, 0, 0x18), 4, "ftyp"), 8, "heic");
    failsWith("unsupported_media", upload(owner, "video/mp4", heic));
    // a tiny body that cannot be told apart
    failsWith("unsupported_media", upload(owner, "image/jpeg", Buffer.buffer(new byte[] {(byte) 0xFF})));
    assertEquals(0, await(platform.mongo().count(MediaStore.ITEMS, new JsonObject().put("owner", owner))));
  }

  @Test
  @DisplayName("content of the other kind than declared is refused with 415")
  void kindMismatch() throws Exception {
    long owner = newUser();
    failsWith("unsupported_media", upload(owner, "image/png", mp4(5_000)));
    failsWith("unsupported_media", upload(owner, "video/mp4", png(5_000)));
  }

  @Test
  @DisplayName("a declared type that is neither image nor video is refused with 415 before any byte is read")
  void declaredType() throws Exception {
    long owner = newUser();
    Buffer bytes = png(5_000);
    for (String type : new String[] {"text/plain", "application/json", "image/", null}) {
      PieceStream body = new PieceStream(bytes, 1_000, null);
      failsWith("unsupported_media", upload(owner, type, bytes, bytes.length(), body));
      assertEquals(0, body.emitted, "no byte read for " + type);
    }
  }

  @Test
  @DisplayName("an image over the image limit is refused with 413 as its bytes arrive, and nothing is kept")
  void imageTooLargeWhileStreaming() throws Exception {
    long owner = newUser();
    long chunksBefore = await(platform.mongo().count(MediaStore.CHUNKS, new JsonObject()));
    Buffer bytes = png(IMAGE_MAX + 1);
    PieceStream body = new PieceStream(bytes, 16 * 1024, null);
    // no declared length: the limit is enforced on the bytes themselves
    ServiceException e = failsWith("media_too_large", upload(owner, "image/png", bytes, -1, body));
    assertEquals(413, e.failureCode());
    assertEquals(0, await(platform.mongo().count(MediaStore.ITEMS, new JsonObject().put("owner", owner))));
    assertEquals(chunksBefore, await(platform.mongo().count(MediaStore.CHUNKS, new JsonObject())));
    // exactly at the limit is fine
    assertEquals((long) IMAGE_MAX, await(upload(owner, "image/png", png(IMAGE_MAX))).getLong("size"));
  }

  @Test
  @DisplayName("a video over the video limit is refused with 413 after chunks were stored, and they are removed")
  void videoTooLargeRemovesChunks() throws Exception {
    long owner = newUser();
    long chunksBefore = await(platform.mongo().count(MediaStore.CHUNKS, new JsonObject()));
    Buffer bytes = mp4(VIDEO_MAX + 10);
    failsWith("media_too_large", upload(owner, "video/mp4", bytes, -1, new PieceStream(bytes, 64 * 1024, null)));
    assertEquals(0, await(platform.mongo().count(MediaStore.ITEMS, new JsonObject().put("owner", owner))));
    pollChunks(chunksBefore);
  }

  private void pollChunks(long expected) throws Exception {
    await(io.kith.platform.testkit.Poll.until(vertx, java.time.Duration.ofSeconds(10), "chunks removed",
        () -> platform.mongo().count(MediaStore.CHUNKS, new JsonObject()).map(n -> n == expected)));
  }

  @Test
  @DisplayName("a declared length over the limit is refused with 413 before any byte is read")
  void declaredTooLarge() throws Exception {
    long owner = newUser();
    Buffer bytes = png(1_000);
    PieceStream body = new PieceStream(bytes, 100, null);
    failsWith("media_too_large", upload(owner, "image/png", bytes, IMAGE_MAX + 1, body));
    assertEquals(0, body.emitted);
    // the same length is fine for a video
    Buffer video = webm(IMAGE_MAX + 1);
    assertEquals("video/webm", await(upload(owner, "video/webm", video)).getString("content_type"));
    // and a declared length that lies (shorter than the body) does not get an image past the limit
    Buffer big = png(IMAGE_MAX + 5_000);
    failsWith("media_too_large", upload(owner, "image/png", big, 100, new PieceStream(big, 8_192, null)));
  }

  @Test
  @DisplayName("an upload whose client goes away is abandoned and leaves nothing behind")
  void abandoned() throws Exception {
    long owner = newUser();
    long chunksBefore = await(platform.mongo().count(MediaStore.CHUNKS, new JsonObject()));
    Buffer bytes = mp4(600_000);
    PieceStream body = new PieceStream(bytes, 64 * 1024, new IllegalStateException("connection closed"));
    Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class,
        () -> await(upload(owner, "video/mp4", bytes, -1, body)));
    assertTrue(e.getCause() instanceof IllegalStateException, e.toString());
    await(io.kith.platform.testkit.Poll.until(vertx, java.time.Duration.ofSeconds(10), "upload discarded",
        () -> platform.mongo().count(MediaStore.ITEMS, new JsonObject().put("owner", owner)).map(n -> n == 0)));
    pollChunks(chunksBefore);
  }

  @Test
  @DisplayName("uploads per user are limited per window with 429 and retry_after; other users are not affected")
  void rateLimited() throws Exception {
    long owner = newUser();
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < UPLOADS_PER_WINDOW; i++) {
      ids.add(uploaded(owner, "image/gif", gif(100)));
    }
    ServiceException e = failsWith("rate_limited", upload(owner, "image/gif", gif(100)));
    assertTrue(e.getDebugInfo().getJsonObject("extra").getLong("retry_after") > 0, e.getDebugInfo().encode());
    assertEquals(UPLOADS_PER_WINDOW, ids.size());
    uploaded(newUser(), "image/gif", gif(100));
  }

  @Test
  @DisplayName("an upload needs an acting user")
  void anonymousUpload() throws Exception {
    failsWith("unauthenticated", upload(0, "image/png", png(100)));
  }
}
