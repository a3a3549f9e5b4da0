package io.kith.bench.scenario.gateway;

import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.load.Operation;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.Replies;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.vertx.core.Future;

import java.util.List;

/**
 * The cost of authentication on the HTTP API: {@code GET /api/v1/whoami} with a bearer token against
 * {@code GET /api/v1/ping} without one, both trivial JSON routes, interleaved on one schedule at the same rate so that
 * both see the same machine, JIT state and background load. The ratios whoami/ping at p50 and p99 are what to track.
 */
public final class AuthOverheadScenario extends DescribedScenario {

  static final String PING = "/api/v1/ping";

  public AuthOverheadScenario() {
    super("auth-overhead",
        "GET /api/v1/whoami with a bearer token vs GET /api/v1/ping without auth, same rate, interleaved",
        Users.TOKEN);
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    BenchHttpClient http = context.http();
    Operation ping = new Operation("ping", "GET " + PING + ", no Authorization header",
        () -> http.getJson(PING, null).map(Replies::pong));
    Operation whoami = Replies.whoamiOperation("whoami", "Authorization: Bearer", http, context.token(),
        context.userId());
    List<Operation> operations = List.of(ping, whoami);
    return context.preflight(operations)
        .compose(v -> context.runner().run(name(), operations))
        .map(stats -> new ScenarioResult(stats,
            List.of(new RatioSpec("whoami", "ping", 50), new RatioSpec("whoami", "ping", 99)),
            List.of("whoami/ping is the cost of verifying the bearer token (signature, claims, session check) "
                + "relative to an unauthenticated route of the same size; 1.000x means no measurable overhead")));
  }
}
