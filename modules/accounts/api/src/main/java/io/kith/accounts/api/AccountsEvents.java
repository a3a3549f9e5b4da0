package io.kith.accounts.api;

/**
 * Events the accounts domain appends to the event log stream {@code events:accounts}.
 *
 * <ul>
 *   <li>{@value #USER_REGISTERED}: {@code {user_id, username}}</li>
 *   <li>{@value #PROFILE_UPDATED}: {@code {user_id, fields: [names of changed fields]}}</li>
 *   <li>{@value #PRESENCE_CHANGED}: {@code {user_id, online, mode}}</li>
 *   <li>{@value #ACCOUNT_DELETED}: {@code {user_id, deleted_at}}: every domain erases what belongs to the user
 *   (the contract is in the accounts README, "Deletion")</li>
 *   <li>{@value #ACCOUNT_EXPORT_READY}: {@code {user_id, export_id, expires_at}}: the user's export archive can be
 *   downloaded until {@code expires_at}</li>
 * </ul>
 *
 * <p>Each type has a record of the same name in {@code io.kith.accounts.api.events} whose {@code toJson()} writes the
 * payload and whose {@code fromJson} reads it: producers publish records, consumers read them.
 */
public final class AccountsEvents {

  /** The domain (stream) name. */
  public static final String DOMAIN = "accounts";
  /** An account was created. */
  public static final String USER_REGISTERED = "UserRegistered";
  /** Profile fields or settings changed. */
  public static final String PROFILE_UPDATED = "ProfileUpdated";
  /** The user came online, went offline, or changed presence mode. */
  public static final String PRESENCE_CHANGED = "PresenceChanged";

  /** The account was erased after its grace period; every domain erases the user's data. */
  public static final String ACCOUNT_DELETED = "AccountDeleted";

  /** An export archive of the user's data is ready to download. */
  public static final String ACCOUNT_EXPORT_READY = "AccountExportReady";

  private AccountsEvents() {
  }
}
