package io.kith.moderation.service;

import io.kith.activities.api.ActivitiesInternal;
import io.kith.feeds.api.FeedsInternal;
import io.kith.messaging.api.MessagingInternal;
import io.kith.moderation.api.Moderation;
import io.kith.moderation.api.events.ContentRemoved;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * The {@code remove_content} decision and the moderators' view of content by id. Each domain removes its own content
 * ({@code removeByModerator} of its internal service: hidden from everyone, record kept for review, its own deletion
 * events for its clean-up); moderation only decides and records. The removal runs before the report is closed: a
 * removal that failed leaves the report open to decide again, and a repeated removal changes nothing in the domain.
 */
final class Removals {

  private final FeedsInternal feeds;
  private final MessagingInternal messaging;
  private final ActivitiesInternal activities;
  private final ReportStore reports;

  Removals(FeedsInternal feeds, MessagingInternal messaging, ActivitiesInternal activities, ReportStore reports) {
    this.feeds = feeds;
    this.messaging = messaging;
    this.activities = activities;
    this.reports = reports;
  }

  /**
   * For a {@code remove_content} decision on an open report: removes its target through the owning domain (nothing
   * for other decisions). A missing report is {@code report_not_found}, a decided one {@code report_closed}, a target
   * that is no content (a user, a whiteboard) {@code validation_failed}.
   */
  Future<Void> beforeClose(String decision, long reportId, long moderator, String reason) {
    if (!Moderation.REMOVE_CONTENT.equals(decision)) {
      return Future.succeededFuture();
    }
    return reports.find(reportId).compose(doc -> {
      if (doc == null) {
        return Failures.fail(Moderation.REPORT_NOT_FOUND, "no report " + reportId);
      }
      if (!Moderation.OPEN.equals(doc.getString("state"))) {
        return Failures.fail(Moderation.REPORT_CLOSED, "report " + reportId + " was already decided");
      }
      JsonObject target = doc.getJsonObject("target");
      String type = target.getString("type");
      if (!Moderation.REMOVABLE_TYPES.contains(type)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "decision",
            "remove_content applies to a " + String.join(", ", Moderation.REMOVABLE_TYPES) + ", not a " + type);
      }
      JsonObject removal = new JsonObject().put("by", moderator).put("reason", reason).put("report_id", reportId)
          .put("at", System.currentTimeMillis());
      return remove(type, target.getLong("id"), removal).mapEmpty();
    });
  }

  private Future<JsonObject> remove(String type, long id, JsonObject removal) {
    return switch (type) {
      case "post", "comment" -> feeds.removeByModerator(type, id, removal);
      case "message", "group" -> messaging.removeByModerator(type, id, removal);
      default -> activities.removeByModerator(id, removal);
    };
  }

  /** The event of a closed report whose content was removed. */
  static ContentRemoved removed(JsonObject report) {
    JsonObject target = report.getJsonObject("target");
    return new ContentRemoved(target.getString("type"), target.getLong("id"), report.getLong("target_owner", 0L),
        report.getLong("_id"));
  }

  /** Content by id as its domain keeps it for moderators, with how many reports were filed on it. */
  Future<JsonObject> content(String type, long id) {
    if (!Moderation.REMOVABLE_TYPES.contains(type)) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "type",
          "type must be one of " + Moderation.REMOVABLE_TYPES);
    }
    Future<JsonObject> content = switch (type) {
      case "post", "comment" -> feeds.contentForModerator(type, id);
      case "message", "group" -> messaging.contentForModerator(type, id);
      default -> activities.contentForModerator(id);
    };
    return content.compose(c -> reports.countOn(type, id).map(n -> new JsonObject().put("type", type).put("id", id)
        .put("content", c).put("reports", n)));
  }
}
