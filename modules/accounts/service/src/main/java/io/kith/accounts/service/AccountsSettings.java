package io.kith.accounts.service;

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
 */
record AccountsSettings(int argon2Threads, int argon2MaxQueued, int argon2MemoryKib, int argon2Iterations,
                        int loginMaxFailuresPerAccount,
                        int loginMaxFailuresPerAddress, int loginWindowSeconds, int registerMaxPerAddress,
                        int registerWindowSeconds, int profileCacheTtlSeconds, int nearbyTtlSeconds,
                        double nearbyMaxRadiusKm, int positionIntervalSeconds, int presenceExpirySeconds,
                        int nearbySearchesPerMinute, int contactsLookupEntriesPerHour, int presenceQueriesPerMinute,
                        int nicknameSearchesPerMinute, int profileReadsPerMinute,
                        int profileUpdatesPerMinute) {

  static AccountsSettings from(JsonObject s) {
    return new AccountsSettings(
        s.getInteger("argon2-threads", 2),
        s.getInteger("argon2-max-queued", 64),
        within(s, "argon2-memory-kib", Passwords.MEMORY_KIB, 1024, 4 * 1024 * 1024),
        within(s, "argon2-iterations", Passwords.ITERATIONS, 1, 16),
        s.getInteger("login-max-failures-per-account", 5),
        s.getInteger("login-max-failures-per-address", 20),
        s.getInteger("login-window-seconds", 900),
        s.getInteger("register-max-per-address", 10),
        s.getInteger("register-window-seconds", 3600),
        s.getInteger("profile-cache-ttl-seconds", 3600),
        s.getInteger("nearby-ttl-seconds", 7200),
        s.getDouble("nearby-max-radius-km", 50.0),
        s.getInteger("position-interval-seconds", 10),
        s.getInteger("presence-expiry-seconds", 60),
        s.getInteger("nearby-searches-per-minute", 30),
        s.getInteger("contacts-lookup-entries-per-hour", 2000),
        s.getInteger("presence-queries-per-minute", 600),
        s.getInteger("nickname-searches-per-minute", 120),
        s.getInteger("profile-reads-per-minute", 600),
        s.getInteger("profile-updates-per-minute", 30));
  }

  private static int within(JsonObject s, String key, int fallback, int min, int max) {
    int value = s.getInteger(key, fallback);
    if (value < min || value > max) {
      throw new IllegalArgumentException("accounts." + key + " must be between " + min + " and " + max + ": " + value);
    }
    return value;
  }
}
