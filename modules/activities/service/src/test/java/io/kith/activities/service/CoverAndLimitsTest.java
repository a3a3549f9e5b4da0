package io.kith.activities.service;

import io.kith.feeds.api.MediaClient;
import io.kith.platform.testkit.TestImages;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Cover images from the media store, and the creation limit")
class CoverAndLimitsTest extends ActivitiesTestBase {

  @Override
  protected JsonObject activitiesConfig() {
    return new JsonObject().put("creates-per-hour", 3);
  }

  /** Uploads {@code bytes} to the feeds media store as {@code actor}; answers the media id. */
  private long upload(long actor, String type, Buffer bytes) throws Exception {
    Path file = Files.createTempFile("kith-cover", ".bin");
    Files.write(file, bytes.getBytes());
    Promise<JsonObject> done = Promise.promise();
    vertx.getOrCreateContext().runOnContext(v -> vertx.fileSystem().open(file.toString(), new OpenOptions().setRead(true))
        .compose(f -> MediaClient.create(vertx).upload(actor, type, bytes.length(), f).eventually(f::close))
        .onComplete(done));
    try {
      return await(done.future()).getLong("id");
    } finally {
      Files.deleteIfExists(file);
    }
  }

  private static Buffer withHead(int size, int... head) {
    Buffer b = Buffer.buffer(new byte[size]);
    for (int i = 0; i < head.length; i++) {
      b.setByte(i, (byte) head[i]);
    }
    return b;
  }

  @Test
  @DisplayName("a cover is an image the organiser uploaded; someone else's upload, a video, an image that failed "
      + "processing or an unknown id are refused")
  void coverMedia() throws Exception {
    long organiser = newUser();
    long other = newUser();
    // real images: made-up bytes fail the media pipeline, and failed media are attached to nothing
    long image = upload(organiser, "image/png", Buffer.buffer(TestImages.png(40, 30)));
    long foreign = upload(other, "image/png", Buffer.buffer(TestImages.png(40, 30)));
    // another organiser: creates-per-hour is 3 here and refused creates count
    long second = newUser();
    long undecodable = upload(second, "image/png", withHead(200, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A));
    Buffer mp4 = withHead(200, 0, 0, 0, 0x18);
    mp4.setString(4, "ftypisom");
    long video = upload(organiser, "video/mp4", mp4);
    JsonObject view = create(organiser, body().put("cover", new JsonObject().put("media", image)));
    assertEquals(image, view.getJsonObject("cover").getLong("media"));
    failsWith("validation_failed", "cover.media", activities.create(organiser,
        body().put("cover", new JsonObject().put("media", foreign))));
    failsWith("validation_failed", "cover.media", activities.create(organiser,
        body().put("cover", new JsonObject().put("media", video))));
    failsWith("validation_failed", "cover.media", activities.create(second,
        body().put("cover", new JsonObject().put("media", undecodable))));
    JsonObject changed = await(activities.update(organiser, view.getLong("id"),
        new JsonObject().put("cover", new JsonObject().put("url", "https://example.org/x.png"))));
    assertEquals("https://example.org/x.png", changed.getJsonObject("cover").getString("url"));
    assertEquals(null, await(activities.update(organiser, view.getLong("id"), new JsonObject().putNull("cover")))
        .getJsonObject("cover"));
  }

  @Test
  @DisplayName("past the per-hour creation limit a new activity is refused with retry_after; other users are not")
  void createLimit() throws Exception {
    long u = newUser();
    long v = newUser();
    create(u, body());
    create(u, body());
    create(u, body());
    ServiceException limited = failsWith("rate_limited", null, activities.create(u, body()));
    long retryAfter = limited.getDebugInfo().getJsonObject("extra").getLong("retry_after");
    assertTrue(retryAfter >= 1 && retryAfter <= 3600, "retry_after " + retryAfter);
    create(v, body());
  }
}
