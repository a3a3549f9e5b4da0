package io.kith.feeds.service.media;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MediaAttachTest extends MediaTestBase {

  private long post() {
    return platform.ids().next();
  }

  private List<Long> images(long owner, int n) throws Exception {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(uploaded(owner, "image/png", realPng()));
    }
    return ids;
  }

  private static JsonArray offending(ServiceException e) {
    return e.getDebugInfo().getJsonObject("extra").getJsonArray("media");
  }

  @Test
  @DisplayName("attaching returns the media views (state and variants) in the given order and records the post on "
      + "each media")
  void attach() throws Exception {
    long owner = newUser();
    long video = uploaded(owner, "video/mp4", realMp4());
    long cover = uploaded(owner, "image/png", realPng());
    long post = post();
    List<JsonObject> out = await(store.attach(owner, List.of(video, cover), post));
    assertEquals(2, out.size());
    JsonObject first = out.get(0);
    assertEquals(new JsonObject().put("id", video).put("kind", "video").put("content_type", "video/mp4")
        .put("size", (long) realMp4().length()), new JsonObject().put("id", first.getLong("id"))
        .put("kind", first.getString("kind")).put("content_type", first.getString("content_type"))
        .put("size", first.getLong("size")));
    // the video may still be processing; the image was processed before its upload answered
    assertTrue(List.of("processing", "ready").contains(first.getString("state")), first.encode());
    assertEquals(cover, out.get(1).getLong("id"));
    assertEquals("image/png", out.get(1).getString("content_type"));
    assertEquals(MediaPipeline.view(record(cover)), out.get(1));
    assertEquals(new JsonArray().add(post), record(video).getJsonArray("posts"));
    assertEquals(List.of(), await(store.attach(owner, List.of(), post())));
    List<Long> nine = images(owner, 9);
    assertEquals(9, await(store.attach(owner, nine, post())).size());
  }

  @Test
  @DisplayName("another user's media, unknown ids and repeated ids are invalid_media naming them, and nothing is attached")
  void notTheAuthors() throws Exception {
    long owner = newUser();
    long other = newUser();
    long mine = uploaded(owner, "image/png", realPng());
    long theirs = uploaded(other, "image/png", realPng());
    long post = post();
    ServiceException e = failsWith("invalid_media", store.attach(owner, List.of(mine, theirs), post));
    assertEquals(400, e.failureCode());
    assertEquals(new JsonArray().add(theirs), offending(e));
    assertEquals(new JsonArray(), record(mine).getJsonArray("posts"));
    assertEquals(new JsonArray(), record(theirs).getJsonArray("posts"));

    long unknown = mine + 987_654_321L;
    assertEquals(new JsonArray().add(unknown),
        offending(failsWith("invalid_media", store.attach(owner, List.of(mine, unknown), post))));
    assertEquals(new JsonArray().add(mine),
        offending(failsWith("invalid_media", store.attach(owner, List.of(mine, mine), post))));
  }

  @Test
  @DisplayName("more than 9 images, two videos, or a video with two images are refused")
  void counts() throws Exception {
    long owner = newUser();
    List<Long> ten = images(owner, 10);
    ServiceException tooMany = failsWith("invalid_media", store.attach(owner, ten, post()));
    assertEquals(new JsonArray().add(ten.get(9)), offending(tooMany));
    for (long id : ten) {
      assertEquals(new JsonArray(), record(id).getJsonArray("posts"));
    }

    long owner2 = newUser();
    long v1 = uploaded(owner2, "video/mp4", realMp4());
    long v2 = uploaded(owner2, "video/mp4", realMp4());
    assertEquals(new JsonArray().add(v2),
        offending(failsWith("invalid_media", store.attach(owner2, List.of(v1, v2), post()))));

    List<Long> two = images(owner2, 2);
    assertEquals(new JsonArray().add(two.get(1)),
        offending(failsWith("invalid_media", store.attach(owner2, List.of(two.get(0), v1, two.get(1)), post()))));
    // a video with one cover image is fine
    assertEquals(2, await(store.attach(owner2, List.of(v1, two.get(0)), post())).size());
  }

  @Test
  @DisplayName("detaching the last post removes the media and its GridFS files; media another post uses stay")
  void detach() throws Exception {
    long owner = newUser();
    long shared = uploaded(owner, "video/mp4", realMp4());
    long single = uploaded(owner, "image/png", realPng());
    String sharedFile = record(shared).getString("file");
    String singleFile = record(single).getString("file");
    long p1 = post();
    long p2 = post();
    await(store.attach(owner, List.of(shared, single), p1));
    await(store.attach(owner, List.of(shared), p2));
    // the files document and the chunks
    assertEquals(1 + (realMp4().length() + MediaStore.CHUNK_SIZE - 1) / MediaStore.CHUNK_SIZE,
        gridFsDocuments(sharedFile));

    await(store.detach(p1, List.of(shared, single)));
    assertNull(record(single));
    assertEquals(0, gridFsDocuments(singleFile));
    failsWith("media_not_found", read(owner, single, null));
    assertEquals(new JsonArray().add(p2), record(shared).getJsonArray("posts"));
    assertEquals(realMp4().length(), await(read(owner, shared, null)).bytes().length());

    await(store.detach(p2, List.of(shared)));
    assertNull(record(shared));
    assertEquals(0, gridFsDocuments(sharedFile));
    // idempotent
    await(store.detach(p2, List.of(shared)));
  }

  @Test
  @DisplayName("detaching a post leaves alone media that post did not use")
  void detachOnlyWhatThePostUsed() throws Exception {
    long owner = newUser();
    long fresh = uploaded(owner, "image/png", png(500));
    await(store.detach(post(), List.of(fresh)));
    assertNotNull(record(fresh));
  }

  @Test
  @DisplayName("the sweep removes old uploads that no post uses, and keeps attached and recent ones")
  void sweep() throws Exception {
    long owner = newUser();
    long unused = uploaded(owner, "image/png", png(500));
    long attached = uploaded(owner, "image/png", realPng());
    await(store.attach(owner, List.of(attached), post()));
    String unusedFile = record(unused).getString("file");

    // nothing is older than an hour ago
    await(store.sweep(System.currentTimeMillis() - 3_600_000, 500));
    assertNotNull(record(unused));

    long cutoff = System.currentTimeMillis() + 1;
    int removed = 0;
    for (int pass = 0; pass < 100 && record(unused) != null; pass++) {
      removed += await(store.sweep(cutoff, 500));
    }
    assertTrue(removed >= 1);
    assertNull(record(unused));
    assertEquals(0, gridFsDocuments(unusedFile));
    assertNotNull(record(attached));
    // an attach of a swept media is refused
    failsWith("invalid_media", store.attach(owner, List.of(unused), post()));
  }

  @Test
  @DisplayName("one media can be used by at most 20 posts (a read checks each of them)")
  void postsPerMediaBounded() throws Exception {
    long owner = newUser();
    long image = uploaded(owner, "image/png", realPng());
    for (int i = 0; i < MediaStore.MAX_POSTS_PER_MEDIA; i++) {
      assertEquals(1, await(store.attach(owner, List.of(image), post())).size());
    }
    ServiceException full = failsWith("invalid_media", store.attach(owner, List.of(image), post()));
    assertEquals(new JsonArray().add(image), offending(full));
  }

  @Test
  @DisplayName("a media that failed processing (bytes that decode as nothing) is invalid_media for a post and for "
      + "another domain's object, and stays attached to nothing")
  void failedMediaRefused() throws Exception {
    long owner = newUser();
    JsonObject garbage = await(upload(owner, "image/png", png(2_000)));
    assertEquals("failed", garbage.getString("state"));
    assertEquals("undecodable", garbage.getString("reason"));
    long id = garbage.getLong("id");
    long good = uploaded(owner, "image/png", realPng());

    ServiceException e = failsWith("invalid_media", store.attach(owner, List.of(good, id), post()));
    assertEquals(new JsonArray().add(id), offending(e));
    assertEquals(new JsonArray(), record(good).getJsonArray("posts"));
    assertEquals(new JsonArray(), record(id).getJsonArray("posts"));

    assertEquals(new JsonArray().add(id), offending(failsWith("invalid_media",
        store.attachTo(owner, id, "accounts:" + owner))));
    assertNull(record(id).getJsonArray(MediaStore.ATTACHED));
    // the good one is still attachable both ways
    assertEquals(1, await(store.attach(owner, List.of(good), post())).size());
    assertEquals(good, await(store.attachTo(owner, good, "accounts:" + owner)).getLong("id"));
  }
}
