package io.kith.moderation.api;

/**
 * The event stream of moderation ({@value #DOMAIN}) and its event types:
 * <ul>
 *   <li>{@value #REPORT_FILED}: {@code {report_id, target_type, target_id, target_owner, category}} (never the
 *   reporter, whom the reported user is not told)</li>
 *   <li>{@value #REPORT_DECIDED}: {@code {report_id, reporter_id, decision, target_type, target_id}}: the reporter is
 *   told their report was decided</li>
 *   <li>{@value #USER_WARNED}: {@code {sanction_id, user_id, reason}}: the user is notified</li>
 *   <li>{@value #USER_SUSPENDED}: {@code {sanction_id, user_id, until, reason}} ({@code until} 0 = permanent): the
 *   user's sessions are already revoked and the account hidden</li>
 *   <li>{@value #USER_UNSUSPENDED}: {@code {sanction_id, user_id, reason}} (an unsuspend or an overturned appeal)</li>
 *   <li>{@value #USER_LIMITED}: {@code {sanction_id, user_id, until, reason}} ({@code until} 0 = permanent): the
 *   user's posts have left the public surfaces and they may message only their followers; the user is notified</li>
 *   <li>{@value #USER_UNLIMITED}: {@code {sanction_id, user_id, reason}} (an unlimit or an overturned appeal)</li>
 *   <li>{@value #APPEAL_DECIDED}: {@code {appeal_id, user_id, decision, reason}}: the appellant is notified</li>
 *   <li>{@value #CONTENT_REMOVED}: {@code {target_type, target_id, owner, report_id}}: a moderator removed the
 *   content (the owning domain already hid it and emitted its own deletion event for its clean-up)</li>
 * </ul>
 */
public final class ModerationEvents {

  /** The stream's domain name. */
  public static final String DOMAIN = "moderation";
  /** A report was filed. */
  public static final String REPORT_FILED = "ReportFiled";
  /** A report was decided. */
  public static final String REPORT_DECIDED = "ReportDecided";
  /** A moderator removed content on a report. */
  public static final String CONTENT_REMOVED = "ContentRemoved";

  /** A user was warned by a moderator. */
  public static final String USER_WARNED = "UserWarned";
  /** A user was suspended. */
  public static final String USER_SUSPENDED = "UserSuspended";
  /** A suspension was ended before its time. */
  public static final String USER_UNSUSPENDED = "UserUnsuspended";
  /** A user was limited. */
  public static final String USER_LIMITED = "UserLimited";
  /** A limit was ended before its time. */
  public static final String USER_UNLIMITED = "UserUnlimited";
  /** An appeal was decided (upheld or overturned). */
  public static final String APPEAL_DECIDED = "AppealDecided";

  private ModerationEvents() {
  }
}
