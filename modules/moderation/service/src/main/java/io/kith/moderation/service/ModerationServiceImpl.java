package io.kith.moderation.service;

import io.kith.moderation.api.Moderation;
import io.kith.moderation.api.ModerationService;
import io.kith.moderation.api.events.ReportDecided;
import io.kith.moderation.api.events.ReportFiled;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.events.Event;
import io.kith.platform.events.EventPublisher;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.store.MongoErrors;
import io.kith.platform.text.UserText;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Roles, reports and the queue. Operator calls read the actor's role first ({@link Roles#require}); every operator
 * action is appended to the {@link AuditLog} after it took effect.
 */
final class ModerationServiceImpl implements ModerationService {

  private static final Logger LOG = LoggerFactory.getLogger(ModerationServiceImpl.class);
  private static final long HOUR = 3_600_000L;
  private static final int MAX_EVIDENCE = 10;

  private final ModerationSettings settings;
  private final Roles roles;
  private final ReportStore reports;
  private final AuditLog audit;
  private final Targets targets;
  private final IdGenerator ids;
  private final RateLimiter limiter;
  private final EventPublisher events;
  private Sanctions sanctions;
  private Appeals appeals;
  private final Removals removals;
  private Overview overview;
  private Holds holds;

  ModerationServiceImpl(ModerationSettings settings, Roles roles, ReportStore reports, AuditLog audit,
                        Targets targets, IdGenerator ids, RateLimiter limiter, EventPublisher events,
                        Removals removals) {
    this.settings = settings;
    this.roles = roles;
    this.reports = reports;
    this.audit = audit;
    this.targets = targets;
    this.ids = ids;
    this.limiter = limiter;
    this.events = events;
    this.removals = removals;
  }

  /** Adds the operators' overview (wired apart, as it needs accounts' service). */
  /** The Redis key of {@code user}'s report rate-limit window (erased with the account). */
  static String rateKey(long user) {
    return "mod:reports:{u:" + user + "}";
  }

  ModerationServiceImpl with(Overview overview) {
    this.overview = overview;
    return this;
  }

  /** Adds the reports on content that filters held (wired apart, as it consumes the feeds stream). */
  ModerationServiceImpl with(Holds holds) {
    this.holds = holds;
    return this;
  }

  /** Adds the sanctions and appeals features (wired apart, as they need accounts' internal operations). */
  ModerationServiceImpl with(Sanctions sanctions, Appeals appeals) {
    this.sanctions = sanctions;
    this.appeals = appeals;
    return this;
  }

  @Override
  public Future<JsonObject> myRole(long actor) {
    return roles.of(actor).map(role -> new JsonObject().put("role", role));
  }

  @Override
  public Future<JsonObject> requireOperator(long actor) {
    return roles.require(actor, Moderation.MODERATOR).map(role -> new JsonObject().put("role", role));
  }

