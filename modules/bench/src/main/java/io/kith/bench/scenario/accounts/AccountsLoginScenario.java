package io.kith.bench.scenario.accounts;

import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.load.Operation;
import io.kith.bench.report.OperationStats;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.ScenarioOption;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Login throughput with Argon2id while profile reads continue, and what the logins do to those reads.
 *
 * <p>Set-up registers a reader, a target whose profile is read (it never logs in, so its cache entry stays warm) and
 * {@code --users} users who log in. Phase A runs the profile reads alone at {@code --rate}; phase B runs the same
 * reads at the same rate plus logins at {@code --login-rate}, each one an Argon2id verification (19 MiB, t=2) on the
 * accounts hashing pool. The report gives the login throughput and latencies, and the profile-read percentiles of
 * both phases with the ratios B/A at p50 and p99: if hashing starved the event loops, the B/A p99 would show it.
 */
public final class AccountsLoginScenario extends DescribedScenario {

  static final String LOGIN_RATE = "login-rate";
  static final String USERS = "users";
  /** Users besides the ones who log in: the reader and the target. */
  static final int EXTRA_USERS = 2;

  static final String PROFILE_ALONE = "profile-alone";
  static final String PROFILE_WITH_LOGINS = "profile+login";
  static final String LOGIN = "login";

  /**
   * Default logins per second: each costs about 0.1 s of CPU (Argon2id plus the login path), so 5/s takes about half a
   * core and a 2-core machine running Kith in-process keeps up with it beside 100 profile reads/s without queueing;
   * at 10/s it saturates the CPU (see the bench README).
   */
  static final double DEFAULT_LOGIN_RATE = 5;
  static final int DEFAULT_USERS = 20;

  private static final double SUSTAINED_SHARE = 0.9;

  public AccountsLoginScenario() {
    // it registers its own users
    super("accounts-login",
        "profile reads at --rate alone, then beside logins (Argon2id) at --login-rate; login throughput and "
            + "profile p50/p99 with/without",
        Users.OWN);
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(
        ScenarioOption.number(LOGIN_RATE, "logins per second in phase B, beside the profile reads", DEFAULT_LOGIN_RATE,
            0.1, 10_000),
        ScenarioOption.count(USERS, "users registered to log in, in turn (plus a reader and a target)", DEFAULT_USERS,
            1, 10_000));
  }

  @Override
  public JsonObject inProcessConfig() {
    return BenchAccounts.unthrottled();
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    if (context.settings().closedLoop()) {
      return Future.failedFuture(new IllegalStateException(name() + " offers fixed rates; run it with --rate N, "
          + "not --rate max"));
    }
    double loginRate = context.option(LOGIN_RATE);
    int userCount = (int) context.option(USERS);
    BenchHttpClient http = context.http();
    BenchAccounts accounts = new BenchAccounts(http, BenchAccounts.newTag());
    List<String> roles = BenchAccounts.roles(List.of("reader", "target"), "login", userCount);
    return accounts.registerAll(roles).compose(users -> {
      BenchAccounts.User reader = users.get(0);
      BenchAccounts.User target = users.get(1);
      List<BenchAccounts.User> loggingIn = users.subList(EXTRA_USERS, users.size());
      AtomicLong turn = new AtomicLong();
      Operation login = new Operation(LOGIN, "POST " + BenchAccounts.LOGIN + " with username and password, the "
          + loggingIn.size() + " users in turn",
          () -> accounts.login(loggingIn.get((int) (turn.getAndIncrement() % loggingIn.size()))))
          .atRate(loginRate);
      Operation alone = profileRead(PROFILE_ALONE, "phase A, alone", accounts, reader, target);
      Operation withLogins = profileRead(PROFILE_WITH_LOGINS, "phase B, beside the logins", accounts, reader, target);
      List<Operation> phaseA = List.of(alone);
      List<Operation> phaseB = List.of(withLogins, login);
      List<OperationStats> stats = new ArrayList<>();
      // The pre-flight reads the target's profile first, which puts it in the cache for both phases.
      return context.preflight(List.of(alone, login))
          .compose(v -> context.runner().run(name() + " A (reads)", phaseA))
          .compose(a -> {
            stats.addAll(a);
            return context.runner().run(name() + " B (reads+logins)", phaseB);
          })
          .map(b -> {
            stats.addAll(b);
            return new ScenarioResult(stats, ratios(), notes(stats, loginRate, userCount));
          });
    });
  }

  private static Operation profileRead(String name, String phase, BenchAccounts accounts, BenchAccounts.User reader,
                                       BenchAccounts.User target) {
    return new Operation(name, "GET " + BenchAccounts.USERS + "{target} with the reader's token, " + phase,
        () -> accounts.profile(target.id(), reader.accessToken()));
  }

  static List<RatioSpec> ratios() {
    return List.of(new RatioSpec(PROFILE_WITH_LOGINS, PROFILE_ALONE, 50),
        new RatioSpec(PROFILE_WITH_LOGINS, PROFILE_ALONE, 99));
  }

  /** What the reader needs to read the figures, including whether the logins kept up with their rate. */
  static List<String> notes(List<OperationStats> stats, double loginRate, int users) {
    List<String> notes = new ArrayList<>();
    notes.add("phase A (" + PROFILE_ALONE + ") runs first, phase B (" + PROFILE_WITH_LOGINS + ", " + LOGIN
        + ") after it, each with its own warm-up; " + PROFILE_WITH_LOGINS + "/" + PROFILE_ALONE
        + " near 1.0 at p99 means the password hashing does not hold up the reads");
    stats.stream().filter(op -> op.name().equals(LOGIN)).findFirst().ifPresent(op -> {
      boolean kept = op.failed() == 0 && op.throughput() >= SUSTAINED_SHARE * loginRate;
      notes.add(String.format(Locale.ROOT, "logins: %.1f/s of %s/s offered, %d failed%s", op.throughput(),
          ScenarioOption.format(loginRate), op.failed(), kept ? ""
              : "; the target did not keep up with --login-rate (Argon2id capacity: accounts.argon2-threads, CPU "
                  + "cores), so phase B measures an overloaded server: lower --login-rate"));
    });
    notes.add("the scenario registered " + (users + EXTRA_USERS) + " users (counted by "
        + "accounts.register-max-per-address on a remote target); logins open sessions labelled "
        + BenchAccounts.DEVICE);
    return notes;
  }
}
