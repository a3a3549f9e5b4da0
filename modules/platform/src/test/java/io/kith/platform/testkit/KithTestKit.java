package io.kith.platform.testkit;

import de.bwaldvogel.mongo.backend.memory.MemoryBackend;
import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.kith.platform.config.KithConfig;
import io.kith.platform.store.EmbeddedMongo;
import io.kith.platform.store.EmbeddedRedis;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The test kit: a JUnit 5 extension that starts one Redis (the {@code redis-server} on PATH if there is one, else the
 * embedded binary) and one in-memory MongoDB-wire server per test JVM, on free ports, and helpers to build a
 * {@link Platform} on them and to make users and tokens.
 *
 * <p>Use it with {@code @ExtendWith({VertxExtension.class, KithTestKit.class})}. Tests isolate by fresh ids, never by
 * cleaning the stores.
 */
public final class KithTestKit implements BeforeAllCallback {

  private static final AtomicLong USER_IDS = new AtomicLong(System.currentTimeMillis() * 1000);
  private static EmbeddedRedis redis;
  private static EmbeddedMongo mongo;

  @Override
  public void beforeAll(ExtensionContext context) {
    ensureStarted();
  }

  /** Starts the stores once per JVM (stopped by a shutdown hook). */
  public static synchronized void ensureStarted() {
    if (redis != null) {
      return;
    }
    redis = EmbeddedRedis.start(null, 0, true);
    mongo = EmbeddedMongo.start(MemoryBackend::new, 0);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      mongo.close();
      redis.close();
    }, "kith-testkit-stores"));
  }

  /** URL of the test Redis. */
  public static String redisUrl() {
    ensureStarted();
    return redis.url();
  }

  /** URL of the test MongoDB-wire server. */
  public static String mongoUrl() {
    ensureStarted();
    return mongo.url();
  }

  /**
   * Configuration pointing at the test stores, with {@code overrides} merged over the defaults. New password hashes
   * use the lowest Argon2id cost ({@code accounts.argon2-memory-kib} 1024, {@code argon2-iterations} 1): tests
   * register thousands of users, and at the production cost (19 MiB, two passes, about 80 ms of CPU here) hashing
   * took a quarter to a third of the suite's CPU. What hashing and verifying do is the same at any cost. The store
   * command deadline and the request deadline are 30 s and 60 s instead of 2 s and 10 s: on a machine whose cores
   * other work keeps busy a healthy store can take seconds to answer, and a deadline here must only catch a hang (the
   * tests of the deadlines set their own).
   */
  public static KithConfig config(JsonObject overrides) {
    JsonObject tree = new JsonObject()
        // a directory of this JVM's own: the development outbox (mail and SMS without a server) writes there
        .put("kith", new JsonObject().put("data-dir", Outbox.DATA_DIR.toString()))
        .put("accounts", new JsonObject().put("argon2-memory-kib", 1024).put("argon2-iterations", 1))
        .put("redis", new JsonObject().put("url", redisUrl()).put("command-timeout-ms", 30_000))
        .put("mongo", new JsonObject().put("url", mongoUrl()).put("database", "kith-test"))
        .put("http", new JsonObject().put("port", 0).put("access-log", false).put("instances", 1)
            .put("request-timeout-seconds", 60))
        .put("bridge", new JsonObject().put("tcp-port", 0))
        // tests read codes from the outbox while many registrations write to it
        .put("mail", new JsonObject().put("outbox-keep", 2000));
    deepMerge(tree, overrides);
    return KithConfig.of(tree);
  }

  /** A platform on the test stores. Close it (or the Vert.x instance) after the test. */
  public static Future<Platform> platform(Vertx vertx) {
    return platform(vertx, new JsonObject());
  }

  /** A platform on the test stores with configuration overrides. */
  public static Future<Platform> platform(Vertx vertx, JsonObject overrides) {
    return Platform.start(vertx, config(overrides), redisUrl(), mongoUrl());
  }

  /**
   * Deploys {@code modules} on {@code platform} in their start order (domain services before the gateway), as the
   * app does, and completes when all are ready.
   */
  public static Future<Void> deploy(Platform platform, KithModule... modules) {
    Future<Void> chain = Future.succeededFuture();
    for (KithModule module : java.util.Arrays.stream(modules)
        .sorted(java.util.Comparator.comparingInt(KithModule::order)).toList()) {
      chain = chain.compose(v -> module.deploy(platform).mapEmpty());
    }
    return chain;
  }

  /** The HTTP port of a gateway deployed on {@code platform}'s Vert.x (0 when none). */
  public static int httpPort(Platform platform) {
    Object port = platform.vertx().sharedData().getLocalMap("kith.gateway.ports").get("http");
    return port instanceof Integer ? (Integer) port : 0;
  }

  /** A user id no other test uses. */
  public static long newUserId() {
    return USER_IDS.incrementAndGet();
  }

  /** Opens a session for a fresh user id and returns its tokens. */
  public static Future<TokenPair> newSession(Platform platform) {
    return platform.sessions().open(newUserId(), "test device");
  }

  /** Merges {@code overlay} into {@code target}: objects key by key, anything else replaced. */
  public static void deepMerge(JsonObject target, JsonObject overlay) {
    for (String key : overlay.fieldNames()) {
      Object over = overlay.getValue(key);
      Object base = target.getValue(key);
      if (over instanceof JsonObject && base instanceof JsonObject) {
        deepMerge((JsonObject) base, (JsonObject) over);
      } else {
        target.put(key, over);
      }
    }
  }
}
