package io.kith.feeds.service.media;

import io.kith.platform.Platform;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import ws.schild.jave.process.ffmpeg.DefaultFFMPEGLocator;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code feeds.media.ffmpeg-path}: the video steps run the configured executable instead of the ffmpeg JAVE ships.
 * The configured one here is a script that writes down its arguments and runs JAVE's ffmpeg (no system ffmpeg is
 * installed on the machines the tests run on), so the test sees that the pipeline called it.
 */
@DisplayName("A configured ffmpeg (feeds.media.ffmpeg-path) runs the video steps; a path that is no executable stops "
    + "the start")
class MediaFfmpegPathTest extends MediaTestBase {

  private Path dir;
  private Path calls;

  @Override
  protected JsonObject mediaConfig() {
    try {
      dir = Files.createTempDirectory("kith-test-ffmpeg-");
      calls = dir.resolve("calls.log");
      Path script = dir.resolve("ffmpeg");
      Files.writeString(script, "#!/bin/sh\necho \"$@\" >> '" + calls + "'\nexec '"
          + new DefaultFFMPEGLocator().getExecutablePath() + "' \"$@\"\n");
      Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
      return super.mediaConfig().put("ffmpeg-path", script.toString());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  @DisplayName("a video is probed and given its cover by the configured ffmpeg")
  void configuredFfmpegRuns() throws Exception {
    long owner = newUser();
    long id = await(upload(owner, "video/mp4", Buffer.buffer(TestVideos.mp4(64, 48, 3)))).getLong("id");
    await(Poll.until(vertx, Duration.ofSeconds(90), "media " + id + " to leave processing",
        () -> onContext(() -> media.info(owner, id)).map(v -> !"processing".equals(v.getString("state")))));
    JsonObject view = await(onContext(() -> media.info(owner, id)));
    assertEquals("ready", view.getString("state"), view.encode());
    assertEquals(64, view.getInteger("width"));
    assertEquals(List.of("cover"), view.getJsonArray("variants").stream()
        .map(v -> ((JsonObject) v).getString("name")).toList());
    List<String> lines = Files.readAllLines(calls);
    // the probe and the cover frame, each reading the pipeline's copy of the upload
    assertTrue(lines.stream().filter(l -> l.contains("kith-media-")).count() >= 2, lines.toString());
  }

  @Test
  @DisplayName("a feeds.media.ffmpeg-path that is missing or not executable stops the media verticle's start, "
      + "naming the key")
  void badPathRefused() throws Exception {
    Path notExecutable = Files.writeString(dir.resolve("not-ffmpeg"), "just text");
    for (String path : List.of(dir.resolve("missing").toString(), notExecutable.toString())) {
      Platform other = await(KithTestKit.platform(vertx, new JsonObject().put("feeds", new JsonObject()
          .put("media", new JsonObject().put("ffmpeg-path", path)))));
      try {
        ExecutionException e = assertThrows(ExecutionException.class,
            () -> await(vertx.deployVerticle(new MediaVerticle(other))));
        String message = e.getCause().getMessage();
        assertTrue(message.contains("feeds.media.ffmpeg-path") && message.contains(path), message);
      } finally {
        await(other.close());
      }
    }
  }
}
