package io.kith.push.service.webhooks;

import io.kith.platform.config.Bounds;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Locale;

/**
 * The {@code push.webhooks} configuration section.
 *
 * @param endpoints      endpoints from configuration: {@code {url, events, secret, description}}
 * @param allowHosts     hosts exempt from the https and public-address checks (lower case)
 * @param retryMillis    how long a failing delivery is retried before it is dead-lettered
 * @param backoffBaseMs  the first wait between attempts
 * @param backoffMaxMs   the longest wait between attempts
 * @param timeoutMs      the most one attempt may take
 * @param answerBytes    how much of an answer's body is recorded
 * @param pollMs         how often a node looks for due deliveries
 * @param scanBatch      pending deliveries one look reads
 * @param rotationMillis how long a previous secret stays valid after a rotation
 */
record WebhooksSettings(List<JsonObject> endpoints, List<String> allowHosts, long retryMillis,
                        long backoffBaseMs, long backoffMaxMs, long timeoutMs, int answerBytes, long pollMs,
                        int scanBatch, long rotationMillis) {

  static final String ENDPOINTS = "endpoints";
  static final String ALLOW_HOSTS = "allow-hosts";
  static final String RETRY_HOURS = "retry-hours";
  static final String BACKOFF_BASE_MS = "backoff-base-ms";
  static final String BACKOFF_MAX_MS = "backoff-max-ms";
  static final String TIMEOUT_MS = "timeout-ms";
  static final String ANSWER_BYTES = "answer-bytes";
  static final String POLL_MS = "poll-ms";
  static final String SCAN_BATCH = "scan-batch";
  static final String ROTATION_HOURS = "rotation-hours";
  private static final long HOUR = 3_600_000L;

  static WebhooksSettings from(JsonObject push) {
    JsonObject section = push.getJsonObject("webhooks", new JsonObject());
    Bounds b = Bounds.of("push.webhooks", section);
    double retryHours = b.decimal(RETRY_HOURS);
    if (!(retryHours > 0 && retryHours <= 24 * 30)) {
      throw new IllegalArgumentException("push.webhooks.retry-hours must be above 0 and at most 720: " + retryHours);
    }
    List<JsonObject> endpoints = section.getJsonArray(ENDPOINTS, new JsonArray()).stream()
        .map(e -> e instanceof JsonObject ? (JsonObject) e : new JsonObject().put("url", String.valueOf(e))).toList();
    List<String> hosts = section.getJsonArray(ALLOW_HOSTS, new JsonArray()).stream()
        .map(h -> String.valueOf(h).toLowerCase(Locale.ROOT)).toList();
    return new WebhooksSettings(endpoints, hosts, (long) (retryHours * HOUR),
        b.within(BACKOFF_BASE_MS, 10L, HOUR), b.within(BACKOFF_MAX_MS, 10L, 24 * HOUR),
        b.within(TIMEOUT_MS, 100L, 120_000L), b.within(ANSWER_BYTES, 0, 65_536), b.within(POLL_MS, 10L, 60_000L),
        b.within(SCAN_BATCH, 1, 100_000), b.within(ROTATION_HOURS, 0L, 24L * 30) * HOUR);
  }
}
