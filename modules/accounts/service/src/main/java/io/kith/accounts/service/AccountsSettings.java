package io.kith.accounts.service;

import io.kith.platform.config.Bounds;
import io.vertx.core.json.JsonObject;

/**
 * The {@code accounts} configuration section.
 *
 * @param argon2Threads                 worker threads for password hashing
 * @param argon2MaxQueued               hashings in flight or queued before new ones are refused (busy)
 * @param argon2MemoryKib               Argon2id memory cost of new hashes, in KiB
 * @param argon2Iterations              Argon2id time cost (passes) of new hashes
 * @param loginMaxFailuresPerAccount    failed logins per account per window before 429
 * @param loginMaxFailuresPerAddress    failed logins per client address per window before 429
 * @param loginWindowSeconds            the failed-login window
 * @param registerMaxPerAddress         registrations per client address per window
 * @param registerWindowSeconds         the registration window
 * @param profileCacheTtlSeconds        lifetime of cached profiles
 * @param nearbyTtlSeconds              how long a reported position counts
 * @param nearbyMaxRadiusKm             largest search radius
 * @param positionIntervalSeconds       minimum time between two position reports of a user
 * @param presenceExpirySeconds         how long a connection counts without a heartbeat
 * @param nearbySearchesPerMinute       nearby searches a user may make per minute
 * @param contactsLookupEntriesPerHour  address-book entries (emails and phones) a user may look up per hour
 * @param presenceQueriesPerMinute      presence queries a user may make per minute
 * @param nicknameSearchesPerMinute     nickname searches a user may make per minute
 * @param profileReadsPerMinute         reads of other users' profiles and username lookups a user may make per minute
 * @param profileUpdatesPerMinute       changes of one's own profile (presence mode included) a user may make per minute
 * @param verification                  codes that prove an email or phone, and password reset codes
 * @param loginRequiresVerified         whether an email or phone logs in only once verified
 * @param usernameChangeCooldownDays    days after a username change before the next one
 * @param usernameReserveDays           days a username given up stays reserved for its former owner
 */
record AccountsSettings(int argon2Threads, int argon2MaxQueued, int argon2MemoryKib, int argon2Iterations,
                        int loginMaxFailuresPerAccount,
                        int loginMaxFailuresPerAddress, int loginWindowSeconds, int registerMaxPerAddress,
                        int registerWindowSeconds, int profileCacheTtlSeconds, int nearbyTtlSeconds,
                        double nearbyMaxRadiusKm, int positionIntervalSeconds, int presenceExpirySeconds,
                        int nearbySearchesPerMinute, int contactsLookupEntriesPerHour, int presenceQueriesPerMinute,
                        int nicknameSearchesPerMinute, int profileReadsPerMinute,
                        int profileUpdatesPerMinute, Codes verification, boolean loginRequiresVerified,
                        int usernameChangeCooldownDays, int usernameReserveDays) {

  /**
   * One-time codes.
   *
   * @param ttlSeconds               lifetime of a verification code and link
   * @param maxAttempts              wrong codes that kill a code (verification and reset)
   * @param sendsPerIdentifier       verification codes sent to one email or phone per window
   * @param sendsPerUser             verification codes one user may have sent per window
   * @param sendWindowSeconds        the window of both send limits
   * @param link                     prefix of the verification link (the token follows)
   * @param resetTtlSeconds          lifetime of a reset code
   * @param resetsPerIdentifier      reset requests per identifier per reset window
   * @param resetsPerAddress         reset requests per client address per reset window
   * @param resetWindowSeconds       the reset window
   */
  record Codes(int ttlSeconds, int maxAttempts, int sendsPerIdentifier, int sendsPerUser, int sendWindowSeconds,
               String link, int resetTtlSeconds, int resetsPerIdentifier, int resetsPerAddress,
               int resetWindowSeconds) {
  }

  static AccountsSettings from(JsonObject s) {
    Bounds b = Bounds.of("accounts", s);
    return new AccountsSettings(
        b.integer("argon2-threads"),
        b.integer("argon2-max-queued"),
        b.within("argon2-memory-kib", 1024, 4 * 1024 * 1024),
        b.within("argon2-iterations", 1, 16),
        b.integer("login-max-failures-per-account"),
        b.integer("login-max-failures-per-address"),
        b.integer("login-window-seconds"),
        b.integer("register-max-per-address"),
        b.integer("register-window-seconds"),
        b.integer("profile-cache-ttl-seconds"),
        b.integer("nearby-ttl-seconds"),
        b.decimal("nearby-max-radius-km"),
        b.integer("position-interval-seconds"),
        b.integer("presence-expiry-seconds"),
        b.integer("nearby-searches-per-minute"),
        b.integer("contacts-lookup-entries-per-hour"),
        b.integer("presence-queries-per-minute"),
        b.integer("nickname-searches-per-minute"),
        b.integer("profile-reads-per-minute"),
        b.integer("profile-updates-per-minute"),
        new Codes(b.within("verification-code-ttl-seconds", 1, 86_400), b.within("verification-max-attempts", 1, 100),
            b.within("verification-sends-per-identifier", 1, 1000), b.within("verification-sends-per-user", 1, 1000),
            b.within("verification-send-window-seconds", 1, 86_400), b.text("verification-link"),
            b.within("reset-code-ttl-seconds", 1, 86_400), b.within("reset-requests-per-identifier", 1, 1000),
            b.within("reset-requests-per-address", 1, 100_000), b.within("reset-window-seconds", 1, 86_400)),
        b.flag("login-requires-verified"),
        b.within("username-change-cooldown-days", 0, 3650),
        b.within("username-reserve-days", 0, 3650));
  }
}
