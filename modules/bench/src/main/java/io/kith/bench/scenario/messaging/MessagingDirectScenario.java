package io.kith.bench.scenario.messaging;

import io.kith.bench.baseline.WebSocketEchoServer;
import io.kith.bench.client.BridgeClient;
import io.kith.bench.client.BridgeFrames;
import io.kith.bench.client.EchoClient;
import io.kith.bench.jvm.ProcessCpu;
import io.kith.bench.load.LoadRunner;
import io.kith.bench.load.LoadSettings;
import io.kith.bench.load.Operation;
import io.kith.bench.report.Figure;
import io.kith.bench.report.OperationStats;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.Replies;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.ScenarioOption;
import io.kith.bench.scenario.gateway.BridgeRoundtripScenario;
import io.kith.messaging.api.Messaging;
import io.kith.platform.bus.Addresses;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Direct messages over the SockJS bridge against a raw WebSocket echo of the same frame.
 *
 * <p>Set-up registers {@code --pairs} senders and as many recipients over HTTP, opens one SockJS WebSocket per user
 * (each frame carrying the user's bearer token, as the JavaScript client's default headers do), registers every
 * connection on its user's {@code kith.user.<id>}, and sends one message per pair (which creates the pair's
 * conversation, so that every measured send finds it). The operation {@code direct} sends
 * {@code {to, client_id, text}} to {@code kith.messaging.send} from the next sender in turn and completes when the
 * recipient's connection receives the {@code {kind: "message"}} push with that client id (see
 * {@link DirectMessages}).
 *
 * <p>The baseline {@code ws-echo} writes a frame of the same shape and size (the same JSON a send would be) to a
 * plain Vert.x WebSocket echo server started in the bench process ({@link WebSocketEchoServer}, one event loop per
 * core like the gateway) and completes when it comes back, parsed.
 *
 * <p>Beside them, {@code ws-whoami} asks {@code kith.bridge.whoami} on the senders' connections: the bridge's own
 * round trip (frame, token check, event bus, reply) without the messaging service, so that direct/ws-whoami is what
 * the service adds and ws-whoami/ws-echo what the bridge adds to a bare WebSocket.
 *
 * <p>Phases: latency (open loop at {@code --rate}, all three interleaved; skipped with {@code --rate max}); each alone in
 * closed loop with {@code --connections} in flight ({@code ws-echo-max}, {@code direct-max}), whose throughput ratio
 * is held to at least 0.5; then {@code direct} alone in open loop at half of {@code direct-max}'s throughput
 * ({@code direct-half-max}), whose p99 is held to at most 50 ms. In-process, each phase after one that sent messages
 * waits until Kith is idle again ({@link #settle}), so it does not run beside the event-log consumers' backlog.
 */
public final class MessagingDirectScenario extends DescribedScenario {

  static final String PAIRS = "pairs";
  static final String TEXT_LENGTH = "text-length";
  static final String DIRECT = "direct";
  static final String ECHO = "ws-echo";
  static final String WHOAMI = "ws-whoami";
  static final String DIRECT_MAX = "direct-max";
  static final String ECHO_MAX = "ws-echo-max";
  static final String DIRECT_HALF = "direct-half-max";
  /** The goal: messages per second at least this share of the echo's round trips per second. */
  static final double THROUGHPUT_GOAL = 0.5;
  /** The goal: p99 at half the maximum rate, in milliseconds. */
  static final double P99_GOAL_MILLIS = 50;
  /** Tries per pair to get the first message through (the bridge does not acknowledge registrations). */
  private static final int HANDSHAKE_ATTEMPTS = 3;
  private static final long HANDSHAKE_MILLIS = 5_000;
  private static final long SWEEP_MILLIS = 1_000;
  private static final int MAX_FRAME = 65_536;
  /** Below this many cores busy, the bench's processes count as idle (timers, polls and heartbeats only). */
  static final double IDLE_CORES = 0.15;
  private static final long SETTLE_STEP_MILLIS = 1_000;
  private static final int SETTLE_QUIET_STEPS = 2;
  private static final long SETTLE_MAX_MILLIS = 300_000;

  public MessagingDirectScenario() {
    // it registers its own users
    super("messaging-direct",
        "direct message over the SockJS bridge (kith.messaging.send until the recipient's push) vs a raw "
            + "WebSocket echo of the same frame: latency at --rate, max throughput of each, p99 at half the max",
        Users.OWN);
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(
        ScenarioOption.count(PAIRS, "sender/recipient pairs, each user on a bridge connection of its own "
            + "(registered over HTTP)", 16, 1, 1000),
        ScenarioOption.count(TEXT_LENGTH, "characters of text per message", 100, 1, Messaging.MAX_TEXT));
  }

  @Override
  public JsonObject inProcessConfig() {
    return BenchAccounts.unthrottled()
        .put("messaging", new JsonObject().put("sends-per-minute", 1_000_000));
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    int pairCount = (int) context.option(PAIRS);
    String text = DirectMessages.text((int) context.option(TEXT_LENGTH));
    BenchAccounts accounts = new BenchAccounts(context.http(), BenchAccounts.newTag());
    List<String> roles = BenchAccounts.roles(List.of(), "s", pairCount);
    roles.addAll(BenchAccounts.roles(List.of(), "r", pairCount));
    return accounts.registerAll(roles).compose(users -> {
      List<String> tokens = users.stream().map(BenchAccounts.User::accessToken).toList();
      return context.bridgePerUser(BridgeClient.Transport.WEBSOCKET, tokens)
          .compose(bridge -> WebSocketEchoServer.start(Runtime.getRuntime().availableProcessors(), MAX_FRAME)
              .compose(server -> {
                context.onClose(server::close);
                EchoClient echo = EchoClient.create(context.vertx(), "127.0.0.1", server.port(), pairCount,
                    ScenarioContext.CONNECT_TIMEOUT_MILLIS);
                context.onClose(echo::close);
                return echo.open();
              })
              .compose(echo -> measure(context, users, bridge, echo, text)));
    });
  }

  /**
   * Pairs the users, builds the operations and the sweeper of unanswered sends, runs them and reports. Why one long
   * method: it is the scenario's flow in order, each step a few lines over the same pairs and messages.
   */
  private Future<ScenarioResult> measure(ScenarioContext context, List<BenchAccounts.User> users, BridgeClient bridge,
                                         EchoClient echo, String text) {
    int pairCount = users.size() / 2;
    List<DirectMessages.Pair> pairs = new ArrayList<>();
    for (int i = 0; i < pairCount; i++) {
      pairs.add(new DirectMessages.Pair(i, users.get(i).id(), pairCount + i, users.get(pairCount + i).id()));
    }
    DirectMessages messages = new DirectMessages(
        (connection, body) -> bridge.request(connection, Messaging.BRIDGE_SEND, body), pairs, text, System::nanoTime);
    for (int i = 0; i < users.size(); i++) {
      long user = users.get(i).id();
      bridge.register(i, Addresses.user(user), push -> messages.onPush(user, push));
    }
    Vertx vertx = context.vertx();
    long maxAgeNanos = context.settings().timeout().toNanos() + TimeUnit.MILLISECONDS.toNanos(SWEEP_MILLIS);
    long sweeper = vertx.setPeriodic(SWEEP_MILLIS, id -> messages.sweep(maxAgeNanos));
    context.onClose(() -> {
      vertx.cancelTimer(sweeper);
      return Future.succeededFuture();
    });

    Operation direct = new Operation(DIRECT, "send {to, client_id, text} to " + Messaging.BRIDGE_SEND
        + " on the sender's SockJS WebSocket, until the recipient's connection receives the message push",
        messages::send);
    long[] echoed = {0};
    Operation echoOp = echoOperation(echo, users.get(0).accessToken(), pairs.get(0).recipient(), messages, echoed);
    Operation whoami = whoamiOperation(bridge, pairs);
    List<Figure> figures = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    List<OperationStats> table = new ArrayList<>();
    CpuWindow[] cpu = new CpuWindow[2];
    LoadSettings s = context.settings();
    LoadRunner runner = context.runner();
    LoadSettings closed = new LoadSettings(s.rate(), true, s.warmup(), s.duration(), s.connections(), s.timeout(),
        s.maxInFlight());

    return Future.all(pairs.stream().map(p -> handshake(vertx, messages, p, HANDSHAKE_ATTEMPTS)).toList())
        .compose(v -> context.preflight(List.of(direct, whoami, echoOp)))
        .compose(v -> s.closedLoop() ? Future.succeededFuture(List.<OperationStats>of())
            : runner.run(name(), List.of(direct, whoami, echoOp)))
        .compose(latency -> {
          table.addAll(latency);
          return settle(context, "the latency phase", notes).map(waited -> latency);
        })
        .compose(latency -> {
          cpu[0] = CpuWindow.around(vertx, closed, () -> echoed[0]);
          return runner.with(closed).run(name() + " " + ECHO_MAX, List.of(renamed(echoOp, ECHO_MAX,
              "the ws-echo round trip alone in closed loop, " + s.connections() + " in flight")));
        })
        .compose(echoMax -> {
          table.addAll(echoMax);
          cpu[1] = CpuWindow.around(vertx, closed, messages::delivered);
          return runner.with(closed).run(name() + " " + DIRECT_MAX, List.of(renamed(direct, DIRECT_MAX,
              "the direct message alone in closed loop, " + s.connections() + " in flight")));
        })
        .compose(directMax -> {
          table.addAll(directMax);
          return settle(context, DIRECT_MAX, notes).map(waited -> {
            figures.add(Figure.of("idle again after direct-max", waited / 1000.0, "s", "time until the in-process "
                + "Kith's CPU use fell back to idle after direct-max: background work the messages left behind "
                + "(event-log consumers catching up); n/a against a --target"));
            return directMax;
          });
        })
        .compose(directMax -> {
          double half = directMax.get(0).throughput() / 2;
          if (!(half > 0)) {
            notes.add(DIRECT_HALF + " not run: " + DIRECT_MAX + " delivered nothing");
            return Future.succeededFuture(List.<OperationStats>of());
          }
          LoadSettings atHalf = new LoadSettings(half, false, s.warmup(), s.duration(), s.connections(),
              s.timeout(), s.maxInFlight());
          return runner.with(atHalf).run(name() + " " + DIRECT_HALF, List.of(renamed(direct, DIRECT_HALF,
              String.format(Locale.ROOT, "the direct message alone in open loop at half of %s's throughput",
                  DIRECT_MAX))));
        })
        .map(halfMax -> {
          table.addAll(halfMax);
          figures.addAll(figures(table, s.connections(), notes));
          figures.addAll(cpuFigures(cpu[0].cost(), cpu[1].cost(), Runtime.getRuntime().availableProcessors(), notes));
          notes.addAll(notes(messages, pairCount, text.length(), context));
          List<RatioSpec> ratios = new ArrayList<>();
          if (!s.closedLoop()) {
            for (double p : new double[] {50, 99, 99.9}) {
              ratios.add(new RatioSpec(DIRECT, ECHO, p));
            }
            ratios.add(new RatioSpec(DIRECT, WHOAMI, 50));
            ratios.add(new RatioSpec(DIRECT, WHOAMI, 99));
            ratios.add(new RatioSpec(WHOAMI, ECHO, 50));
          }
          return new ScenarioResult(table, ratios, notes, figures);
        });
  }

  /**
   * The echo baseline: the frame a send would be (same address, reply address shape, bearer header, body with
   * {@code to}, a fresh client id and the same text), checked to come back with its client id.
   */
  private static Operation echoOperation(EchoClient echo, String token, long to, DirectMessages messages,
                                         long[] echoed) {
    String replyPrefix = Long.toString(new SecureRandom().nextLong() >>> 16, 36) + ".";
    long[] sequence = {0};
    return new Operation(ECHO, "the same frame (send to " + Messaging.BRIDGE_SEND + ", bearer header, same body "
        + "size) to a raw Vert.x WebSocket echo server, until it comes back", () -> {
          String clientId = messages.nextClientId();
          JsonObject frame = BridgeFrames.send(Messaging.BRIDGE_SEND, replyPrefix + Long.toString(sequence[0]++, 36),
              token, messages.body(to, clientId));
          return echo.request(frame).map(back -> {
            JsonObject body = back.getJsonObject("body");
            if (body == null || !clientId.equals(body.getString("client_id"))) {
              throw new IllegalStateException("the echo is not frame " + clientId);
            }
            echoed[0]++;
            return back;
          });
        });
  }

  /**
   * The bridge alone: a request/reply to {@code kith.bridge.whoami} on the senders' connections in turn, the same
   * path in and out of the gateway (frame, token check, event bus) without the messaging service.
   */
  private static Operation whoamiOperation(BridgeClient bridge, List<DirectMessages.Pair> pairs) {
    int[] next = {0};
    return new Operation(WHOAMI, "send to " + BridgeRoundtripScenario.WHOAMI_ADDRESS + " on a sender's SockJS "
        + "WebSocket, reply awaited (the bridge without the messaging service)", () -> {
          DirectMessages.Pair pair = pairs.get(next[0]);
          next[0] = (next[0] + 1) % pairs.size();
          return bridge.request(pair.senderConnection(), BridgeRoundtripScenario.WHOAMI_ADDRESS, new JsonObject())
              .map(body -> Replies.whoami(body, pair.sender()));
        });
  }

  /**
   * Sends one message of {@code pair} and waits for its push, a few times if need be: the bridge does not
   * acknowledge registrations, so the first send may overtake the recipient's. It also makes the conversation.
   */
  private static Future<Void> handshake(Vertx vertx, DirectMessages messages, DirectMessages.Pair pair, int attempts) {
    return messages.send(pair).timeout(HANDSHAKE_MILLIS, TimeUnit.MILLISECONDS).<Void>mapEmpty().recover(e -> {
      if (attempts > 1) {
        Promise<Void> pause = Promise.promise();
        vertx.setTimer(500, id -> pause.complete());
        return pause.future().compose(v -> handshake(vertx, messages, pair, attempts - 1));
      }
      return Future.failedFuture(new IllegalStateException("no message from user " + pair.sender() + " reached user "
          + pair.recipient() + " over the bridge in " + HANDSHAKE_ATTEMPTS + " tries (the send, or the recipient's "
          + "registration on " + Addresses.user(pair.recipient()) + ", failed): " + e.getMessage(), e));
    });
  }

  /**
   * In-process, waits until the bench's processes (Kith, its stores, the clients) are idle again, so that the next
   * phase does not share the CPU with work the previous one left behind: the consumers of the event log handle every
   * {@code MessageSent} after the send has been answered, and fall behind in a closed-loop phase. Completes with the
   * milliseconds waited, or NaN when nothing can be watched (a remote target); gives up after
   * {@value #SETTLE_MAX_MILLIS} ms with a note.
   */
  private static Future<Double> settle(ScenarioContext context, String after, List<String> notes) {
    if (context.kithVertx() == null) {
      return Future.succeededFuture(Double.NaN);
    }
    Vertx vertx = context.vertx();
    Promise<Double> promise = Promise.promise();
    long start = System.nanoTime();
    ProcessCpu[] last = {ProcessCpu.now()};
    int[] quiet = {0};
    vertx.setPeriodic(SETTLE_STEP_MILLIS, id -> {
      ProcessCpu now = ProcessCpu.now();
      double cores = (double) now.cpuSince(last[0]) / Math.max(1, now.wallNanos() - last[0].wallNanos());
      last[0] = now;
      quiet[0] = cores < IDLE_CORES ? quiet[0] + 1 : 0;
      double waited = (now.wallNanos() - start) / 1e6;
      if (quiet[0] >= SETTLE_QUIET_STEPS) {
        vertx.cancelTimer(id);
        promise.complete(waited);
      } else if (waited > SETTLE_MAX_MILLIS) {
        vertx.cancelTimer(id);
        notes.add(String.format(Locale.ROOT, "the in-process Kith was still busy %d s after %s (%.2f cores); the "
            + "next phase ran beside that work", SETTLE_MAX_MILLIS / 1000, after, cores));
        promise.complete(Double.NaN);
      }
    });
    return promise.future();
  }

  /** CPU used and operations completed over the measured window of a phase; {@code NaN} values when unknown. */
  record CpuCost(double millisPerOperation, double machineShare) {
  }

  /**
   * Samples {@link ProcessCpu} and a count of completed operations when the measured window of a phase that starts
   * now begins and ends (timers on the runner's context, set just before the phase is started).
   */
  private static final class CpuWindow {
    private final LongSupplier completed;
    private ProcessCpu start;
    private ProcessCpu end;
    private long startCount;
    private long endCount;

    private CpuWindow(LongSupplier completed) {
      this.completed = completed;
    }

    static CpuWindow around(Vertx vertx, LoadSettings settings, LongSupplier completed) {
      CpuWindow w = new CpuWindow(completed);
      long warmup = settings.warmup().toMillis();
      vertx.setTimer(Math.max(1, warmup), id -> {
        w.start = ProcessCpu.now();
        w.startCount = completed.getAsLong();
      });
      vertx.setTimer(Math.max(2, warmup + settings.duration().toMillis()), id -> {
        w.end = ProcessCpu.now();
        w.endCount = w.completed.getAsLong();
      });
      return w;
    }

    CpuCost cost() {
      if (start == null || end == null) {
        return new CpuCost(Double.NaN, Double.NaN);
      }
      return new CpuCost(end.millisPerOperation(start, endCount - startCount),
          end.machineShare(start, Runtime.getRuntime().availableProcessors()));
    }
  }

  /**
   * What each operation costs in CPU (the bench's JVM, which holds Kith, the embedded MongoDB-wire server, the echo
   * server and the clients, plus the embedded Redis process), and the throughput ratio those costs imply when both
   * are limited by CPU alone: a reading that moves much less than throughput with what else the machine runs.
   */
  static List<Figure> cpuFigures(CpuCost echo, CpuCost direct, int cpus, List<String> notes) {
    List<Figure> figures = new ArrayList<>();
    figures.add(Figure.of("CPU per ws-echo round trip", echo.millisPerOperation(), "ms", "CPU time of the bench JVM "
        + "and its child processes over ws-echo-max's measured window, per echo"));
    figures.add(Figure.of("CPU per direct message", direct.millisPerOperation(), "ms", "CPU time of the bench JVM "
        + "(Kith, embedded MongoDB-wire server, clients) and the embedded Redis over direct-max's measured window, "
        + "per delivered message"));
    double cpuRatio = echo.millisPerOperation() / direct.millisPerOperation();
    figures.add(Figure.of("direct/ws-echo by CPU cost", cpuRatio, "x", "CPU per echo / CPU per direct message: the "
        + "max throughput ratio if both were limited by CPU alone"));
    figures.add(Figure.of("direct max if CPU-bound", cpus / (direct.millisPerOperation() / 1000), "msg/s", "cores / "
        + "CPU per direct message: messages per second with every core on this work"));
    figures.add(Figure.of("machine share, ws-echo-max", echo.machineShare(), "x", "CPU used over wall time and "
        + "cores during ws-echo-max (1.0: every core)"));
    figures.add(Figure.of("machine share, direct-max", direct.machineShare(), "x", "CPU used over wall time and "
        + "cores during direct-max (1.0: every core)"));
    if (direct.machineShare() < 0.8) {
      notes.add(String.format(Locale.ROOT, "during direct-max these processes used %.0f %% of the machine's %d cores: "
          + "either something else had the CPU, or the messages waited on something other than CPU (a store round "
          + "trip, the per-conversation order)", 100 * direct.machineShare(), cpus));
    }
    return figures;
  }

  private static Operation renamed(Operation op, String name, String description) {
    return new Operation(name, description, op.call());
  }

  /**
   * The latency at {@code percentile} counting every failed, timed-out or dropped request as slower than any
   * answer (they are not in the histogram): NaN when the failures alone reach past that percentile.
   */
  static double percentileCountingFailures(OperationStats op, double percentile) {
    long total = op.ok() + op.failed();
    if (op.ok() == 0) {
      return Double.NaN;
    }
    double withinOk = percentile * total / op.ok();
    return withinOk > 100 ? Double.NaN : op.percentileMillis(withinOk);
  }

  private static OperationStats find(List<OperationStats> table, String name) {
    return table.stream().filter(op -> op.name().equals(name)).findFirst().orElse(null);
  }

  static List<Figure> figures(List<OperationStats> table, int inFlight, List<String> notes) {
    List<Figure> figures = new ArrayList<>();
    OperationStats echoMax = find(table, ECHO_MAX);
    OperationStats directMax = find(table, DIRECT_MAX);
    double echo = echoMax.throughput();
    double direct = directMax.throughput();
    double ratio = echo > 0 ? direct / echo : Double.NaN;
    figures.add(Figure.of("ws-echo max", echo, "msg/s", "echo round trips per second, alone in closed loop, "
        + inFlight + " in flight"));
    figures.add(Figure.of("direct max", direct, "msg/s", "direct messages delivered per second, alone in closed "
        + "loop, " + inFlight + " in flight"));
    figures.add(Figure.of("direct/ws-echo max throughput", ratio, "x", "direct max / ws-echo max")
        .withGoal(Figure.Goal.atLeast(THROUGHPUT_GOAL)));
    notes.add(String.format(Locale.ROOT, "throughput: direct max / ws-echo max = %s / %s msg/s = %s (goal >= %s: %s)",
        Figure.format(direct), Figure.format(echo), Figure.format(ratio), Figure.format(THROUGHPUT_GOAL),
        Double.isNaN(ratio) ? "not measured" : ratio >= THROUGHPUT_GOAL ? "met" : "MISSED"));
    for (OperationStats max : List.of(echoMax, directMax)) {
      if (max.failed() > 0) {
        notes.add(max.name() + " had " + max.failed() + " failed requests: its throughput counts only the "
            + "correct answers");
      }
    }
    OperationStats half = find(table, DIRECT_HALF);
    if (half != null) {
      double p99 = percentileCountingFailures(half, 99);
      figures.add(Figure.of("half-max rate", half.offeredRate(), "msg/s", "direct max / 2, offered in open loop"));
      figures.add(Figure.of("direct p50 at half max", percentileCountingFailures(half, 50), "ms",
          "direct-half-max p50, failures counted as slowest"));
      figures.add(Figure.of("direct p99 at half max", p99, "ms", "direct-half-max p99, failures counted as slowest")
          .withGoal(Figure.Goal.atMost(P99_GOAL_MILLIS)));
      figures.add(Figure.of("direct p99.9 at half max", percentileCountingFailures(half, 99.9), "ms",
          "direct-half-max p99.9, failures counted as slowest"));
      notes.add(String.format(Locale.ROOT, "latency: direct p99 at half max (%s msg/s offered, %s delivered) = %s ms "
              + "(goal <= %s ms: %s)", Figure.format(half.offeredRate()), Figure.format(half.throughput()),
          Figure.format(p99), Figure.format(P99_GOAL_MILLIS),
          Double.isNaN(p99) ? "MISSED, more than 1 % of the requests failed" : p99 <= P99_GOAL_MILLIS ? "met"
              : "MISSED"));
      if (half.failed() > 0) {
        notes.add(DIRECT_HALF + " had " + half.failed() + " failed requests, counted as slower than every answer "
            + "in the half-max figures");
      }
    }
    return figures;
  }

  private static List<String> notes(DirectMessages messages, int pairs, int textLength, ScenarioContext context) {
    List<String> notes = new ArrayList<>();
    notes.add(pairs + " pairs: " + pairs + " senders and " + pairs + " recipients, registered over HTTP, each on a "
        + "SockJS WebSocket of its own registered on its kith.user.<id>; every frame carries the user's bearer token; "
        + "text of " + textLength + " characters; the senders take turns");
    notes.add("a direct latency runs from the intended send to the recipient's push (the send's reply is checked, "
        + "not awaited); every message is pushed to the sender's own connection too: " + messages.senderCopies()
        + " such copies received, " + messages.delivered() + " deliveries matched in the whole run");
    if (messages.lost() > 0 || messages.late() > 0 || messages.failedAfterDelivery() > 0) {
      notes.add(messages.lost() + " sends never saw their push (timeouts above), " + messages.late() + " pushes came "
          + "after their send was given up, " + messages.failedAfterDelivery() + " replies failed after the push");
    }
    notes.add("ws-echo: a plain Vert.x WebSocket echo server in the bench process on loopback ("
        + Runtime.getRuntime().availableProcessors() + " event loops) answering on " + pairs + " connections; it "
        + "bounces the frame and nothing else, so it is the floor of a WebSocket round trip on this machine"
        + (context.kithVertx() == null ? " (the bench machine, not the target's)" : ""));
    notes.add("sends of one conversation run one after the other in the messaging service: with --" + PAIRS + " "
        + pairs + " and " + context.settings().connections() + " in flight, each conversation has about "
        + Math.max(1, context.settings().connections() / pairs) + " sends queued in closed loop");
    return notes;
  }
}
