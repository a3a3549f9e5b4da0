package io.kith.moderation.service;

import io.kith.platform.Platform;
import io.kith.platform.events.ErasureSteps;
import io.kith.platform.events.ErasureSteps.Step;
import io.kith.platform.events.Erasures;
import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Erases what moderation holds of a deleted account when accounts' {@code AccountDeleted} arrives (consumer group
 * {@value #GROUP}, {@code once}-guarded), in idempotent steps run by the platform's {@link ErasureSteps} and recorded
 * in {@link Erasures} (domain {@value #DOMAIN}; a step the report holds is skipped, so a crashed erasure resumes):
 * <ol>
 *   <li>{@code role}: the role document goes, so an erased moderator or admin is one no more;</li>
 *   <li>{@code assignments}: open reports assigned to them go back to the unassigned queue;</li>
 *   <li>{@code reports}: the reports they filed stay for the moderators' history but lose the reporter (0) and the
 *   comment; an open one stays in the queue, so the reported content is still reviewed;</li>
 *   <li>{@code appeals}: their open appeals are withdrawn and every appeal's text emptied;</li>
 *   <li>{@code rate_limits}: their report rate window.</li>
 * </ol>
 * Sanctions against the user and the audit log are kept on purpose (README, "Deleted accounts").
 */
final class Erasure {

  /** Consumer group of this module on the accounts stream. */
  static final String GROUP = "moderation-erasure";
  /** The domain name of the erasure reports and of the export part. */
  static final String DOMAIN = "moderation";

  private final Roles roles;
  private final ReportStore reports;
  private final AppealStore appeals;
  private final RateLimiter limiter;
  private final Erasures erasures;

  Erasure(Platform platform, Roles roles, ReportStore reports, AppealStore appeals) {
    this.roles = roles;
    this.reports = reports;
    this.appeals = appeals;
    this.limiter = new RateLimiter(platform.redis());
    this.erasures = new Erasures(platform.mongo());
  }

  /** Runs every step not recorded yet, in order, then finishes the report. */
  Future<JsonObject> erase(long user) {
    return ErasureSteps.run(erasures, DOMAIN, user, List.of(
        new Step("role", "roles", roles::erase),
        new Step("assignments", "reports_unassigned", reports::unassign),
        new Step("reports", "reports_anonymised", reports::anonymise),
        new Step("appeals", "appeals", this::appeals),
        new Step("rate_limits", "redis_keys", this::window)));
  }

  /** Withdraws the open appeals first, so a crash between the two leaves none open with its text gone unnoticed. */
  private Future<Long> appeals(long user) {
    return appeals.withdrawAll(user).compose(withdrawn -> appeals.clearTexts(user));
  }

  private Future<Long> window(long user) {
    return limiter.reset(ModerationServiceImpl.rateKey(user)).map(1L);
  }
}
