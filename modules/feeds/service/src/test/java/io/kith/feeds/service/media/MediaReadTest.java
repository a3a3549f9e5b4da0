package io.kith.feeds.service.media;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class MediaReadTest extends MediaTestBase {

  private static final int SIZE = 600_000;

  @Test
  @DisplayName("byte ranges read exactly the requested bytes, across GridFS chunk boundaries")
  void ranges() throws Exception {
    long owner = newUser();
    Buffer bytes = mp4(SIZE);
    long id = uploaded(owner, "video/mp4", bytes);
    int boundary = MediaStore.CHUNK_SIZE;

    Read first = await(read(owner, id, "bytes=0-99"));
    assertEquals(bytes.getBuffer(0, 100), first.bytes());
    assertRange(first.info(), 0, 99);

    Read across = await(read(owner, id, "bytes=" + (boundary - 10) + "-" + (2 * boundary + 10)));
    assertEquals(bytes.getBuffer(boundary - 10, 2 * boundary + 11), across.bytes());
    assertRange(across.info(), boundary - 10, 2 * boundary + 10);

    Read suffix = await(read(owner, id, "bytes=-1000"));
    assertEquals(bytes.getBuffer(SIZE - 1000, SIZE), suffix.bytes());
    assertRange(suffix.info(), SIZE - 1000, SIZE - 1);

    Read open = await(read(owner, id, "bytes=" + boundary + "-"));
    assertEquals(bytes.getBuffer(boundary, SIZE), open.bytes());

    Read clamped = await(read(owner, id, "bytes=599990-700000"));
    assertEquals(bytes.getBuffer(599_990, SIZE), clamped.bytes());
    assertRange(clamped.info(), 599_990, SIZE - 1);

    Read oneByte = await(read(owner, id, "bytes=" + boundary + "-" + boundary));
    assertEquals(bytes.getBuffer(boundary, boundary + 1), oneByte.bytes());
  }

  private static void assertRange(JsonObject info, long start, long end) {
    assertEquals(true, info.getBoolean("partial"), info.encode());
    assertEquals(start, info.getLong("start"), info.encode());
    assertEquals(end, info.getLong("end"), info.encode());
    assertEquals(end - start + 1, info.getLong("length"), info.encode());
    assertEquals((long) SIZE, info.getLong("size"), info.encode());
  }

  @Test
  @DisplayName("a download is sent in pieces no larger than a GridFS chunk")
  void pieces() throws Exception {
    long owner = newUser();
    long id = uploaded(owner, "video/mp4", mp4(SIZE));
    Collector out = new Collector();
    await(onContext(() -> media.read(owner, id, null).compose(d -> d.pipeTo(out))));
    assertEquals(List.of(MediaStore.CHUNK_SIZE, MediaStore.CHUNK_SIZE, SIZE - 2 * MediaStore.CHUNK_SIZE), out.writes);
  }

  @Test
  @DisplayName("a range starting past the end is 416 with the size; malformed or multiple ranges read everything")
  void unsatisfiableAndIgnored() throws Exception {
    long owner = newUser();
    Buffer bytes = png(5_000);
    long id = uploaded(owner, "image/png", bytes);
    ServiceException e = failsWith("range_not_satisfiable", read(owner, id, "bytes=5000-"));
    assertEquals(416, e.failureCode());
    assertEquals(5_000L, e.getDebugInfo().getJsonObject("extra").getLong("size"));
    failsWith("range_not_satisfiable", read(owner, id, "bytes=-0"));
    for (String ignored : new String[] {"bytes=0-10,20-30", "items=0-10", "bytes=10-5", "bytes=abc", "bytes=-"}) {
      Read all = await(read(owner, id, ignored));
      assertEquals(bytes, all.bytes(), ignored);
      assertEquals(false, all.info().getBoolean("partial"), ignored);
    }
  }

  @Test
  @DisplayName("unattached media of another user, anonymous reads and missing media are the same 404")
  void notFound() throws Exception {
    long owner = newUser();
    long id = uploaded(owner, "image/png", png(1_000));
    ServiceException other = failsWith("media_not_found", read(newUser(), id, null));
    ServiceException anonymous = failsWith("media_not_found", read(0, id, null));
    ServiceException missing = failsWith("media_not_found", read(owner, id + 1_000_000, null));
    for (ServiceException e : List.of(other, anonymous, missing)) {
      assertEquals(404, e.failureCode());
      assertEquals(missing.getMessage(), e.getMessage());
    }
    failsWith("media_not_found", read(owner, -5, null));
  }

  @Test
  @DisplayName("others read media of a post only while the feeds service says that post is visible to them")
  void visibilityFollowsPosts() throws Exception {
    long owner = newUser();
    long reader = newUser();
    long stranger = newUser();
    long id = uploaded(owner, "image/png", realPng());
    // the pipeline re-encoded the image: what the owner reads is what others read
    Buffer bytes = await(read(owner, id, null)).bytes();
    long post = platform.ids().next();
    long otherPost = platform.ids().next();
    await(store.attach(owner, List.of(id), post));
    await(store.attach(owner, List.of(id), otherPost));
    visible.add(reader + ":" + otherPost);
    visible.add("0:" + post); // a public post: anonymous readers see it

    assertEquals(bytes, await(read(reader, id, null)).bytes());
    assertEquals(bytes, await(read(0, id, null)).bytes());
    failsWith("media_not_found", read(stranger, id, null));

    visible.remove(reader + ":" + otherPost); // e.g. the author blocked the reader
    failsWith("media_not_found", read(reader, id, null));
    assertEquals(bytes, await(read(owner, id, "bytes=0-")).bytes());
  }
}
