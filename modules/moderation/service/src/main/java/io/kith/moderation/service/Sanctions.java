package io.kith.moderation.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.accounts.api.AccountsInternal;
import io.kith.moderation.api.Moderation;
import io.kith.moderation.api.events.ReportDecided;
import io.kith.moderation.api.events.UserLimited;
import io.kith.moderation.api.events.UserUnlimited;
import io.kith.moderation.api.events.UserSuspended;
import io.kith.moderation.api.events.UserUnsuspended;
import io.kith.moderation.api.events.UserWarned;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.events.Event;
import io.kith.platform.events.EventPublisher;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.text.UserText;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;

/**
 * Warnings, suspensions, limits and their ends, put on a user directly or as the decision of a report on their
 * content.
 * Steps: the actor's role and the target's (only a higher role sanctions); on a report, the report closed
 * {@code actioned} (so two moderators cannot both act on it); the effect in accounts (a suspension signs out and
 * hides); the record ({@link SanctionStore}); the audit entry; then the event the user's notification is made from.
 */
final class Sanctions {

  /** The report decisions that are sanctions of the target's owner. */
  static final List<String> ON_REPORTS = List.of("warn", "suspend", "limit");
  /** The sanctions in force for a time, and the sanction that ends each (an overturned appeal ends them too). */
  static final Map<String, String> ENDINGS = Map.of("suspend", "unsuspend", "limit", "unlimit");

  private static final Logger LOG = LoggerFactory.getLogger(Sanctions.class);

  private final Roles roles;
  private final ReportStore reports;
  private final SanctionStore store;
  private final AuditLog audit;
  private final AccountsInternal accounts;
  private final IdGenerator ids;
  private final EventPublisher events;
  private final int reasonMax;

  Sanctions(Roles roles, ReportStore reports, SanctionStore store, AuditLog audit, AccountsInternal accounts,
            IdGenerator ids, EventPublisher events, int reasonMax) {
    this.roles = roles;
    this.reports = reports;
    this.store = store;
    this.audit = audit;
    this.accounts = accounts;
    this.ids = ids;
    this.events = events;
    this.reasonMax = reasonMax;
  }

  /** What one sanction is before it is stored: who, what, until when (0 = permanent), why, by whom. */
  private record Sanction(long id, long user, String kind, long until, String reason, long by, Long reportId) {

    JsonObject toDoc() {
      JsonObject doc = new JsonObject().put("_id", id).put("user", user).put("kind", kind).put("reason", reason)
          .put("by", by).put("at", System.currentTimeMillis());
      if (ENDINGS.containsKey(kind)) {
        doc.put("until", until == 0 ? null : until);
      }
      return reportId == null ? doc : doc.put("report_id", reportId);
    }
  }

