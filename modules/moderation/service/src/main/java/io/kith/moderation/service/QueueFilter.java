package io.kith.moderation.service;

import io.kith.moderation.api.Moderation;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.json.JsonObject;

/** The moderation queue's filters as a MongoDB query over reports; a bad filter is {@code validation_failed}. */
final class QueueFilter {

  private QueueFilter() {
  }

  static JsonObject query(JsonObject filter) {
    JsonObject query = new JsonObject();
    String state = filter.getString("state");
    if (state != null) {
      if (!Moderation.STATES.contains(state)) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "state", "state must be one of " + Moderation.STATES);
      }
      query.put("state", state);
    }
    String category = filter.getString("category");
    if (category != null) {
      if (!Moderation.CATEGORIES.contains(category)) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "category",
            "category must be one of " + Moderation.CATEGORIES);
      }
      query.put("category", category);
    }
    String type = filter.getString("target_type");
    if (type != null) {
      if (!Moderation.TARGET_TYPES.contains(type)) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "target_type",
            "target_type must be one of " + Moderation.TARGET_TYPES);
      }
      query.put("target.type", type);
    }
    if (filter.getLong("target_id") != null) {
      query.put("target.id", filter.getLong("target_id"));
    }
    if (filter.getLong("assignee") != null) {
      query.put("assignee", filter.getLong("assignee"));
    }
    Long olderThan = filter.getLong("older_than");
    if (olderThan != null) {
      if (olderThan < 0) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "older_than", "older_than is milliseconds of age, >= 0");
      }
      query.put("created", new JsonObject().put("$lte", System.currentTimeMillis() - olderThan));
    }
    return query;
  }
}
