package io.kith.moderation.service;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The {@code moderation} configuration section.
 *
 * @param admins         user ids made admins at start (the first admin comes from here)
 * @param reportsPerHour reports one user may file per hour
 * @param commentMax     code points of a report's comment and of a decision's reason
 */
record ModerationSettings(List<Long> admins, int reportsPerHour, int commentMax) {

  static ModerationSettings from(JsonObject section) {
    List<Long> admins = new ArrayList<>();
    for (Object id : section.getJsonArray("admins", new JsonArray())) {
      long user = id instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(id).strip());
      if (user <= 0) {
        throw new IllegalArgumentException("moderation.admins holds user ids, not " + id);
      }
      admins.add(user);
    }
    int perHour = section.getInteger("reports-per-hour", 20);
    if (perHour < 1 || perHour > 10_000) {
      throw new IllegalArgumentException("moderation.reports-per-hour must be 1 to 10000, not " + perHour);
    }
    return new ModerationSettings(List.copyOf(admins), perHour, 1_000);
  }
}
