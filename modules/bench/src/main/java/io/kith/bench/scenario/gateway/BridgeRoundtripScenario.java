package io.kith.bench.scenario.gateway;

import io.kith.bench.client.BenchHttpClient;
import io.kith.bench.client.BridgeClient;
import io.kith.bench.load.Operation;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.Replies;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * A request/reply round trip over the event-bus bridge against the same question asked over HTTP: a {@code send} to
 * {@code kith.bridge.whoami} on the SockJS WebSocket (and on the TCP bridge when its port is known) versus
 * {@code GET /api/v1/whoami}, all authenticated, interleaved at the same rate.
 */
public final class BridgeRoundtripScenario extends DescribedScenario {

  /** The bridge address answering with the connection's user. */
  public static final String WHOAMI_ADDRESS = "kith.bridge.whoami";

  public BridgeRoundtripScenario() {
    super("bridge-roundtrip",
        "send to kith.bridge.whoami over the WebSocket (and TCP) bridge vs GET /api/v1/whoami, same rate",
        Users.TOKEN);
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    BenchHttpClient http = context.http();
    String token = context.token();
    long user = context.userId();
    boolean withTcp = context.target().tcpBridgePort() > 0;
    Future<BridgeClient> tcp = withTcp ? context.bridge(BridgeClient.Transport.TCP) : Future.succeededFuture();
    return context.bridge(BridgeClient.Transport.WEBSOCKET)
        .compose(ws -> tcp.map(tcpClient -> {
          List<Operation> ops = new ArrayList<>();
          ops.add(Replies.whoamiOperation("http-whoami", "Authorization: Bearer", http, token, user));
          ops.add(bridgeOperation("ws-whoami", "SockJS WebSocket", ws, user));
          if (tcpClient != null) {
            ops.add(bridgeOperation("tcp-whoami", "TCP bridge", tcpClient, user));
          }
          return ops;
        }))
        .compose(ops -> context.preflight(ops).compose(v -> context.runner().run(name(), ops)))
        .map(stats -> {
          List<RatioSpec> ratios = new ArrayList<>();
          List<String> notes = new ArrayList<>();
          for (String op : withTcp ? List.of("ws-whoami", "tcp-whoami") : List.of("ws-whoami")) {
            ratios.add(new RatioSpec(op, "http-whoami", 50));
            ratios.add(new RatioSpec(op, "http-whoami", 99));
          }
          notes.add("each bridge frame carries the bearer token, as the JavaScript client's default headers do; "
              + "a ratio below 1 means the bridge round trip is cheaper than an HTTP request");
          if (!withTcp) {
            notes.add("TCP bridge not measured: its port is unknown (pass --tcp-bridge-port with --target)");
          }
          return new ScenarioResult(stats, ratios, notes);
        });
  }

  private static Operation bridgeOperation(String name, String transport, BridgeClient client, long user) {
    return new Operation(name, "send to " + WHOAMI_ADDRESS + " over the " + transport + ", reply awaited",
        () -> client.request(WHOAMI_ADDRESS, new JsonObject()).map(body -> Replies.whoami(body, user)));
  }
}
