package io.kith.notifications.service;

import io.kith.platform.events.DomainEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads event payloads without trusting their shape: a member of the wrong kind reads as absent (0, empty, null)
 * instead of throwing, so a malformed event is skipped by its handler rather than failing it until it is
 * dead-lettered (a redelivery cannot repair a payload).
 */
final class Payloads {

  private static final long MAX_ID = (1L << 53) - 1;
  private static final Logger LOG = LoggerFactory.getLogger(Payloads.class);

  private Payloads() {
  }

  /** Skips a malformed event (logged, handled as done): a redelivery could not repair it. */
  static Future<?> skipped(DomainEvent e, String why) {
    LOG.warn("Skipping malformed {} event {}: {}", e.type(), e.id(), why);
    return Future.succeededFuture();
  }

  /** The id in {@code name}: a whole number in 1..2^53-1, else 0. */
  static long id(JsonObject p, String name) {
    return id(p.getValue(name));
  }

  /** The distinct valid ids of the array {@code name}, in order (other entries dropped); empty when not an array. */
  static List<Long> ids(JsonObject p, String name) {
    if (!(p.getValue(name) instanceof JsonArray array)) {
      return List.of();
    }
    Set<Long> out = new LinkedHashSet<>();
    for (Object o : array) {
      long id = id(o);
      if (id != 0) {
        out.add(id);
      }
    }
    return new ArrayList<>(out);
  }

  /** The string {@code name} cut to {@code max} code points, or null when it is not a string. */
  static String text(JsonObject p, String name, int max) {
    if (!(p.getValue(name) instanceof String s)) {
      return null;
    }
    return s.codePointCount(0, s.length()) <= max ? s : s.substring(0, s.offsetByCodePoints(0, max));
  }

  /** The time {@code name} in epoch milliseconds: a whole number, or an ISO-8601 instant; else null. */
  static Long time(JsonObject p, String name) {
    Object v = p.getValue(name);
    if (v instanceof Number n && n.doubleValue() == n.longValue()) {
      return n.longValue();
    }
    if (v instanceof String s) {
      try {
        return Instant.parse(s).toEpochMilli();
      } catch (DateTimeParseException e) {
        return null;
      }
    }
    return null;
  }

  /** A short digest of some payload members as they were sent (for dedupe keys that follow content). */
  static String digest(JsonObject p, String... names) {
    JsonArray values = new JsonArray();
    for (String name : names) {
      values.add(p.getValue(name));
    }
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(values.encode().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every Java runtime", e);
    }
  }

  private static long id(Object v) {
    if (v instanceof Number n && n.doubleValue() == n.longValue() && n.longValue() >= 1 && n.longValue() <= MAX_ID) {
      return n.longValue();
    }
    return 0;
  }
}
