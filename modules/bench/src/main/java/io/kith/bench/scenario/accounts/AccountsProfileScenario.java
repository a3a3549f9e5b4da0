package io.kith.bench.scenario.accounts;

import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.load.Operation;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.Replies;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Reading another user's profile against the platform's trivial authenticated route: two users are registered over
 * HTTP (a reader and a target), the target's profile is read once so that it sits in the profile cache, then
 * {@code GET /api/v1/users/{target}} and {@code GET /api/v1/whoami}, both with the reader's token, are interleaved at
 * the same rate. The ratios profile/whoami at p50 and p99 are the price of the accounts call (event bus, read limit,
 * cache hit, relations queries, privacy filtering of the public view) on top of an authenticated request. The run's
 * own token is not used.
 */
public final class AccountsProfileScenario extends DescribedScenario {

  /** Registrations this scenario makes on the target. */
  static final int REGISTRATIONS = 2;

  public AccountsProfileScenario() {
    // it registers its own users
    super("accounts-profile",
        "GET /api/v1/users/{id} of another user (cache hit) vs GET /api/v1/whoami, same token, same rate",
        Users.OWN);
  }

  @Override
  public JsonObject inProcessConfig() {
    return BenchAccounts.unthrottled();
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    BenchHttpClient http = context.http();
    BenchAccounts accounts = new BenchAccounts(http, BenchAccounts.newTag());
    return accounts.registerAll(List.of("reader", "target")).compose(users -> {
      BenchAccounts.User reader = users.get(0);
      BenchAccounts.User target = users.get(1);
      Operation whoami = Replies.whoamiOperation("whoami", "the reader's token", http, reader.accessToken(),
          reader.id());
      Operation profile = new Operation("profile", "GET " + BenchAccounts.USERS + "{target} with the reader's token",
          () -> accounts.profile(target.id(), reader.accessToken()));
      List<Operation> operations = List.of(whoami, profile);
      // The first read fills the cache; every measured read is a hit.
      return accounts.profile(target.id(), reader.accessToken())
          .recover(e -> Future.failedFuture(new IllegalStateException("warming the target's profile failed: "
              + e.getMessage(), e)))
          .compose(v -> context.preflight(operations))
          .compose(v -> context.runner().run(name(), operations));
    }).map(stats -> new ScenarioResult(stats,
        List.of(new RatioSpec("profile", "whoami", 50), new RatioSpec("profile", "whoami", 99)),
        List.of("both routes verify the reader's bearer token; profile/whoami is what reading another user's "
                + "profile adds: the accounts service call over the event bus, the per-user read limit and the "
                + "profile-cache hit in Redis, the block, friend and count queries to the relations service, and the "
                + "privacy-filtered public view",
            "the scenario registered " + REGISTRATIONS + " users (counted by accounts.register-max-per-address on "
                + "a remote target)")));
  }
}
