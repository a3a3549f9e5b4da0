package io.kith.feeds.service.media;

import ws.schild.jave.Encoder;
import ws.schild.jave.EncoderException;
import ws.schild.jave.MultimediaObject;
import ws.schild.jave.encode.AudioAttributes;
import ws.schild.jave.encode.EncodingAttributes;
import ws.schild.jave.encode.VideoAttributes;
import ws.schild.jave.info.VideoSize;
import ws.schild.jave.process.ProcessLocator;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;

/**
 * The optional transcoding step of the media pipeline (off by default: it costs a core for about the video's length):
 * a standard H.264/AAC MP4 that every player plays, its longest side and its video bitrate capped, offered as the
 * media's {@code h264} variant next to the upload.
 */
final class VideoTranscode {

  /** Variant name of the transcoded rendition. */
  static final String VARIANT = "h264";

  /** The transcoding settings; {@code enabled} false skips the step. */
  record Settings(boolean enabled, int maxSide, int videoBitrate, int audioBitrate) {
  }

  private final Settings settings;
  private final ProcessLocator ffmpeg;

  VideoTranscode(Settings settings, ProcessLocator ffmpeg) {
    this.settings = settings;
    this.ffmpeg = ffmpeg;
  }

  boolean enabled() {
    return settings.enabled();
  }

  /** Transcodes {@code video} ({@code width} x {@code height}); throws {@link MediaRefused} when ffmpeg cannot. */
  ImageVariants.Encoded transcode(File video, int width, int height, boolean hasAudio) {
    double scale = Math.min(1.0, settings.maxSide() / (double) Math.max(width, height));
    // H.264 in 4:2:0 needs even dimensions
    int w = Math.max(2, (int) Math.round(width * scale) / 2 * 2);
    int h = Math.max(2, (int) Math.round(height * scale) / 2 * 2);
    VideoAttributes v = new VideoAttributes().setCodec("libx264").setBitRate(settings.videoBitrate())
        .setSize(new VideoSize(w, h)).setPixelFormat("yuv420p");
    EncodingAttributes attributes = new EncodingAttributes().setOutputFormat("mp4").setVideoAttributes(v);
    if (hasAudio) {
      attributes.setAudioAttributes(new AudioAttributes().setCodec("aac").setBitRate(settings.audioBitrate()));
    }
    File out = null;
    try {
      out = File.createTempFile("kith-h264-", ".mp4");
      new Encoder(ffmpeg).encode(new MultimediaObject(video, ffmpeg), out, attributes);
      return new ImageVariants.Encoded(w, h, "video/mp4", Files.readAllBytes(out.toPath()));
    } catch (EncoderException | IOException | RuntimeException e) {
      throw new MediaRefused("undecodable", "the video cannot be transcoded");
    } finally {
      if (out != null && !out.delete()) {
        out.deleteOnExit();
      }
    }
  }
}
