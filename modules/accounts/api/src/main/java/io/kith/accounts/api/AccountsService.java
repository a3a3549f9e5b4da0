package io.kith.accounts.api;

import io.kith.platform.bus.ServiceProxies;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Who you are, how others find you, whether you are around.
 *
 * <p>Every method that acts for a user takes that user's id ({@code actor} or {@code viewer}) as its first argument,
 * filled by the gateway from a verified token, never from a request body; the service decides what that user may do
 * and see. Failures are {@code ServiceException}s with the codes in {@link AccountsErrors} and
 * {@code io.kith.platform.error.KithErrors}. What only other domains and the gateway's bridge machinery call is on
 * {@link AccountsInternal}.
 *
 * <p>Profiles travel as JSON objects with snake_case members: {@code id, username, nickname, gender, birthday,
 * zodiac, signature, photo_url, school, job, phone, email, email_verified, phone_verified, locale, interests, location,
 * created, last_active, settings} (the owner's view, where an email or phone waiting for its code shows unverified) or the public subset the owner's settings allow (anyone else's view).
 */
@ProxyGen
@VertxGen
public interface AccountsService {

  /** Event-bus address of the service. */
  String ADDRESS = "kith.accounts";

  /** A proxy to the service (on any node of the cluster). */
  @GenIgnore
  static AccountsService proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, AccountsService.class, ADDRESS);
  }

  /**
   * Registers an account and logs it in.
   *
   * @param request       {@code {username, password, email?, phone?, device?, locale?}}: the email and phone wait for
   *                      the codes sent to them; locale is {@code en}, {@code zh-CN} or an Accept-Language value
   * @param clientAddress the caller's network address, for the per-address registration limit
   * @return {@code {user: <own profile>, tokens: <token pair>}}
   */
  Future<JsonObject> register(JsonObject request, String clientAddress);

  /**
   * Logs in by username, email or phone. Failed logins are throttled per client address and per account; a login
   * presenting a device token the account issued is throttled per account and device instead of per account.
   *
   * @param request       {@code {login, password, device?, device_token?}} (a device token of another form, another
   *                      account or forgotten is ignored)
   * @param clientAddress the caller's network address, for throttling
   * @return the token pair ({@code access_token, refresh_token, token_type, expires_in, session_id, user_id}) and the
   *         device's {@code device_token} (the one presented when it was known, else a new one); for an account
   *         pending deletion, with the right password, no session but the failure {@code account_pending_deletion}
   *         carrying {@code pending_deletion, deletion_at, deletion_token, expires_in}; {@code account_deleted} for
   *         the username of an erased account
   */
  Future<JsonObject> login(JsonObject request, String clientAddress);

  /**
   * Sends (again) a six-digit code to the actor's email or phone that waits to be verified; by mail also a link.
   * When another account has verified that identifier, a notice saying so goes there instead, and the answer is the
   * same. Limited per user and per identifier ({@code rate_limited} with {@code retry_after}).
   *
   * @param channel        {@code email} or {@code phone}; {@code nothing_to_verify} when none waits on it
   * @param acceptLanguage the request's Accept-Language (may be null), for an account without a locale
   * @return {@code {channel, expires_in}}
   */
  Future<JsonObject> startVerification(long actor, String channel, String acceptLanguage);

  /**
   * Checks a code the actor received; the identifier becomes the actor's, verified, and every other account's
   * unverified claim of it is released. {@code code_invalid} for a wrong, used or killed code (the attempts are
   * limited), {@code code_expired} past its lifetime, {@code email_taken}/{@code phone_taken} when another account
   * verified it first.
   *
   * @return the updated own profile
   */
  Future<JsonObject> confirmVerification(long actor, String channel, String code);

  /**
   * Verifies by the token of a verification mail's link, without a session.
   *
   * @return {@code {user_id, channel, verified: true}}
   */
  Future<JsonObject> confirmVerificationLink(String token);

  /**
   * Starts a password reset: a code goes to the account's email or phone. The answer is the same, after the same
   * work, whether or not any account matches; limited per identifier and per client address.
   *
   * @param identifier username, email or phone
   * @return {@code {status: "accepted", detail}}
   */
  Future<JsonObject> requestPasswordReset(String identifier, String clientAddress, String acceptLanguage);

  /**
   * Sets a new password with a reset code; every session of the account ends and the account is told. Refusals as
   * for {@link #confirmVerification}, plus {@code weak_password} on {@code new_password}.
   */
  Future<Void> confirmPasswordReset(String identifier, String code, String newPassword);


  /**
   * Changes the actor's password after checking the current one; every session of the actor is revoked and every
   * device token forgotten.
   */
  Future<Void> changePassword(long actor, String currentPassword, String newPassword);

  /**
   * Changes the actor's username after checking the password (a wrong one fails as {@link #changePassword} does,
   * counted in the same throttle). The old name stays reserved for the actor for a while (nobody else may take it:
   * {@code username_taken}; the actor may take it back at any time); a second change within the cool-down fails with
   * {@code username_change_too_soon}. Completes with the actor's own profile.
   */
  Future<JsonObject> changeUsername(long actor, String username, String password);

  /** Ends every session of the actor and forgets every device token the actor's logins were given. */
  Future<Void> logoutEverywhere(long actor);

  /**
   * Schedules the deletion of the actor's account after {@code accounts.deletion-grace-days}: every session and
   * device token ends at once, the account is hidden from everyone (it answers like a missing one), and its verified
   * email is told how to cancel. Its login then answers {@code pending_deletion} with a cancel token instead of a
   * session (see {@link #login}). {@code validation_failed} without a password, {@code invalid_credentials} on {@code password} when wrong
   * (throttled like a password change), {@code account_pending_deletion} when already scheduled.
   *
   * @param acceptLanguage the request's Accept-Language (may be null), for an account without a locale
   * @return {@code {pending_deletion: true, deletion_at: <epoch ms>}}
   */
  Future<JsonObject> requestDeletion(long actor, String password, String acceptLanguage);

  /**
   * Sends a fresh code to one of the actor's verified identifiers, for {@link #requestDeletionByCode} instead of the
   * password (an account signed in by a device whose password the owner forgot). Limited like verification codes
   * ({@code rate_limited}); {@code nothing_to_verify} when the actor has no verified identifier on that channel.
   *
   * @param channel        {@code email} or {@code phone}; null: the verified email, else the verified phone
   * @param acceptLanguage the request's Accept-Language (may be null), for an account without a locale
   * @return {@code {channel, expires_in}}
   */
  Future<JsonObject> requestDeletionCode(long actor, String channel, String acceptLanguage);

  /**
   * {@link #requestDeletion}, confirmed by the code {@link #requestDeletionCode} sent instead of the password:
   * {@code code_invalid} for a wrong, used or killed code (the attempts are limited), {@code code_expired} past its
   * lifetime.
   *
   * @return {@code {pending_deletion: true, deletion_at: <epoch ms>}}
   */
  Future<JsonObject> requestDeletionByCode(long actor, String code, String acceptLanguage);

  /**
   * Cancels a pending deletion with the {@code deletion_token} that a login of the account answered, and logs the
   * account in. {@code token_invalid} for a wrong, used or expired token, or once the erasure began.
   *
   * @param device the device label of the new session (may be null)
   * @return the token pair and {@code device_token}, as {@link #login} answers
   */
  Future<JsonObject> cancelDeletion(String deletionToken, String device);

  /**
   * Asks for an export of everything of the actor's (profile, identities, sessions, devices and every other domain's
   * part), built in the background into one ZIP archive the actor alone may download for
   * {@code accounts.export-ttl-hours}. One at a time ({@code export_in_progress} while one is pending or running), at
   * most {@code accounts.export-requests-per-day} a day ({@code rate_limited} with {@code retry_after}).
   *
   * @return the export's status, {@code {export_id, state: "pending", created_at}}
   */
  Future<JsonObject> requestExport(long actor);

  /**
   * The status of one of the actor's exports: {@code {export_id, state, created_at, ready_at?, expires_at?, size?,
   * reason?}}, state {@code pending}, {@code running}, {@code ready}, {@code failed} (with {@code reason}) or
   * {@code expired}. {@code export_not_found} for an unknown id and, alike, another user's export.
   */
  Future<JsonObject> export(long actor, long exportId);

  /** The actor's exports, newest first, at most {@code 20}: {@code {items: [<status>]}}. */
  Future<JsonObject> exports(long actor);

  /**
   * Where the archive of one of the actor's ready exports lies, for the gateway to stream it:
   * {@code {path, size, filename}} ({@code path} on the export directory, which a gateway serving downloads shares
   * with the accounts nodes). {@code export_not_found} as {@link #export}, {@code export_not_ready} before it is
   * ready or after it failed, {@code export_expired} past {@code expires_at}.
   */
  Future<JsonObject> exportFile(long actor, long exportId);

  /**
   * The actor's own profile (everything) or another user's public view; {@code user_not_found} for a missing user and,
   * identically, for a user separated from the actor by a block in either direction.
   */
  Future<JsonObject> profile(long actor, long userId);

  /**
   * Updates editable profile fields and settings of the actor (a member set to null clears it). Text holding a
   * control character or an unpaired surrogate is {@code validation_failed} naming the field; past
   * {@code accounts.profile-updates-per-minute} the change is {@code rate_limited} with {@code retry_after}.
   *
   * @return the updated own profile
   */
  Future<JsonObject> updateProfile(long actor, JsonObject changes);

  /** The public view of the user with this exact username (any case), or not found (also across a block). */
  Future<JsonObject> findByUsername(long actor, String username);

  /**
   * Address-book lookup: accounts whose owners allow being found by that email or phone.
   *
   * @param request {@code {emails: [...], phones: [...]}}, at most 500 entries in all
   * @return {@code {items: [{email|phone: <as given>, user: <summary>}]}}; entries that match nobody visible are absent
   */
  Future<JsonObject> findByContacts(long actor, JsonObject request);

  /**
   * Users whose nickname starts with {@code prefix} (case-insensitive), ordered by nickname.
   *
   * @param page its limit, and as cursor the {@code next} member of the previous page (null: the first page)
   * @return {@code {items: [<summary>], next: <cursor or null>}}
   */
  Future<Page> searchByNickname(long actor, String prefix, PageRequest page);

  /**
   * Batch user lookup for a screen that shows several people (a group chat's senders): the summaries
   * ({@code id, username, nickname, photo_url}) of these users, in the order asked. Unknown users, and users in a
   * block with the actor either way, are absent, exactly as one another. Counts as one profile read of the actor's.
   *
   * @param userIds 1 to 100 ids (repeats are answered once); otherwise {@code validation_failed} on {@code ids}
   * @return {@code {items: [<summary>]}}
   */
  Future<JsonObject> users(long actor, List<Long> userIds);

  /**
   * Profile summaries for other domains and list screens ({@code id, username, nickname, photo_url}), keyed by id;
   * unknown ids are absent. At most 1,000 ids.
   */
  Future<JsonObject> summaries(long viewer, List<Long> userIds);

  /** Sets the actor's presence mode: {@code online}, {@code friends} or {@code invisible}. Returns the actor's presence. */
  Future<JsonObject> setPresenceMode(long actor, String mode);

  /**
   * What {@code viewer} may see of the presence of up to 1,000 users:
   * {@code {"<id>": {online: bool, last_active: ms or null}}}.
   */
  Future<JsonObject> presence(long viewer, List<Long> userIds);

  /**
   * Reports the actor's position for "nearby" (only when the actor opted in). Stored rounded to about 100 m and kept
   * for {@code accounts.nearby-ttl-seconds}.
   */
  Future<Void> reportPosition(long actor, double latitude, double longitude);

  /**
   * People near a position, nearest first.
   *
   * @param query {@code {lat, lon, radius_km (<= 50), limit (1..100), offset?, interests?: [..]}}
   * @return {@code {items: [{user: <summary>, distance_m, shared_interests}], next_offset: n or null}}
   */
  Future<JsonObject> nearby(long actor, JsonObject query);
}
