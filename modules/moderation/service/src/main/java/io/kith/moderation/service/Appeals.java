package io.kith.moderation.service;

import io.kith.accounts.api.AccountsInternal;
import io.kith.moderation.api.Moderation;
import io.kith.moderation.api.events.AppealDecided;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.events.EventPublisher;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.store.MongoErrors;
import io.kith.platform.text.UserText;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One appeal per decision, by the user it affected: a sanction of them ({@code decision_id}) or an action decided on
 * a report of their content ({@code report_id}; a report decided with a sanction is the same decision as the
 * sanction). A suspended user, who has no session, appeals their suspension in force with the token their refused
 * login returned. Another moderator than the one who decided upholds or overturns; overturning a suspension ends it.
 */
final class Appeals {

  private static final Logger LOG = LoggerFactory.getLogger(Appeals.class);

  private final Roles roles;
  private final ReportStore reports;
  private final SanctionStore sanctionStore;
  private final AppealStore store;
  private final Sanctions sanctions;
  private final AuditLog audit;
  private final AccountsInternal accounts;
  private final IdGenerator ids;
  private final int textMax;
  private final EventPublisher events;

  Appeals(Roles roles, ReportStore reports, SanctionStore sanctionStore, AppealStore store, Sanctions sanctions,
          AuditLog audit, AccountsInternal accounts, IdGenerator ids, int textMax, EventPublisher events) {
    this.roles = roles;
    this.reports = reports;
    this.sanctionStore = sanctionStore;
    this.store = store;
    this.sanctions = sanctions;
    this.audit = audit;
    this.accounts = accounts;
    this.ids = ids;
    this.textMax = textMax;
    this.events = events;
  }

  /** The decision an appeal is about: its uniqueness key and what the appeal records of it. */
  private record Appealed(String key, JsonObject about) {
  }

