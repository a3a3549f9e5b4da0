package io.kith.accounts.service;

import io.kith.platform.config.Bounds;
import io.kith.platform.config.ConfigException;
import io.kith.platform.events.Exports;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The export settings of the {@code accounts} section.
 *
 * @param dir            where archives are built and kept ({@code accounts.export-dir}; empty: {@code
 *                       <kith.data-dir>/exports})
 * @param domains        the domains whose parts an export asks for, in the archive's order
 *                       ({@code accounts.export-domains})
 * @param ttlMillis      how long a ready archive may be downloaded ({@code accounts.export-ttl-hours}, fractions
 *                       allowed)
 * @param maxBytes       the most bytes of records an archive may hold; a larger export fails
 *                       ({@code accounts.export-max-bytes})
 * @param perDay         exports a user may ask for per day ({@code accounts.export-requests-per-day})
 * @param sweepSeconds   how often each node looks for exports to build and archives to delete
 *                       ({@code accounts.export-sweep-seconds})
 * @param leaseSeconds   a node's claim on a job lapses this long after its last page; another node then restarts it
 *                       ({@code accounts.export-lease-seconds})
 * @param pageTimeoutMs  how long one page of a domain may take ({@code accounts.export-page-timeout-ms})
 * @param pageRetries    retries of a failed page, with doubling backoff from half a second
 *                       ({@code accounts.export-page-retries})
 */
record ExportSettings(Path dir, List<String> domains, long ttlMillis, long maxBytes, int perDay, int sweepSeconds,
                      int leaseSeconds, long pageTimeoutMs, int pageRetries) {

  static ExportSettings from(JsonObject section, JsonObject kith) {
    Bounds b = Bounds.of("accounts", section);
    String dir = b.text("export-dir");
    Path path = dir == null || dir.isBlank() ? Path.of(kith.getString("data-dir", "./data")).resolve("exports")
        : Path.of(dir);
    double hours = b.decimal("export-ttl-hours");
    if (!(hours > 0 && hours <= 24 * 365)) {
      throw new ConfigException("accounts.export-ttl-hours must be above 0 and at most 8760, not " + hours);
    }
    JsonArray names = section.getJsonArray("export-domains", new JsonArray(Exports.DOMAINS));
    List<String> domains = new ArrayList<>();
    for (Object name : names) {
      if (!(name instanceof String s) || !s.matches("[a-z][a-z0-9_-]{0,40}") || domains.contains(s)) {
        throw new ConfigException("accounts.export-domains holds domain names once each, not " + name);
      }
      domains.add(s);
    }
    return new ExportSettings(path, List.copyOf(domains), (long) (hours * 3_600_000L),
        b.within("export-max-bytes", 1024L, 1L << 40), b.within("export-requests-per-day", 1, 1000),
        b.within("export-sweep-seconds", 1, 86_400), b.within("export-lease-seconds", 10, 86_400),
        b.within("export-page-timeout-ms", 100, 600_000), b.within("export-page-retries", 0, 10));
  }
}
