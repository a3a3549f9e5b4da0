package io.kith.accounts.api;

import io.kith.platform.error.ErrorCode;

/** Failure codes of the accounts domain (beyond the shared {@code KithErrors}). */
public final class AccountsErrors {

  /** The username is taken (compared case-insensitively); {@code field} is {@code username}. */
  public static final ErrorCode USERNAME_TAKEN = ErrorCode.of(409, "username_taken", "Username taken");
  /** The email belongs to another account; {@code field} is {@code email}. */
  public static final ErrorCode EMAIL_TAKEN = ErrorCode.of(409, "email_taken", "Email taken");
  /** The phone (after normalisation) belongs to another account; {@code field} is {@code phone}. */
  public static final ErrorCode PHONE_TAKEN = ErrorCode.of(409, "phone_taken", "Phone taken");
  /** The password is too short, too long, equal to the username or too common. */
  public static final ErrorCode WEAK_PASSWORD = ErrorCode.of(400, "weak_password", "Password not accepted");
  /** Login or password is wrong (the same answer whether or not the account exists). */
  public static final ErrorCode INVALID_CREDENTIALS =
      ErrorCode.of(401, "invalid_credentials", "Invalid login or password");
  /** Too many failed logins for this account or from this address; see {@code retry_after}. */
  public static final ErrorCode LOGIN_THROTTLED = ErrorCode.of(429, "login_throttled", "Too many failed logins");
  /** Too many registrations from this address; see {@code retry_after}. */
  public static final ErrorCode REGISTRATION_THROTTLED =
      ErrorCode.of(429, "registration_throttled", "Too many registrations");
  /** Too many position reports; see {@code retry_after}. */
  public static final ErrorCode POSITION_THROTTLED = ErrorCode.of(429, "position_throttled", "Too many position reports");
  /** The user does not exist or is not visible to the caller. */
  public static final ErrorCode USER_NOT_FOUND = ErrorCode.of(404, "user_not_found", "User not found");
  /** A PATCH names a field the server owns (id, counts, created, role, username, email, ...). */
  public static final ErrorCode READ_ONLY_FIELD = ErrorCode.of(400, "read_only_field", "Field is not editable");
  /** A PATCH names a field that does not exist. */
  public static final ErrorCode UNKNOWN_FIELD = ErrorCode.of(400, "unknown_field", "Unknown field");
  /** The actor has not opted in to "nearby". */
  public static final ErrorCode NEARBY_DISABLED = ErrorCode.of(403, "nearby_disabled", "Nearby is turned off");
  /** Too many password hashings are queued on this node; retry shortly. */
  public static final ErrorCode BUSY = ErrorCode.of(503, "busy", "Busy, retry shortly");

  /** A verification or reset code that is wrong, already used, killed by too many wrong tries, or never sent. */
  public static final ErrorCode CODE_INVALID = ErrorCode.of(400, "code_invalid", "Wrong or used code");
  /** A verification or reset code (or link) past its lifetime; ask for a new one. */
  public static final ErrorCode CODE_EXPIRED = ErrorCode.of(400, "code_expired", "Code expired");
  /** A verification asked for a channel on which the account has no identifier waiting to be verified. */
  public static final ErrorCode NOTHING_TO_VERIFY = ErrorCode.of(409, "nothing_to_verify", "Nothing to verify");
  /**
   * A username change came before the cool-down after the previous one ended; {@code available_at} (epoch ms) says
   * when it ends and {@code retry_after} how many seconds remain.
   */
  public static final ErrorCode USERNAME_CHANGE_TOO_SOON =
      ErrorCode.of(429, "username_change_too_soon", "Username changed too recently");

  /**
   * The account is scheduled for deletion: its login (with the right password) is refused with this code, carrying
   * {@code pending_deletion, deletion_at, deletion_token, expires_in} instead of a session; a deletion asked again is
   * refused with it too.
   */
  public static final ErrorCode ACCOUNT_PENDING_DELETION =
      ErrorCode.of(403, "account_pending_deletion", "Account scheduled for deletion");
  /** The account was deleted: its username logs in no more (its sessions ended when the deletion was asked). */
  public static final ErrorCode ACCOUNT_DELETED = ErrorCode.of(401, "account_deleted", "Account deleted");
  /**
   * The account is suspended by the moderators: its login (with the right password) is refused with this code,
   * carrying {@code suspended_until} (epoch ms, null when permanent), {@code reason}, and {@code appeal_token} with
   * {@code expires_in}, the token for {@code POST /appeals/suspension}.
   */
  public static final ErrorCode ACCOUNT_SUSPENDED = ErrorCode.of(403, "account_suspended", "Account suspended");

  /** An export of the user's data is already pending or running: one at a time per user. */
  public static final ErrorCode EXPORT_IN_PROGRESS =
      ErrorCode.of(409, "export_in_progress", "An export is already being built");
  /** No export of the caller has this id (another user's export answers the same). */
  public static final ErrorCode EXPORT_NOT_FOUND = ErrorCode.of(404, "export_not_found", "Export not found");
  /** The export is not ready to download (pending, running or failed); see its {@code state}. */
  public static final ErrorCode EXPORT_NOT_READY = ErrorCode.of(409, "export_not_ready", "Export not ready");
  /** The export's download time ended and its archive was deleted; ask for a new export. */
  public static final ErrorCode EXPORT_EXPIRED = ErrorCode.of(410, "export_expired", "Export expired");

  private AccountsErrors() {
  }
}
