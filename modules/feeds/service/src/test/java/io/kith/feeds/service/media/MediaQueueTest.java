package io.kith.feeds.service.media;

import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.TestImages;
import io.vertx.core.Future;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The bounded processing queue: a node with one worker and room for one media refuses the next upload with 503. */
class MediaQueueTest extends MediaTestBase {

  @Override
  protected JsonObject mediaConfig() {
    return super.mediaConfig().put("workers", 1).put("max-queued", 1);
  }

  @Test
  @DisplayName("while the processing queue is full an upload is refused with unavailable, and accepted once it drains")
  void fullQueueRefuses() throws Exception {
    long owner = newUser();
    // hold the media pool's only thread (the shared pool is found by its name), so the first video waits in it
    WorkerExecutor pool = vertx.createSharedWorkerExecutor("kith-media", 1);
    CountDownLatch release = new CountDownLatch(1);
    Future<Boolean> held = pool.executeBlocking(() -> release.await(120, TimeUnit.SECONDS));
    long first = await(upload(owner, "video/mp4", Buffer.buffer(TestVideos.mp4(64, 48, 3)))).getLong("id");
    try {
      failsWith("unavailable", upload(owner, "image/png", Buffer.buffer(TestImages.png(40, 30))));
    } finally {
      release.countDown();
    }
    await(held);
    await(Poll.until(vertx, Duration.ofSeconds(60), "the first video to be processed",
        () -> onContext(() -> media.info(owner, first)).map(v -> "ready".equals(v.getString("state")))));
    assertEquals("ready", await(upload(owner, "image/png", Buffer.buffer(TestImages.png(40, 30))))
        .getString("state"));
    pool.close();
  }
}