  /** A reason of 1 to {@code max} code points, or a validation failure thrown (callers run under a guard). */
  static String reason(JsonObject request, int max) {
    String reason = UserText.lines("reason", request.getString("reason", ""));
    if (reason.isBlank() || reason.codePointCount(0, reason.length()) > max) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "reason",
          "a reason of 1 to " + max + " characters is required");
    }
    return reason;
  }

  // until: epoch ms, absent or null = permanent; one already past signs the user out and suspends for no time
  private static long until(JsonObject request) {
    Object until = request.getValue("until");
    if (until == null) {
      return 0;
    }
    if (!(until instanceof Number n) || n.longValue() <= 0) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "until", "until must be epoch milliseconds, or absent");
    }
    return n.longValue();
  }

  /** A direct sanction of {@code userId}. */
  Future<JsonObject> direct(long actor, long userId, String kind, JsonObject request) {
    return Failures.guard(() -> {
      if (!Moderation.SANCTIONS.contains(kind)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "kind", "kind must be one of " + Moderation.SANCTIONS);
      }
      if (userId == actor) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "user_id", "you cannot sanction yourself");
      }
      Sanction s = new Sanction(ids.next(), userId, kind, ENDINGS.containsKey(kind) ? until(request) : 0,
          reason(request, reasonMax), actor, null);
      return mayAct(actor, userId).compose(v -> apply(s)).map(SanctionStore::view);
    });
  }

  /** A report decided with a sanction ({@code warn}, {@code suspend}, {@code limit}) of its target's owner. */
  Future<JsonObject> onReport(long actor, long reportId, String kind, String reason, JsonObject request) {
    return Failures.guard(() -> {
      long until = ENDINGS.containsKey(kind) ? until(request) : 0;
      return roles.require(actor, Moderation.MODERATOR).compose(r -> reports.find(reportId)).compose(report -> {
        if (report == null) {
          return Failures.fail(Moderation.REPORT_NOT_FOUND, "no report " + reportId);
        }
        long owner = report.getLong("target_owner");
        Sanction s = new Sanction(ids.next(), owner, kind, until, reason, actor, reportId);
        JsonObject record = new JsonObject().put("decision", kind).put("by", actor).put("reason", reason)
            .put("at", System.currentTimeMillis()).put("sanction_id", s.id());
        return mayAct(actor, owner)
            .compose(v -> reports.close(reportId, Moderation.ACTIONED, record))
            .compose(closed -> closed == null
                ? Failures.<JsonObject>fail(Moderation.REPORT_CLOSED, "report " + reportId + " was already decided")
                : apply(s).compose(v -> audit.append(actor, "report." + kind, "report", reportId,
                    new JsonObject().put("reason", reason).put("sanction_id", s.id())))
                .map(v -> {
                  JsonObject target = closed.getJsonObject("target");
                  publish(new ReportDecided(reportId, closed.getLong("reporter"), kind, target.getString("type"),
                      target.getLong("id")));
                  return ReportStore.moderatorView(closed);
                }));
      });
    });
  }

  /**
   * Ends a suspension or a limit as an overturned appeal decided; recorded as the {@code ending} ({@code unsuspend},
   * {@code unlimit}) by the appeal's moderator.
   */
  Future<JsonObject> lift(long actor, long userId, String ending, String reason) {
    return apply(new Sanction(ids.next(), userId, ending, 0, reason, actor, null));
  }

  // moderators sanction plain users, admins also moderators: the target's role must be below the actor's
  private Future<Void> mayAct(long actor, long user) {
    return roles.require(actor, Moderation.MODERATOR).compose(mine -> roles.of(user).compose(theirs ->
        Moderation.ROLES.indexOf(theirs) < Moderation.ROLES.indexOf(mine) ? Future.<Void>succeededFuture()
            : Failures.fail(Moderation.OPERATOR_PROTECTED, "a " + mine + " cannot sanction a " + theirs)));
  }

  private Future<JsonObject> apply(Sanction s) {
    JsonObject doc = s.toDoc();
    Future<Void> effect = switch (s.kind()) {
      case "suspend" -> accounts.suspend(s.user(), s.until(), s.reason());
      case "unsuspend" -> accounts.unsuspend(s.user());
      case "limit" -> accounts.limit(s.user(), s.until(), s.reason());
      case "unlimit" -> accounts.unlimit(s.user());
      // a warning has no effect in accounts, but its user must exist
      default -> accounts.followSettings(List.of(s.user())).compose(found -> found.containsKey(
          Long.toString(s.user())) ? Future.succeededFuture()
          : Failures.fail(AccountsErrors.USER_NOT_FOUND, "no user " + s.user()));
    };
    return effect.compose(v -> store.insert(doc))
        .compose(v -> audit.append(s.by(), "user." + s.kind(), "user", s.user(),
            new JsonObject().put("reason", s.reason()).put("sanction_id", s.id()).put("until", doc.getValue("until"))))
        .map(v -> {
          publish(switch (s.kind()) {
            case "suspend" -> new UserSuspended(s.id(), s.user(), s.until(), s.reason());
            case "unsuspend" -> new UserUnsuspended(s.id(), s.user(), s.reason());
            case "limit" -> new UserLimited(s.id(), s.user(), s.until(), s.reason());
            case "unlimit" -> new UserUnlimited(s.id(), s.user(), s.reason());
            default -> new UserWarned(s.id(), s.user(), s.reason());
          });
          return doc;
        });
  }

  private void publish(Event event) {
    // the decision is stored: a failed append is logged, not returned (as every domain does)
    events.append(event).onFailure(e -> LOG.warn("Could not append {}: {}", event.eventType(), e.toString()));
  }
}
