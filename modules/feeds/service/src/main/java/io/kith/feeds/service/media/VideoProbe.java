package io.kith.feeds.service.media;

import ws.schild.jave.EncoderException;
import ws.schild.jave.MultimediaObject;
import ws.schild.jave.ScreenExtractor;
import ws.schild.jave.info.MultimediaInfo;
import ws.schild.jave.info.VideoInfo;
import ws.schild.jave.process.ProcessLocator;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;

/**
 * The video step of the media pipeline, run on a worker thread with the ffmpeg that JAVE ships (or the one
 * {@code feeds.media.ffmpeg-path} names): probes duration, frame
 * size and codec (what ffmpeg cannot probe is refused), refuses videos longer than the limit, extracts a JPEG
 * cover frame, and transcodes when that is switched on ({@link VideoTranscode}).
 */
final class VideoProbe {

  /** Failure reason: the video lasts longer than allowed. */
  static final String TOO_LONG = "too_long";

  /** What the probe found; {@code cover} is a JPEG of the first frames, or null when none was asked for. */
  record Probed(long durationMillis, int width, int height, String codec, String format, byte[] cover,
                ImageVariants.Encoded transcoded) {
  }

  private final long maxMillis;
  private final ProcessLocator ffmpeg;
  private final VideoTranscode transcoder;

  VideoProbe(long maxSeconds, ProcessLocator ffmpeg, VideoTranscode transcoder) {
    this.maxMillis = maxSeconds * 1000;
    this.ffmpeg = ffmpeg;
    this.transcoder = transcoder;
  }

  /** Probes {@code video}; extracts a cover when {@code wantCover}. Throws {@link MediaRefused}. */
  Probed process(File video, boolean wantCover) {
    MultimediaObject media = new MultimediaObject(video, ffmpeg);
    MultimediaInfo info;
    try {
      info = media.getInfo();
    } catch (EncoderException | RuntimeException e) {
      throw new MediaRefused("undecodable", "the video cannot be decoded");
    }
    VideoInfo stream = info.getVideo();
    if (stream == null || stream.getSize() == null) {
      throw new MediaRefused("undecodable", "the file has no video stream");
    }
    if (info.getDuration() > maxMillis) {
      throw new MediaRefused(TOO_LONG, "the video lasts " + info.getDuration() / 1000 + " s; at most "
          + maxMillis / 1000 + " s are accepted");
    }
    int width = stream.getSize().getWidth();
    int height = stream.getSize().getHeight();
    byte[] cover = wantCover ? cover(media, width, height, info.getDuration()) : null;
    // ffmpeg describes the stream ("h264 (High) (avc1 / 0x31637661)"): the codec is its first word
    String codec = stream.getDecoder() == null ? "unknown" : stream.getDecoder().trim().split("[ ,]", 2)[0];
    ImageVariants.Encoded transcoded = transcoder.enabled()
        ? transcoder.transcode(video, width, height, info.getAudio() != null) : null;
    return new Probed(Math.max(0, info.getDuration()), width, height, codec, info.getFormat(), cover, transcoded);
  }

  private byte[] cover(MultimediaObject media, int width, int height, long duration) {
    File out = null;
    try {
      out = File.createTempFile("kith-cover-", ".jpg");
      // a frame a little into the video (a first frame is often black), never past its end
      long at = Math.min(500, Math.max(0, duration / 2));
      new ScreenExtractor(ffmpeg).renderOneImage(media, width, height, at, out, 3);
      byte[] jpeg = Files.readAllBytes(out.toPath());
      if (jpeg.length == 0) {
        throw new MediaRefused("undecodable", "no frame of the video can be decoded");
      }
      return jpeg;
    } catch (EncoderException | IOException e) {
      throw new MediaRefused("undecodable", "no frame of the video can be decoded");
    } finally {
      if (out != null && !out.delete()) {
        out.deleteOnExit();
      }
    }
  }
}
