package io.kith.bench.scenario;

import io.kith.platform.Platform;
import io.kith.platform.config.KithConfig;
import io.kith.platform.store.FreePorts;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.function.Function;

/**
 * Direct access to the stores of the in-process Kith, for scenarios that seed more data than the public API could
 * create in reasonable time (a million follower edges).
 *
 * <p>The bench starts Kith on embedded Redis and MongoDB; a scenario using this class pins their ports through
 * {@link Scenario#inProcessConfig()} ({@link #inProcessConfig()}, ports picked once per scenario object) and, when it
 * runs, opens a {@link Platform} of its own on those stores with the bench's Vert.x instance: the same store clients
 * and an id generator that leases its own node number, so the ids it makes never collide with Kith's. Against a
 * remote {@code --target} the stores are not reachable, and the scenario refuses to run.
 *
 * <p>Seeding this way bypasses the domain services (their rules, events and counters): a scenario that does it says
 * so in its notes and writes the derived documents (such as counts) itself.
 *
 * <p>A scenario that needs many users with a live session but no account (bridge connections by the thousand, where
 * registering over HTTP would spend minutes hashing passwords) creates its stores with {@link #signingTokens}: the
 * in-process Kith then signs with a secret the bench chose, and the bench's platform opens sessions
 * ({@code platform.sessions().open}) whose access tokens Kith accepts.
 */
public final class BenchStores {

  private final String scenario;
  private final String tokenSecret;
  private int redisPort;
  private int mongoPort;

  /** @param scenario the scenario's name, for messages */
  public BenchStores(String scenario) {
    this(scenario, null);
  }

  private BenchStores(String scenario, String tokenSecret) {
    this.scenario = scenario;
    this.tokenSecret = tokenSecret;
  }

  /** Stores whose platform can open sessions the in-process Kith accepts (both sign with one secret). */
  public static BenchStores signingTokens(String scenario) {
    return new BenchStores(scenario, randomSecret());
  }

  private static String randomSecret() {
    byte[] secret = new byte[48];
    new SecureRandom().nextBytes(secret);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(secret);
  }

  /** The embedded-store ports for the in-process Kith: picked on the first call, the same on every later one. */
  public synchronized JsonObject inProcessConfig() {
    if (redisPort == 0) {
      redisPort = FreePorts.pick();
      int mongo = FreePorts.pick();
      while (mongo == redisPort) {
        mongo = FreePorts.pick();
      }
      mongoPort = mongo;
    }
    JsonObject config = new JsonObject()
        .put("redis", new JsonObject().put("embedded-port", redisPort))
        .put("mongo", new JsonObject().put("embedded-port", mongoPort));
    if (tokenSecret != null) {
      config.put("tokens", new JsonObject().put("secret", tokenSecret));
    }
    return config;
  }

  /** The in-process Kith's Redis port (0 before {@link #inProcessConfig()}). */
  public synchronized int redisPort() {
    return redisPort;
  }

  /**
   * Opens a platform on the in-process Kith's stores. Fails with a readable message when the run is not in-process
   * ({@code context.userId()} is 0 when the token was not minted in-process).
   */
  public synchronized Future<Platform> open(ScenarioContext context) {
    if (redisPort == 0 || context.userId() == 0) {
      return Future.failedFuture(new IllegalStateException(scenario + " seeds MongoDB and Redis directly, so it runs "
          + "only against the in-process Kith (without --target)"));
    }
    return open(context.vertx(), "redis://127.0.0.1:" + redisPort, "mongodb://127.0.0.1:" + mongoPort,
        tokenSecret == null ? randomSecret() : tokenSecret);
  }

  /**
   * Opens a platform on the in-process Kith's stores ({@link #open(ScenarioContext)}), runs {@code work} with it and
   * closes it, whatever the outcome.
   */
  public <T> Future<T> using(ScenarioContext context, Function<Platform, Future<T>> work) {
    return open(context).compose(platform -> work.apply(platform).eventually(platform::close));
  }

  /** Opens a platform on the stores at these URLs (the in-process ones, or a test kit's). */
  public static Future<Platform> open(Vertx vertx, String redisUrl, String mongoUrl) {
    // A secret of its own: the bench's platform signs no tokens, and must not log that the shared one is generated.
    return open(vertx, redisUrl, mongoUrl, randomSecret());
  }

  private static Future<Platform> open(Vertx vertx, String redisUrl, String mongoUrl, String tokenSecret) {
    JsonObject config = new JsonObject().put("tokens", new JsonObject().put("secret", tokenSecret));
    return Platform.start(vertx, KithConfig.of(config), redisUrl, mongoUrl)
        .recover(e -> Future.failedFuture(new IllegalStateException("cannot reach the in-process Kith's stores: "
            + e.getMessage(), e)));
  }
}
