package io.kith.moderation.api;

import io.kith.platform.bus.ServiceProxies;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * Reports, the moderation queue and operator roles. Every method takes the acting user from a verified token and
 * decides in the service what that user may do: anyone files and reads their own reports; moderators and admins work
 * the queue; only admins change roles and read the audit log. Failures are coded (see {@link Moderation}).
 */
@ProxyGen
@VertxGen
public interface ModerationService {

  /** Event-bus address of the service. */
  String ADDRESS = "kith.moderation";

  /** A proxy to the service (on any node of the cluster that runs moderation). */
  @GenIgnore
  static ModerationService proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, ModerationService.class, ADDRESS);
  }

  /** The actor's role: {@code {role}}. */
  Future<JsonObject> myRole(long actor);

  /** Sets {@code userId}'s role ({@code user}, {@code moderator}, {@code admin}); admins only. */
  Future<JsonObject> setRole(long actor, long userId, String role);

  /**
   * Files a report {@code {target: {type, id}, category, comment?, evidence_ids?}} on something the actor can see;
   * returns the report as its reporter sees it. A target the actor cannot see is {@code not_found}; a second open
   * report of the same reporter on the same target is {@code report_exists}.
   */
  Future<JsonObject> fileReport(long actor, JsonObject report);

  /** The actor's own reports, newest first, with their states. */
  Future<Page> myReports(long actor, PageRequest page);

  /**
   * The moderation queue, newest first: reports filtered by {@code state}, {@code category}, {@code target_type},
   * {@code target_id}, {@code assignee} and {@code older_than} (milliseconds of age); moderators only.
   */
  Future<Page> queue(long actor, JsonObject filter, PageRequest page);

  /** Open reports grouped by target (the most reported first, at most 100 targets); moderators only. */
  Future<JsonObject> queueByTarget(long actor, JsonObject filter);

  /** One report as moderators see it; moderators only. */
  Future<JsonObject> report(long actor, long reportId);

  /** Assigns an open report to a moderator (the actor when {@code assignee} is 0); moderators only. */
  Future<JsonObject> assign(long actor, long reportId, long assignee);

  /**
   * Decides an open report {@code {decision: dismiss | warn | suspend | remove_content, reason, until?}}: the report
   * is closed with the moderator, reason and time ({@code dismissed}, or {@code actioned}: with the {@code sanction_id}
   * of the target owner's sanction, see {@link #sanction}, or after {@code remove_content} removed the reported post,
   * comment, message, group or activity through its domain, a user or whiteboard target being
   * {@code validation_failed} on {@code decision}, and {@code ContentRemoved} emitted), and its reporter is told;
   * moderators only.
   */
  Future<JsonObject> decide(long actor, long reportId, JsonObject decision);

  /**
   * Sanctions a user directly: {@code kind} {@code warn} ({@code {reason}}: the user is notified), {@code suspend}
   * ({@code {reason, until?}}, {@code until} epoch ms, absent = permanent: sessions revoked, login refused, account
   * hidden until then) or {@code unsuspend} ({@code {reason}}). Moderators sanction users, admins also moderators
   * ({@code operator_protected} otherwise); returns the sanction {@code {id, user_id, kind, until?, reason, by, at}}.
   */
  Future<JsonObject> sanction(long actor, long userId, String kind, JsonObject request);

  /**
   * Files the actor's one appeal {@code {decision_id | report_id, text}} against a sanction of them or an action
   * decided on a report of their content; {@code decision_not_found} when there is no such decision of theirs,
   * {@code appeal_exists} for a second one.
   */
  Future<JsonObject> fileAppeal(long actor, JsonObject request);

  /**
   * Files a suspended user's appeal of their suspension in force {@code {appeal_token, text}}, with the token their
   * refused login returned (they have no session); {@code token_invalid} when the token is wrong or expired.
   */
  Future<JsonObject> appealSuspension(JsonObject request);

  /** Appeals filtered by {@code state}, newest first; moderators only. */
  Future<Page> appeals(long actor, JsonObject filter, PageRequest page);

  /**
   * Decides an open appeal {@code {decision: uphold | overturn, reason}}; moderators only, and not the one who made the
   * appealed decision ({@code same_moderator}). Overturning a suspension ends it.
   */
  Future<JsonObject> decideAppeal(long actor, long appealId, JsonObject decision);

  /**
   * Content by id as moderators review it, removed or not: {@code {type, id, content, reports}} ({@code reports}: how
   * many reports were ever filed on it); {@code type} is one of {@link Moderation#REMOVABLE_TYPES}; moderators only.
   */
  Future<JsonObject> content(long actor, String type, long id);

  /** The audit log, newest first, filtered by {@code action}, {@code actor} and {@code target_id}; admins only. */
  Future<Page> audit(long actor, JsonObject filter, PageRequest page);

  /**
   * One user's moderation record {@code {user_id, role, profile, sanctions, reports_against, open_reports_against,
   * reports_filed}} ({@code profile} null when the account is hidden, as a suspended one is); moderators only.
   */
  Future<JsonObject> userOverview(long actor, long userId);

  /** The record of the user with this username, or {@code user_not_found}; moderators only. */
  Future<JsonObject> userOverviewByUsername(long actor, String username);

  /**
   * The desk's summary {@code {open_reports, open_reports_by_category, open_appeals, actions: [{day, count}],
   * actions_capped}} over the last 14 UTC days; moderators only.
   */
  Future<JsonObject> summary(long actor);

  /**
   * The caller's role {@code {role}} when they are a moderator or an admin, else {@code role_required}: the check of
   * operator operations that other modules serve (the gateway's system overview).
   */
  Future<JsonObject> requireOperator(long actor);
}
