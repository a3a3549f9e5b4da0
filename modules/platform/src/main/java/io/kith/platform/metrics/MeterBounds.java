package io.kith.platform.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The bounds that keep a node's {@code /metrics} small whatever the traffic: every timer publishes the same fixed
 * service-level buckets ({@link #SLO_SECONDS}) instead of a percentile histogram (about seventy buckets per series),
 * distribution summaries publish count, sum and max only, and the tags whose values come from requests (the HTTP
 * route and status, a store operation) keep at most a fixed number of values each, the rest counted under
 * {@value #OTHER}. A route tag the router left empty (no route matched) is {@value #UNMATCHED}.
 */
public final class MeterBounds {

  /** The buckets (upper bounds in seconds) of every timer. */
  public static final List<Duration> SLO_SECONDS = List.of(Duration.ofMillis(5), Duration.ofMillis(10),
      Duration.ofMillis(25), Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250),
      Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(2_500), Duration.ofSeconds(5),
      Duration.ofSeconds(10));
  /** The value that stands for every value of a tag beyond its cap. */
  public static final String OTHER = "other";
  /** The route of a request no route matched. */
  public static final String UNMATCHED = "unmatched";
  /**
   * Most values kept per capped tag: the contract has some 130 operations, Vert.x names a request served by several
   * routes by all of them, and Redis has a few dozen commands Kith uses.
   */
  static final Map<String, Integer> CAPS = Map.of("route", 300, "code", 40, "method", 12, "operation", 120);

  private MeterBounds() {
  }

  /** Applies the bounds to {@code registry}; call it before any meter is registered. */
  public static void apply(MeterRegistry registry) {
    registry.config().meterFilter(new Capped()).meterFilter(new MeterFilter() {
      @Override
      public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
        DistributionStatisticConfig.Builder bounded = DistributionStatisticConfig.builder()
            .percentilesHistogram(false)
            .percentiles();
        if (id.getType() == Meter.Type.TIMER) {
          bounded.serviceLevelObjectives(SLO_SECONDS.stream().mapToDouble(Duration::toNanos).toArray());
        } else {
          bounded.serviceLevelObjectives();
        }
        // the bounded settings win over whatever a library asked for (Vert.x's quantile option, for one)
        return bounded.build().merge(config);
      }
    });
  }

  /** Replaces the values of capped tags beyond their cap with {@value #OTHER}, and an empty route. */
  private static final class Capped implements MeterFilter {

    private final Map<String, Set<String>> seen = new ConcurrentHashMap<>();

    @Override
    public Meter.Id map(Meter.Id id) {
      List<Tag> tags = null;
      for (Tag tag : id.getTagsAsIterable()) {
        Integer cap = CAPS.get(tag.getKey());
        if (cap == null) {
          continue;
        }
        String value = bounded(tag.getKey(), tag.getValue(), cap);
        if (!value.equals(tag.getValue())) {
          if (tags == null) {
            tags = new ArrayList<>();
            id.getTagsAsIterable().forEach(tags::add);
          }
          tags.replaceAll(t -> t.getKey().equals(tag.getKey()) ? Tag.of(t.getKey(), value) : t);
        }
      }
      return tags == null ? id : id.replaceTags(tags);
    }

    private String bounded(String key, String value, int cap) {
      if (key.equals("route") && value.isEmpty()) {
        return UNMATCHED;
      }
      Set<String> values = seen.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet());
      if (values.contains(value)) {
        return value;
      }
      // a racing pair may both pass the size check: the cap is exceeded by a few values at most, which bounds it still
      if (values.size() >= cap) {
        return OTHER;
      }
      values.add(value);
      return value;
    }
  }
}
