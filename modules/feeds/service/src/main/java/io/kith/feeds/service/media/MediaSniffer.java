package io.kith.feeds.service.media;

import io.vertx.core.buffer.Buffer;

import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * Tells the type of media from its first bytes, whatever the client declared: JPEG, PNG, GIF and WebP images; MP4 and
 * QuickTime (ISO base media files with a video brand) and WebM videos. Anything else, including HEIC/AVIF images
 * (ISO files with image brands) and Matroska files that are not WebM, is not accepted.
 */
final class MediaSniffer {

  /** Bytes looked at: enough for every signature, including the EBML DocType of WebM. */
  static final int HEAD_BYTES = 64;
  static final String IMAGE = "image";
  static final String VIDEO = "video";

  /** Major brands of ISO base media files that are video (HEIC, AVIF and other image brands are not). */
  private static final Set<String> VIDEO_BRANDS = Set.of("isom", "iso2", "iso3", "iso4", "iso5", "iso6", "iso7",
      "iso8", "iso9", "mp41", "mp42", "mp71", "avc1", "M4V ", "M4VH", "M4VP", "dash", "mmp4", "f4v ", "qt  ");

  /** What the bytes are. */
  record Sniffed(String kind, String contentType) {
  }

  private MediaSniffer() {
  }

  /** The type of media that starts with {@code head}, or null when it is not an accepted format. */
  static Sniffed sniff(Buffer head) {
    byte[] b = head.getBytes(0, Math.min(head.length(), HEAD_BYTES));
    if (starts(b, 0, 0xFF, 0xD8, 0xFF)) {
      return new Sniffed(IMAGE, "image/jpeg");
    }
    if (starts(b, 0, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A)) {
      return new Sniffed(IMAGE, "image/png");
    }
    if (ascii(b, 0, "GIF87a") || ascii(b, 0, "GIF89a")) {
      return new Sniffed(IMAGE, "image/gif");
    }
    if (ascii(b, 0, "RIFF") && ascii(b, 8, "WEBP")) {
      return new Sniffed(IMAGE, "image/webp");
    }
    if (ascii(b, 4, "ftyp") && b.length >= 12) {
      String brand = new String(b, 8, 4, StandardCharsets.ISO_8859_1);
      if (VIDEO_BRANDS.contains(brand)) {
        return new Sniffed(VIDEO, brand.equals("qt  ") ? "video/quicktime" : "video/mp4");
      }
      return null;
    }
    if (starts(b, 0, 0x1A, 0x45, 0xDF, 0xA3) && contains(b, "webm")) {
      return new Sniffed(VIDEO, "video/webm");
    }
    return null;
  }

  private static boolean starts(byte[] b, int at, int... signature) {
    if (b.length < at + signature.length) {
      return false;
    }
    for (int i = 0; i < signature.length; i++) {
      if ((b[at + i] & 0xFF) != signature[i]) {
        return false;
      }
    }
    return true;
  }

  private static boolean ascii(byte[] b, int at, String text) {
    return starts(b, at, text.chars().toArray());
  }

  private static boolean contains(byte[] b, String text) {
    for (int i = 0; i + text.length() <= b.length; i++) {
      if (ascii(b, i, text)) {
        return true;
      }
    }
    return false;
  }
}