  @Override
  public Future<JsonObject> setRole(long actor, long userId, String role) {
    if (!Moderation.ROLES.contains(role)) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "role", "role must be one of " + Moderation.ROLES);
    }
    if (userId == actor) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "user_id", "admins cannot change their own role");
    }
    return roles.require(actor, Moderation.ADMIN)
        .compose(r -> roles.of(userId))
        .compose(before -> roles.set(userId, role, actor)
            .compose(v -> audit.append(actor, "role.set", "user", userId,
                new JsonObject().put("from", before).put("to", role))))
        .map(v -> new JsonObject().put("user_id", userId).put("role", role));
  }

  @Override
  public Future<JsonObject> fileReport(long actor, JsonObject report) {
    return Failures.guard(() -> {
      JsonObject target = report.getJsonObject("target");
      String type = target == null ? null : target.getString("type");
      Long targetId = target == null ? null : target.getLong("id");
      if (type == null || !Moderation.TARGET_TYPES.contains(type)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "target.type",
            "target.type must be one of " + Moderation.TARGET_TYPES);
      }
      if (targetId == null || targetId <= 0) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "target.id", "target.id must be a positive id");
      }
      if ("user".equals(type) && targetId == actor) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "target.id", "you cannot report yourself");
      }
      String category = report.getString("category");
      if (!Moderation.CATEGORIES.contains(category)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "category",
            "category must be one of " + Moderation.CATEGORIES);
      }
      String comment = UserText.lines("comment", report.getString("comment", ""));
      if (comment.codePointCount(0, comment.length()) > settings.commentMax()) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "comment",
            "comment must be at most " + settings.commentMax() + " characters");
      }
      JsonArray evidence = report.getJsonArray("evidence_ids", new JsonArray());
      if (evidence.size() > MAX_EVIDENCE) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "evidence_ids",
            "at most " + MAX_EVIDENCE + " evidence ids");
      }
      return limiter.enforce(rateKey(actor), HOUR, settings.reportsPerHour(),
              "at most " + settings.reportsPerHour() + " reports an hour")
          .compose(v -> targets.ownerSeenBy(actor, type, targetId))
          .compose(owner -> store(actor, type, targetId, owner, category, comment, evidence));
    });
  }

  private Future<JsonObject> store(long reporter, String type, long targetId, long owner, String category,
                                   String comment, JsonArray evidence) {
    long id = ids.next();
    JsonObject doc = new JsonObject().put("_id", id).put("reporter", reporter)
        .put("target", Targets.ref(type, targetId)).put("target_owner", owner).put("category", category)
        .put("comment", comment).put("evidence_ids", evidence).put("state", Moderation.OPEN)
        .put("created", System.currentTimeMillis()).put("open_key", ReportStore.openKey(reporter, type, targetId));
    return reports.insert(doc)
        .recover(e -> MongoErrors.isDuplicateKey(e)
            ? Failures.fail(Moderation.REPORT_EXISTS, "you already have an open report on this " + type)
            : Future.failedFuture(e))
        .compose(v -> {
          appendQuietly(new ReportFiled(id, type, targetId, owner, category));
          return Future.succeededFuture(ReportStore.reporterView(doc));
        });
  }

  private void appendQuietly(Event event) {
    // the report is stored: a failed append is logged, not returned (as every domain does)
    events.append(event).onFailure(e -> LOG.warn("Could not append {}: {}", event.eventType(), e.toString()));
  }

  @Override
  public Future<Page> myReports(long actor, PageRequest page) {
    return reports.byReporter(actor, page);
  }

  @Override
  public Future<Page> queue(long actor, JsonObject filter, PageRequest page) {
    return Failures.guard(() -> {
      JsonObject query = QueueFilter.query(filter);
      return roles.require(actor, Moderation.MODERATOR)
          .compose(r -> reports.list(query, page, ReportStore::moderatorView));
    });
  }

  @Override
  public Future<JsonObject> queueByTarget(long actor, JsonObject filter) {
    return Failures.guard(() -> {
      JsonObject query = QueueFilter.query(filter.copy().put("state", Moderation.OPEN));
      return roles.require(actor, Moderation.MODERATOR).compose(r -> reports.groupedByTarget(query))
          .map(groups -> {
            JsonArray items = new JsonArray();
            for (JsonObject g : groups) {
              items.add(new JsonObject().put("target", g.getJsonObject("_id")).put("target_owner", g.getLong("owner"))
                  .put("open_reports", g.getInteger("open_reports")).put("categories", g.getJsonArray("categories"))
                  .put("oldest", g.getLong("oldest")).put("newest", g.getLong("newest")));
            }
            return new JsonObject().put("items", items);
          });
    });
  }

  @Override
  public Future<JsonObject> report(long actor, long reportId) {
    return roles.require(actor, Moderation.MODERATOR).compose(r -> found(reports.find(reportId), reportId))
        .map(ReportStore::moderatorView);
  }

  @Override
  public Future<JsonObject> assign(long actor, long reportId, long assignee) {
    long to = assignee == 0 ? actor : assignee;
    return roles.require(actor, Moderation.MODERATOR)
        .compose(r -> to == actor ? Future.succeededFuture(r) : roles.of(to).compose(role -> Moderation.USER.equals(role)
            ? Failures.<String>failField(KithErrors.VALIDATION_FAILED, "assignee", "the assignee must be a moderator")
            : Future.succeededFuture(role)))
        .compose(r -> openOrRefused(reports.assign(reportId, to), reportId))
        .compose(doc -> audit.append(actor, "report.assign", "report", reportId,
            new JsonObject().put("assignee", to)).map(ReportStore.moderatorView(doc)));
  }

  @Override
  public Future<JsonObject> decide(long actor, long reportId, JsonObject decision) {
    String what = decision.getString("decision");
    if (!Moderation.DECISIONS.contains(what)) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "decision",
          "decision must be one of " + Moderation.DECISIONS);
    }
    return Failures.guard(() -> {
      String reason = UserText.lines("reason", decision.getString("reason", ""));
      if (reason.isBlank() || reason.codePointCount(0, reason.length()) > settings.commentMax()) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "reason",
            "a reason of 1 to " + settings.commentMax() + " characters is required");
      }
      if (Sanctions.ON_REPORTS.contains(what)) {
        return sanctions.onReport(actor, reportId, what, reason, decision);
      }
      JsonObject record = new JsonObject().put("decision", what).put("by", actor).put("reason", reason)
          .put("at", System.currentTimeMillis());
      String state = Moderation.REMOVE_CONTENT.equals(what) ? Moderation.ACTIONED : Moderation.DISMISSED;
      return roles.require(actor, Moderation.MODERATOR)
          .compose(r -> removals.beforeClose(what, reportId, actor, reason))
          .compose(r -> reports.find(reportId).compose(report -> holds.beforeDismiss(what, report)))
          .compose(r -> openOrRefused(reports.close(reportId, state, record), reportId))
          .compose(doc -> audit.append(actor, "report." + what, "report", reportId,
                  new JsonObject().put("reason", reason).put("target", doc.getJsonObject("target")))
              .map(v -> {
                JsonObject target = doc.getJsonObject("target");
                appendQuietly(new ReportDecided(reportId, doc.getLong("reporter"), what, target.getString("type"),
                    target.getLong("id")));
                if (Moderation.REMOVE_CONTENT.equals(what)) {
                  appendQuietly(Removals.removed(doc));
                }
                return ReportStore.moderatorView(doc);
              }));
    });
  }

  @Override
  public Future<JsonObject> sanction(long actor, long userId, String kind, JsonObject request) {
    return sanctions.direct(actor, userId, kind, request);
  }

  @Override
  public Future<JsonObject> fileAppeal(long actor, JsonObject request) {
    return appeals.file(actor, request);
  }

  @Override
  public Future<JsonObject> appealSuspension(JsonObject request) {
    return appeals.bySuspended(request);
  }

  @Override
  public Future<Page> appeals(long actor, JsonObject filter, PageRequest page) {
    return appeals.list(actor, filter, page);
  }

  @Override
  public Future<JsonObject> decideAppeal(long actor, long appealId, JsonObject decision) {
    return appeals.decide(actor, appealId, decision);
  }

  @Override
  public Future<JsonObject> content(long actor, String type, long id) {
    return roles.require(actor, Moderation.MODERATOR).compose(r -> removals.content(type, id));
  }

  @Override
  public Future<Page> audit(long actor, JsonObject filter, PageRequest page) {
    return roles.require(actor, Moderation.ADMIN).compose(r -> audit.list(filter, page));
  }

  private Future<JsonObject> found(Future<JsonObject> doc, long reportId) {
    return doc.compose(d -> d != null ? Future.succeededFuture(d)
        : Failures.fail(Moderation.REPORT_NOT_FOUND, "no report " + reportId));
  }

  // a report that is not open: missing (404) or decided already (409)
  private Future<JsonObject> openOrRefused(Future<JsonObject> changed, long reportId) {
    return changed.compose(doc -> doc != null ? Future.succeededFuture(doc)
        : found(reports.find(reportId), reportId).compose(d -> Failures.<JsonObject>fail(Moderation.REPORT_CLOSED,
            "report " + reportId + " was already decided")));
  }

  @Override
  public Future<JsonObject> userOverview(long actor, long userId) {
    return overview.user(actor, userId);
  }

  @Override
  public Future<JsonObject> userOverviewByUsername(long actor, String username) {
    return overview.byUsername(actor, username);
  }

  @Override
  public Future<JsonObject> summary(long actor) {
    return overview.summary(actor);
  }
}
