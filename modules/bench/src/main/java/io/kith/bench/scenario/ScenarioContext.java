package io.kith.bench.scenario;

import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.client.BridgeClient;
import io.kith.bench.client.Target;
import io.kith.bench.load.LoadRunner;
import io.kith.bench.load.LoadSettings;
import io.kith.bench.load.Operation;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * What a scenario gets to work with: the target, a user's access token, the load runner, and clients that are closed
 * when the scenario ends. Use it on the load runner's context (where {@link Scenario#run} is called).
 */
public final class ScenarioContext {

  /** How long opening bridge connections may take. */
  public static final long CONNECT_TIMEOUT_MILLIS = 10_000;

  private final Vertx vertx;
  private final Target target;
  private final String token;
  private final long userId;
  private final LoadRunner runner;
  private final Map<String, Double> options;
  private final Vertx kithVertx;
  private final List<Supplier<Future<Void>>> closers = new ArrayList<>();
  private BenchHttpClient http;

  /**
   * @param vertx  the client-side Vert.x instance
   * @param target where to send requests
   * @param token  an access token, or null when none was given
   * @param userId the token's user when known, else 0
   * @param runner  the load runner
   * @param options the scenario's own options with their values (defaults filled in)
   */
  public ScenarioContext(Vertx vertx, Target target, String token, long userId, LoadRunner runner,
                         Map<String, Double> options) {
    this(vertx, target, token, userId, runner, options, null);
  }

  /**
   * A context that can also reach an in-process Kith's event bus.
   *
   * @param kithVertx the in-process Kith's Vert.x instance, or null when Kith runs elsewhere
   */
  public ScenarioContext(Vertx vertx, Target target, String token, long userId, LoadRunner runner,
                         Map<String, Double> options, Vertx kithVertx) {
    this.vertx = vertx;
    this.target = target;
    this.token = token;
    this.userId = userId;
    this.runner = runner;
    this.options = Map.copyOf(options);
    this.kithVertx = kithVertx;
  }

  /** The client-side Vert.x instance. */
  public Vertx vertx() {
    return vertx;
  }

  /** Where to send requests. */
  public Target target() {
    return target;
  }

  /** The access token, or null when the run has none. */
  public String token() {
    return token;
  }

  /** The token's user id when the bench minted the token itself, else 0 (unknown). */
  public long userId() {
    return userId;
  }

  /**
   * The in-process Kith's Vert.x instance, whose event bus reaches the service proxies (for domains whose HTTP
   * routes do not exist yet); null when the run measures a remote target. Replies to requests sent on it complete on
   * Kith's threads: hand results back to the runner's context before touching scenario state.
   */
  public Vertx kithVertx() {
    return kithVertx;
  }

  /** The load runner. */
  public LoadRunner runner() {
    return runner;
  }

  /**
   * The value of the scenario's option {@code name} (declared in {@link Scenario#options()}).
   *
   * @throws IllegalArgumentException when the scenario declares no such option
   */
  public double option(String name) {
    Double value = options.get(name);
    if (value == null) {
      throw new IllegalArgumentException("the scenario has no option --" + name);
    }
    return value;
  }

  /** The run's load settings. */
  public LoadSettings settings() {
    return runner.settings();
  }

  /** The shared HTTP client (created on first use, {@code connections} connections). */
  public BenchHttpClient http() {
    if (http == null) {
      // A little longer than the runner's timeout, so the runner is the one that counts timeouts.
      http = new BenchHttpClient(vertx, target, settings().connections(), settings().timeout().toMillis() + 1000);
      BenchHttpClient created = http;
      closers.add(created::close);
    }
    return http;
  }

  /** Opens {@code connections} bridge connections over {@code transport}, authenticated with the token. */
  public Future<BridgeClient> bridge(BridgeClient.Transport transport) {
    BridgeClient client = BridgeClient.create(vertx, target, transport, settings().connections(), token,
        CONNECT_TIMEOUT_MILLIS);
    closers.add(client::close);
    return client.open();
  }

  /**
   * Opens one bridge connection per token over {@code transport}: connection {@code i} belongs to the user of
   * {@code tokens.get(i)} (each user's own device, as opposed to {@link #bridge}'s pool for one user).
   */
  public Future<BridgeClient> bridgePerUser(BridgeClient.Transport transport, List<String> tokens) {
    BridgeClient client = BridgeClient.perUser(vertx, target, transport, tokens, CONNECT_TIMEOUT_MILLIS);
    closers.add(client::close);
    return client.open();
  }

  /** Registers {@code closer} to run when the scenario ends, with the context's own clients. */
  public void onClose(Supplier<Future<Void>> closer) {
    closers.add(closer);
  }

  /**
   * Sends each operation once, in order, and fails with a readable message naming the first one that does not
   * succeed, so that a wrong token or target stops the run before the load starts.
   */
  public Future<Void> preflight(List<Operation> operations) {
    long timeout = settings().timeout().toMillis();
    Future<Void> chain = Future.succeededFuture();
    for (Operation op : operations) {
      chain = chain.compose(v -> op.call().get()
          .timeout(timeout, TimeUnit.MILLISECONDS)
          .<Void>mapEmpty()
          .recover(e -> Future.failedFuture(new IllegalStateException(
              "pre-flight request " + op.name() + " (" + op.description() + ") failed: "
                  + (e instanceof TimeoutException ? "no response within " + timeout + " ms" : e.getMessage()), e))));
    }
    return chain;
  }

  /** Closes every client this context created. */
  public Future<Void> close() {
    List<Future<Void>> closing = new ArrayList<>();
    closers.forEach(c -> closing.add(c.get()));
    closers.clear();
    return Future.join(closing).mapEmpty();
  }

  /**
   * Completes on {@code context} with the outcome of {@code future}, which may complete on a thread of the
   * in-process Kith (replies to requests sent on its event bus do).
   */
  public static <T> Future<T> onContext(Context context, Future<T> future) {
    Promise<T> promise = Promise.promise();
    future.onComplete(ar -> {
      if (Vertx.currentContext() == context) {
        promise.handle(ar);
      } else {
        context.runOnContext(v -> promise.handle(ar));
      }
    });
    return promise.future();
  }
}
