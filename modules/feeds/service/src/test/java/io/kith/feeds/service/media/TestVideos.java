package io.kith.feeds.service.media;

import io.kith.platform.testkit.TestImages;
import ws.schild.jave.process.ProcessWrapper;
import ws.schild.jave.process.ffmpeg.DefaultFFMPEGLocator;

import javax.imageio.ImageIO;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A few-frame MP4 drawn by the test (PNG frames) and encoded by the ffmpeg that JAVE ships. Public for the HTTP tests
 * of the app module (through this module's test-jar), which need videos the pipeline decodes.
 */
public final class TestVideos {

  private TestVideos() {
  }

  /** An MPEG-4 video of {@code frames} frames of {@code width} x {@code height} at 5 frames a second. */
  public static byte[] mp4(int width, int height, int frames) throws IOException {
    Path dir = Files.createTempDirectory("kith-test-video-");
    try {
      for (int i = 0; i < frames; i++) {
        ImageIO.write(TestImages.picture(width, height), "png", dir.resolve(String.format("f%03d.png", i)).toFile());
      }
      File out = dir.resolve("out.mp4").toFile();
      try (ProcessWrapper ffmpeg = new DefaultFFMPEGLocator().createExecutor()) {
        for (String arg : new String[] {"-y", "-framerate", "5", "-i", dir.resolve("f%03d.png").toString(),
            "-c:v", "mpeg4", "-pix_fmt", "yuv420p", "-f", "mp4", out.getAbsolutePath()}) {
          ffmpeg.addArgument(arg);
        }
        ffmpeg.execute();
        String log = new String(ffmpeg.getErrorStream().readAllBytes());
        if (ffmpeg.getProcessExitCode() != 0 || !out.isFile()) {
          throw new IOException("ffmpeg could not encode the test video: " + log);
        }
      }
      return Files.readAllBytes(out.toPath());
    } finally {
      try (Stream<Path> files = Files.walk(dir)) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }
}
