package io.kith.platform.events;

import io.kith.platform.testkit.Await;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.Timeout;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(VertxExtension.class)
@Timeout(60)
@DisplayName("The export contract: a domain's part served in pages at kith.export.<domain>")
class ExportsTest {

  @Test
  @DisplayName("the exporter reads every page of a domain's part in order, following its cursor to the end")
  void pages(Vertx vertx) throws Exception {
    Exports.serve(vertx, "things", (user, cursor) -> {
      int from = cursor == null ? 0 : Integer.parseInt(cursor);
      List<Exports.Record> records = new ArrayList<>();
      for (int i = from; i < Math.min(from + 2, 5); i++) {
        records.add(new Exports.Record("things.json", new JsonObject().put("n", i).put("owner", user)));
      }
      return Future.succeededFuture(new Exports.Page(records, from + 2 < 5 ? Integer.toString(from + 2) : null));
    });
    List<Integer> seen = new ArrayList<>();
    String cursor = null;
    int pages = 0;
    do {
      Exports.Page page = Await.result(Exports.fetch(vertx, "things", 42, cursor, 10_000));
      for (Exports.Record r : page.records()) {
        assertEquals("things.json", r.file());
        assertEquals(42L, r.item().getLong("owner"));
        seen.add(r.item().getInteger("n"));
      }
      cursor = page.cursor();
      pages++;
    } while (cursor != null);
    assertEquals(List.of(0, 1, 2, 3, 4), seen);
    assertEquals(3, pages);
  }

  @Test
  @DisplayName("a failing source, a request without a user and a missing domain fail the fetch, never a short page")
  void refusals(Vertx vertx) {
    Exports.serve(vertx, "broken", (user, cursor) -> Future.failedFuture(new IllegalStateException("store down")));
    Exports.serve(vertx, "throws", (user, cursor) -> {
      throw new IllegalStateException("bug");
    });
    ReplyException failed = (ReplyException) Await.failure(Exports.fetch(vertx, "broken", 1, null, 10_000));
    assertTrue(failed.getMessage().contains("store down"), failed.getMessage());
    assertEquals(500, ((ReplyException) Await.failure(Exports.fetch(vertx, "throws", 1, null, 10_000))).failureCode());
    ReplyException noUser = (ReplyException) Await.failure(Exports.fetch(vertx, "broken", 0, null, 10_000));
    assertEquals(400, noUser.failureCode());
    assertTrue(Await.failure(Exports.fetch(vertx, "nobody", 1, null, 10_000)) instanceof ReplyException);
  }

  @Test
  @DisplayName("a page is bounded and its files are plain lowercase .json names (no path can be written)")
  void bounds() {
    JsonObject item = new JsonObject();
    List<Exports.Record> tooMany = Collections.nCopies(Exports.MAX_RECORDS + 1, new Exports.Record("a.json", item));
    assertThrows(IllegalArgumentException.class, () -> new Exports.Page(tooMany, null));
    for (String bad : List.of("../x.json", "a/b.json", "x.zip", "X.json", "")) {
      assertThrows(IllegalArgumentException.class,
          () -> new Exports.Page(List.of(new Exports.Record(bad, item)), null), bad);
    }
    Exports.Page ok = new Exports.Page(List.of(new Exports.Record("posts.json", item)), null);
    Exports.Page back = Exports.Page.fromJson(ok.toJson());
    assertEquals(ok.records(), back.records());
    assertNull(back.cursor());
  }

  @Test
  @DisplayName("a blob is fetched chunk by chunk from its domain; another user's or a missing blob fails the fetch")
  void blobs(Vertx vertx) {
    byte[] bytes = new byte[600_000];
    for (int i = 0; i < bytes.length; i++) {
      bytes[i] = (byte) i;
    }
    Exports.serveBlobs(vertx, "pics", (user, id, n) -> {
      if (user != 7 || !"b1".equals(id)) {
        return Future.failedFuture(new IllegalArgumentException("no blob " + id + " of user " + user));
      }
      int from = n * Exports.MAX_CHUNK;
      int to = Math.min(bytes.length, from + Exports.MAX_CHUNK);
      int chunks = (bytes.length + Exports.MAX_CHUNK - 1) / Exports.MAX_CHUNK;
      return Future.succeededFuture(new Exports.Chunk(java.util.Arrays.copyOfRange(bytes, from, to), chunks));
    });
    java.io.ByteArrayOutputStream got = new java.io.ByteArrayOutputStream();
    int n = 0;
    int chunks;
    do {
      Exports.Chunk c = Await.result(Exports.fetchBlob(vertx, "pics", 7, "b1", n, 10_000));
      got.writeBytes(c.data());
      chunks = c.chunks();
      n++;
    } while (n < chunks);
    assertEquals(3, chunks);
    assertTrue(java.util.Arrays.equals(bytes, got.toByteArray()), "the bytes came back whole and in order");
    assertTrue(Await.failure(Exports.fetchBlob(vertx, "pics", 8, "b1", 0, 10_000)).getMessage().contains("no blob"));
    assertEquals(400, ((ReplyException) Await.failure(Exports.fetchBlob(vertx, "pics", 7, "b1", -1, 10_000)))
        .failureCode());
  }

  @Test
  @DisplayName("a record's blob must name a plain file (no path can be written)")
  void blobNames() {
    for (String bad : List.of("../x.jpg", "a/b.jpg", "", ".hidden", "x.jpg/")) {
      JsonObject item = new JsonObject().put(Exports.BLOB, new JsonObject().put("id", "1").put("name", bad));
      assertThrows(IllegalArgumentException.class,
          () -> new Exports.Page(List.of(new Exports.Record("media.json", item)), null), bad);
    }
    JsonObject ok = new JsonObject().put(Exports.BLOB, new JsonObject().put("id", "1").put("name", "233-1.jpg"));
    assertEquals(1, new Exports.Page(List.of(new Exports.Record("media.json", ok)), null).records().size());
  }
}