  Future<JsonObject> file(long actor, JsonObject request) {
    return Failures.guard(() -> {
      String text = text(request);
      Long decisionId = request.getLong("decision_id");
      Long reportId = request.getLong("report_id");
      if ((decisionId == null) == (reportId == null)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "decision_id", "give one of decision_id or report_id");
      }
      Future<Appealed> appealed = decisionId != null ? ofSanction(actor, decisionId) : ofReport(actor, reportId);
      return appealed.compose(a -> store(actor, a, text));
    });
  }

  Future<JsonObject> bySuspended(JsonObject request) {
    return Failures.guard(() -> {
      String text = text(request);
      Object token = request.getValue("appeal_token");
      return accounts.suspendedBy(token instanceof String t ? t : null).compose(user -> user == 0
          ? Failures.<JsonObject>fail(KithErrors.TOKEN_INVALID, "the appeal token is wrong or expired; log in again")
          : sanctionStore.latestSuspension(user).compose(s -> s == null
              ? Failures.<JsonObject>fail(Moderation.DECISION_NOT_FOUND, "no suspension to appeal")
              : ofSanction(user, s.getLong("_id")).compose(a -> store(user, a, text))));
    });
  }

  private String text(JsonObject request) {
    String text = UserText.lines("text", request.getString("text", ""));
    if (text.isBlank() || text.codePointCount(0, text.length()) > textMax) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "text",
          "a text of 1 to " + textMax + " characters is required");
    }
    return text;
  }

  // a sanction of the actor (warnings, suspensions, limits; the end of one is nothing to appeal)
  private Future<Appealed> ofSanction(long actor, long sanctionId) {
    return sanctionStore.find(sanctionId).compose(s -> s == null || s.getLong("user") != actor
        || Sanctions.ENDINGS.containsValue(s.getString("kind"))
        ? Failures.fail(Moderation.DECISION_NOT_FOUND, "no decision " + sanctionId + " of yours to appeal")
        : Future.succeededFuture(new Appealed("sanction:" + sanctionId, new JsonObject()
            .put("kind", s.getString("kind")).put("sanction_id", sanctionId).put("report_id", s.getLong("report_id")).put("by", s.getLong("by")))));
  }

  // an action decided on a report of the actor's content (a dismissal affects them not)
  private Future<Appealed> ofReport(long actor, long reportId) {
    return reports.find(reportId).compose(r -> {
      JsonObject decision = r == null ? null : r.getJsonObject("decision");
      if (decision == null || r.getLong("target_owner") != actor || "dismiss".equals(decision.getString("decision"))) {
        return Failures.fail(Moderation.DECISION_NOT_FOUND, "no decision on report " + reportId + " to appeal");
      }
      Long sanctionId = decision.getLong("sanction_id");
      return Future.succeededFuture(new Appealed(sanctionId != null ? "sanction:" + sanctionId : "report:" + reportId,
          new JsonObject().put("kind", decision.getString("decision")).put("report_id", reportId)
              .put("sanction_id", sanctionId).put("by", decision.getLong("by"))));
    });
  }

  private Future<JsonObject> store(long user, Appealed a, String text) {
    JsonObject doc = new JsonObject().put("_id", ids.next()).put("key", a.key()).put("user", user).put("text", text)
        .put("state", "open").put("created", System.currentTimeMillis()).put("appealed", a.about());
    return store.insert(doc).recover(e -> MongoErrors.isDuplicateKey(e)
            ? Failures.fail(Moderation.APPEAL_EXISTS, "this decision was already appealed")
            : Future.failedFuture(e))
        .map(v -> AppealStore.view(doc));
  }

  Future<Page> list(long actor, JsonObject filter, PageRequest page) {
    String state = filter.getString("state");
    if (state != null && !Moderation.APPEAL_STATES.contains(state)) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "state", "state must be one of "
          + Moderation.APPEAL_STATES);
    }
    JsonObject query = state == null ? new JsonObject() : new JsonObject().put("state", state);
    return roles.require(actor, Moderation.MODERATOR).compose(r -> store.list(query, page));
  }

  Future<JsonObject> decide(long actor, long appealId, JsonObject request) {
    return Failures.guard(() -> {
      String what = request.getString("decision");
      if (!Moderation.APPEAL_DECISIONS.contains(what)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "decision", "decision must be one of "
            + Moderation.APPEAL_DECISIONS);
      }
      String reason = Sanctions.reason(request, textMax);
      String state = "uphold".equals(what) ? "upheld" : "overturned";
      JsonObject record = new JsonObject().put("decision", what).put("by", actor).put("reason", reason)
          .put("at", System.currentTimeMillis());
      return roles.require(actor, Moderation.MODERATOR).compose(r -> store.find(appealId)).compose(appeal -> {
        if (appeal == null) {
          return Failures.fail(Moderation.APPEAL_NOT_FOUND, "no appeal " + appealId);
        }
        JsonObject about = appeal.getJsonObject("appealed");
        if (about.getLong("by", 0L) == actor) {
          return Failures.fail(Moderation.SAME_MODERATOR, "another moderator must decide an appeal of your decision");
        }
        return store.close(appealId, state, record).compose(closed -> closed == null
            ? Failures.<JsonObject>fail(Moderation.APPEAL_CLOSED, "appeal " + appealId + " was already decided")
            : undone(actor, closed, what, reason)
                .compose(v -> audit.append(actor, "appeal." + what, "appeal", appealId,
                    new JsonObject().put("reason", reason).put("appealed", about)))
                .map(v -> {
                  // decided: a failed append is logged, not returned (the appellant's list still shows it)
                  events.append(new AppealDecided(appealId, closed.getLong("user"), what, reason))
                      .onFailure(e -> LOG.warn("Could not append AppealDecided: {}", e.toString()));
                  return AppealStore.view(closed);
                }));
      });
    });
  }

  // an overturned suspension or limit ends; a warning overturned stays on record with its appeal
  private Future<Void> undone(long actor, JsonObject appeal, String what, String reason) {
    String ending = Sanctions.ENDINGS.get(appeal.getJsonObject("appealed").getString("kind"));
    if (!"overturn".equals(what) || ending == null) {
      return Future.succeededFuture();
    }
    return sanctions.lift(actor, appeal.getLong("user"), ending, reason).mapEmpty();
  }
}
