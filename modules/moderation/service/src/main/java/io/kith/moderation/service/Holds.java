package io.kith.moderation.service;

import io.kith.feeds.api.FeedsEvents;
import io.kith.feeds.api.FeedsInternal;
import io.kith.feeds.api.events.ContentHeld;
import io.kith.moderation.api.Moderation;
import io.kith.moderation.api.events.ReportFiled;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.EventPublisher;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.store.MongoErrors;
import io.kith.platform.text.ContentFilters;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.serviceproxy.ServiceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Content a {@code hold} filter held (issue 22): feeds stores a held post or comment for its author alone and emits
 * {@code ContentHeld}; this consumer of the feeds stream (group {@value #GROUP}) files the system's report on it, so
 * it waits in the queue like any other. Deciding that report {@code dismiss} releases the content in its domain
 * ({@link #beforeDismiss}, before the report closes, as a removal runs), {@code remove_content} removes it.
 */
final class Holds {

  /** The consumer group of the feeds stream. */
  static final String GROUP = "moderation-holds";
  /** The reporter of a hold's report: the system, no user. */
  static final long SYSTEM = 0;

  private static final Logger LOG = LoggerFactory.getLogger(Holds.class);

  private final MongoClient mongo;
  private final ReportStore reports;
  private final FeedsInternal feeds;
  private final IdGenerator ids;
  private final EventPublisher events;

  Holds(MongoClient mongo, ReportStore reports, FeedsInternal feeds, IdGenerator ids, EventPublisher events) {
    this.mongo = mongo;
    this.reports = reports;
    this.feeds = feeds;
    this.ids = ids;
    this.events = events;
  }

  /** Files the system's report on content a filter held; a repeated event finds the report open and adds none. */
  Future<?> handle(DomainEvent e) {
    if (!FeedsEvents.CONTENT_HELD.equals(e.type())) {
      return Future.succeededFuture();
    }
    ContentHeld held = ContentHeld.fromJson(e.payload());
    return mongo.findOne(ContentFilters.COLLECTION, new JsonObject().put("_id", held.filter()), null)
        .compose(filter -> {
          // the filter may be gone by now: its category then defaults as a report's does
          String category = filter == null ? "other" : filter.getString("category", "other");
          long id = ids.next();
          JsonObject doc = new JsonObject().put("_id", id).put("reporter", SYSTEM)
              .put("target", Targets.ref(held.type(), held.id())).put("target_owner", held.author())
              .put("category", category).put("comment", "held by content filter " + held.filter())
              .put("evidence_ids", new JsonArray()).put("state", Moderation.OPEN)
              .put("created", System.currentTimeMillis()).put("held", true)
              .put("open_key", ReportStore.openKey(SYSTEM, held.type(), held.id()));
          return reports.insert(doc).map(v -> {
            events.append(new ReportFiled(id, held.type(), held.id(), held.author(), category))
                .onFailure(x -> LOG.warn("Could not append ReportFiled: {}", x.toString()));
            return (Void) null;
          }).recover(x -> MongoErrors.isDuplicateKey(x) ? Future.succeededFuture() : Future.failedFuture(x));
        });
  }

  /**
   * For a {@code dismiss} of an open report on held content: the content released in its domain first. Content its
   * author deleted meanwhile (404) has nothing to release, and the report still closes.
   */
  Future<Void> beforeDismiss(String decision, JsonObject report) {
    if (!"dismiss".equals(decision) || report == null || !report.getBoolean("held", false)
        || !Moderation.OPEN.equals(report.getString("state"))) {
      return Future.succeededFuture();
    }
    JsonObject target = report.getJsonObject("target");
    return feeds.releaseHeld(target.getString("type"), target.getLong("id"))
        .<Void>mapEmpty()
        .recover(e -> e instanceof ServiceException se && se.failureCode() == 404 ? Future.succeededFuture()
            : Future.failedFuture(e));
  }
}
