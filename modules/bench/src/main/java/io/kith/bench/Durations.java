package io.kith.bench;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Durations on the command line: {@code 20s}, {@code 500ms}, {@code 2m}, {@code 1m30s}, {@code 1h}; a bare number is seconds. */
final class Durations {

  private static final Pattern PART = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h)");
  private static final Pattern BARE = Pattern.compile("\\d+(?:\\.\\d+)?");

  private Durations() {
  }

  /**
   * Parses {@code text} for option {@code option}.
   *
   * @throws UsageException when the text is not a duration
   */
  static Duration parse(String option, String text) throws UsageException {
    String s = text.strip();
    if (BARE.matcher(s).matches()) {
      return nanos(option, text, new BigDecimal(s).multiply(BigDecimal.valueOf(1_000_000_000L)));
    }
    Matcher m = PART.matcher(s);
    BigDecimal total = BigDecimal.ZERO;
    int at = 0;
    while (at < s.length()) {
      if (!m.find(at) || m.start() != at) {
        throw new UsageException(option + " must be a duration such as 20s, 500ms, 2m or 1m30s, got '" + text + "'");
      }
      BigDecimal unit = switch (m.group(2)) {
        case "ms" -> BigDecimal.valueOf(1_000_000L);
        case "s" -> BigDecimal.valueOf(1_000_000_000L);
        case "m" -> BigDecimal.valueOf(60_000_000_000L);
        default -> BigDecimal.valueOf(3_600_000_000_000L);
      };
      total = total.add(new BigDecimal(m.group(1)).multiply(unit));
      at = m.end();
    }
    if (s.isEmpty()) {
      throw new UsageException(option + " must be a duration such as 20s, 500ms, 2m or 1m30s, got '" + text + "'");
    }
    return nanos(option, text, total);
  }

  private static Duration nanos(String option, String text, BigDecimal nanos) throws UsageException {
    if (nanos.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      throw new UsageException(option + " '" + text + "' is too long");
    }
    return Duration.ofNanos(nanos.longValue());
  }
}
