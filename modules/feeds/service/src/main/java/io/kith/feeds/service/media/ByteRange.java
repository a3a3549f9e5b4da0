package io.kith.feeds.service.media;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The bytes of a media to send for an HTTP {@code Range} header (RFC 9110, section 14): one range of the
 * {@code bytes} unit, {@code first-last}, {@code first-} or {@code -suffix}. A header that is absent, malformed, of
 * another unit or asks for several ranges is ignored (the whole media is sent, as the RFC allows); a range that starts
 * beyond the end is unsatisfiable.
 */
record ByteRange(long start, long end, boolean partial) {

  private static final Pattern SINGLE = Pattern.compile("bytes=(\\d{0,18})-(\\d{0,18})");

  /** Bytes to send. */
  long length() {
    return end - start + 1;
  }

  /** The range of a media of {@code size} bytes (at least 1) for {@code header}, or null when unsatisfiable. */
  static ByteRange resolve(String header, long size) {
    ByteRange all = new ByteRange(0, size - 1, false);
    if (header == null) {
      return all;
    }
    Matcher m = SINGLE.matcher(header.trim().replace(" ", ""));
    if (!m.matches() || m.group(1).isEmpty() && m.group(2).isEmpty()) {
      return all;
    }
    if (m.group(1).isEmpty()) {
      long suffix = Long.parseLong(m.group(2));
      if (suffix == 0) {
        return null;
      }
      return new ByteRange(Math.max(0, size - suffix), size - 1, true);
    }
    long first = Long.parseLong(m.group(1));
    long last = m.group(2).isEmpty() ? Long.MAX_VALUE : Long.parseLong(m.group(2));
    if (last < first) {
      return all; // invalid syntax: ignored
    }
    if (first >= size) {
      return null;
    }
    return new ByteRange(first, Math.min(last, size - 1), true);
  }
}
