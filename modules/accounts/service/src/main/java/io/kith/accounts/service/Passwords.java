package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import org.bouncycastle.crypto.generators.Argon2BytesGenerator;
import org.bouncycastle.crypto.params.Argon2Parameters;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Password policy and hashing. Hashes are Argon2id, by default with the OWASP parameters (19 MiB, t=2, p=1), 16-byte
 * salt, 32-byte tag, stored in the PHC string format. Memory and time cost are configurable for new hashes; a hash
 * keeps the parameters it was made with in its string and is always verified with those, so a change of cost never
 * locks anyone out, and a hash of another cost is {@link #outdated} (rehashed at the next successful login). Hashing
 * runs on a small named worker pool, never on an event loop; when more than {@code maxQueued} hashings wait, new ones
 * are refused with {@code busy} instead of queueing without bound.
 */
final class Passwords {

  static final int MIN_LENGTH = 8;
  static final int MAX_LENGTH = 128;
  static final int MEMORY_KIB = 19 * 1024;
  static final int ITERATIONS = 2;
  /**
   * The weakest of OWASP's recommended Argon2id settings ({@code m=7168, t=5}) as memory times passes; a cost below
   * it is for tests and is logged as such.
   */
  static final long WEAKEST_RECOMMENDED = 7168L * 5;
  private static final int PARALLELISM = 1;
  private static final int SALT_BYTES = 16;
  private static final int HASH_BYTES = 32;
  private static final Base64.Encoder B64 = Base64.getEncoder().withoutPadding();
  private static final Base64.Decoder B64D = Base64.getDecoder();

  private final WorkerExecutor workers;
  private final int maxQueued;
  private final int memoryKib;
  private final int iterations;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final SecureRandom random = new SecureRandom();
  private final Set<String> common;
  /** Verified against when the account does not exist, so that timing does not reveal which accounts exist. */
  private final String dummyHash;

  Passwords(Vertx vertx, int threads, int maxQueued, int memoryKib, int iterations) {
    this.workers = vertx.createSharedWorkerExecutor("kith-argon2", threads, 30, TimeUnit.SECONDS);
    this.maxQueued = maxQueued;
    this.memoryKib = memoryKib;
    this.iterations = iterations;
    this.common = loadCommon();
    this.dummyHash = hashNow("dummy password for timing equalisation");
  }

  /** Null when acceptable, else a message the user can act on. */
  String policyViolation(String password, String username) {
    if (password == null || password.length() < MIN_LENGTH) {
      return "password must be at least " + MIN_LENGTH + " characters";
    }
    if (password.length() > MAX_LENGTH) {
      return "password must be at most " + MAX_LENGTH + " characters";
    }
    if (username != null && password.equalsIgnoreCase(username)) {
      return "password must not be the username";
    }
    if (common.contains(password.toLowerCase(Locale.ROOT))) {
      return "password is one of the most common passwords; choose another";
    }
    return null;
  }

  /** Hashes on the worker pool. */
  Future<String> hash(String password) {
    return onWorker(() -> hashNow(password));
  }

  /** Verifies on the worker pool; a null {@code encoded} (no such account) is checked against a dummy hash. */
  Future<Boolean> verify(String password, String encoded) {
    String against = encoded == null ? dummyHash : encoded;
    return onWorker(() -> verifyNow(password, against) && encoded != null);
  }

  /** Whether a stored hash was made with another cost than new hashes get (or is not an Argon2id PHC string). */
  boolean outdated(String encoded) {
    return encoded == null || !encoded.startsWith("$argon2id$v=19$m=" + memoryKib + ",t=" + iterations + ",p="
        + PARALLELISM + "$");
  }

  void close() {
    workers.close();
  }

  private <T> Future<T> onWorker(java.util.concurrent.Callable<T> work) {
    if (inFlight.incrementAndGet() > maxQueued) {
      inFlight.decrementAndGet();
      return Failures.fail(AccountsErrors.BUSY, "too many logins in progress; retry in a moment");
    }
    return workers.executeBlocking(work, false).andThen(ar -> inFlight.decrementAndGet());
  }

  private String hashNow(String password) {
    byte[] salt = new byte[SALT_BYTES];
    random.nextBytes(salt);
    byte[] hash = argon2(password, salt, memoryKib, iterations, PARALLELISM, HASH_BYTES);
    return "$argon2id$v=19$m=" + memoryKib + ",t=" + iterations + ",p=" + PARALLELISM + "$"
        + B64.encodeToString(salt) + "$" + B64.encodeToString(hash);
  }

  static boolean verifyNow(String password, String encoded) {
    String[] parts = encoded.split("\\$");
    // ["", "argon2id", "v=19", "m=..,t=..,p=..", salt, hash]
    if (parts.length != 6 || !parts[1].equals("argon2id")) {
      return false;
    }
    int m = 0;
    int t = 0;
    int p = 0;
    for (String kv : parts[3].split(",")) {
      String[] pair = kv.split("=");
      int v = Integer.parseInt(pair[1]);
      switch (pair[0]) {
        case "m" -> m = v;
        case "t" -> t = v;
        case "p" -> p = v;
        default -> {
          return false;
        }
      }
    }
    byte[] salt = B64D.decode(parts[4]);
    byte[] expected = B64D.decode(parts[5]);
    byte[] actual = argon2(password, salt, m, t, p, expected.length);
    return MessageDigest.isEqual(expected, actual);
  }

  private static byte[] argon2(String password, byte[] salt, int memoryKib, int iterations, int parallelism,
                               int length) {
    Argon2Parameters params = new Argon2Parameters.Builder(Argon2Parameters.ARGON2_id)
        .withVersion(Argon2Parameters.ARGON2_VERSION_13)
        .withMemoryAsKB(memoryKib)
        .withIterations(iterations)
        .withParallelism(parallelism)
        .withSalt(salt)
        .build();
    Argon2BytesGenerator generator = new Argon2BytesGenerator();
    generator.init(params);
    byte[] out = new byte[length];
    generator.generateBytes(password.getBytes(StandardCharsets.UTF_8), out);
    return out;
  }

  private static Set<String> loadCommon() {
    Set<String> set = new HashSet<>();
    try (InputStream in = Passwords.class.getResourceAsStream("/accounts/common-passwords.txt")) {
      if (in == null) {
        throw new IllegalStateException("common-passwords.txt missing from the accounts service jar");
      }
      try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          line = line.trim();
          if (!line.isEmpty() && !line.startsWith("#")) {
            set.add(line.toLowerCase(Locale.ROOT));
          }
        }
      }
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    return set;
  }
}
