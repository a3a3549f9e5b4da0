package io.kith.moderation.api;

import io.kith.platform.error.ErrorCode;

import java.util.List;

/** Moderation's vocabulary: roles, report targets, categories, states, and its error codes. */
public final class Moderation {

  /** A user with no operator power (everyone without another role). */
  public static final String USER = "user";
  /** Works the moderation queue. */
  public static final String MODERATOR = "moderator";
  /** Also changes roles and reads the audit log. */
  public static final String ADMIN = "admin";
  /** The roles, weakest first. */
  public static final List<String> ROLES = List.of(USER, MODERATOR, ADMIN);

  /** What can be reported. */
  public static final List<String> TARGET_TYPES =
      List.of("user", "post", "group", "whiteboard", "activity", "comment", "message");
  /** What a {@link #REMOVE_CONTENT} decision can remove (and moderators can read by id). */
  public static final List<String> REMOVABLE_TYPES = List.of("post", "comment", "message", "group", "activity");
  /** Why. */
  public static final List<String> CATEGORIES =
      List.of("spam", "harassment", "hate", "nudity", "violence", "self_harm", "illegal", "other");

  /** A report waiting for a decision (assigned or not). */
  public static final String OPEN = "open";
  /** A report closed with no action. */
  public static final String DISMISSED = "dismissed";
  /** A report closed with an action: a sanction of the target's owner, or the content removed. */
  public static final String ACTIONED = "actioned";
  /** The report states. */
  public static final List<String> STATES = List.of(OPEN, DISMISSED, ACTIONED);

  /** The decision that removes the reported content (a post, comment, message, group or activity). */
  public static final String REMOVE_CONTENT = "remove_content";
  /** The decisions a moderator can make on a report. */
  public static final List<String> DECISIONS = List.of("dismiss", "warn", "suspend", "limit", REMOVE_CONTENT);

  /** The sanctions an operator puts on a user, directly or as a report's decision. */
  public static final List<String> SANCTIONS = List.of("warn", "suspend", "unsuspend", "limit", "unlimit");
  /** Appeal states: waiting, the decision kept, the decision undone, the appellant's account erased first. */
  public static final List<String> APPEAL_STATES = List.of("open", "upheld", "overturned", "withdrawn");
  /** What a second moderator decides on an appeal. */
  public static final List<String> APPEAL_DECISIONS = List.of("uphold", "overturn");

  /** 403: the actor's role does not allow the operation. */
  public static final ErrorCode ROLE_REQUIRED = ErrorCode.of(403, "role_required", "Operator role required");
  /** 409: the reporter already has an open report on this target. */
  public static final ErrorCode REPORT_EXISTS = ErrorCode.of(409, "report_exists", "Report already open");
  /** 409: the report was already decided. */
  public static final ErrorCode REPORT_CLOSED = ErrorCode.of(409, "report_closed", "Report already decided");
  /** 404: the reported target does not exist or the reporter cannot see it (the same answer). */
  public static final ErrorCode TARGET_NOT_FOUND = ErrorCode.of(404, "target_not_found", "Target not found");
  /** 404: no such report (or not the caller's). */
  public static final ErrorCode REPORT_NOT_FOUND = ErrorCode.of(404, "report_not_found", "Report not found");

  /** 403: the sanctioned user's role is not below the actor's (a moderator cannot sanction an operator). */
  public static final ErrorCode OPERATOR_PROTECTED =
      ErrorCode.of(403, "operator_protected", "Only a higher role may sanction this user");
  /** 404: no decision of that id that the caller may appeal. */
  public static final ErrorCode DECISION_NOT_FOUND = ErrorCode.of(404, "decision_not_found", "Decision not found");
  /** 409: the decision was already appealed (one appeal per decision). */
  public static final ErrorCode APPEAL_EXISTS = ErrorCode.of(409, "appeal_exists", "Decision already appealed");
  /** 404: no such appeal. */
  public static final ErrorCode APPEAL_NOT_FOUND = ErrorCode.of(404, "appeal_not_found", "Appeal not found");
  /** 409: the appeal was already decided. */
  public static final ErrorCode APPEAL_CLOSED = ErrorCode.of(409, "appeal_closed", "Appeal already decided");
  /** 403: the moderator who made a decision cannot decide its appeal. */
  public static final ErrorCode SAME_MODERATOR =
      ErrorCode.of(403, "same_moderator", "Another moderator must decide this appeal");

  private Moderation() {
  }
}
