package io.kith.bench.scenario.cluster;

import io.kith.bench.load.LoadRunner;
import io.kith.bench.load.LoadSettings;
import io.kith.bench.load.Operation;
import io.kith.bench.report.Figure;
import io.kith.bench.report.OperationStats;
import io.kith.bench.report.RatioSpec;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.ScenarioOption;
import io.kith.platform.store.EmbeddedMongo;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code scale-out}: the same mixed load ({@link MixedOperations}) on one Kith node and on a cluster of
 * {@code --nodes} node processes on loopback, each configuration on its own redis-server and both on one
 * MongoDB-wire server in the bench's JVM. Both configurations stay up; after a warm-up of each, the load runs in
 * closed loop ({@code --connections} in flight), in alternating slices of {@code --slice} seconds (order reversed
 * every round) until each configuration had {@code --duration}, so that a machine whose speed drifts weighs on both
 * alike. Reported: each configuration's operations and mix, the throughput and p99 ratios against the goals, and what
 * each configuration's processes spent per request (node CPU by thread group, Redis, the bench) and how many
 * event-bus messages crossed nodes.
 */
public final class ScaleOutScenario extends DescribedScenario {

  private static final Logger LOG = LoggerFactory.getLogger(ScaleOutScenario.class);
  /** Follows each user starts with: posts fan out to five timelines, follows notify. */
  private static final int SEEDED_FOLLOWS = 5;
  /** Users only the logins act as. */
  private static final int LOGIN_USERS = 10;

  /** The two configurations, once started. */
  private static final class Run {
    /** Blocking work (starting and stopping processes, sampling them): a process start may take minutes. */
    WorkerExecutor worker;
    Path dir;
    EmbeddedMongo mongo;
    Deployment one;
    Deployment many;
    final List<List<OperationStats>> oneSlices = new ArrayList<>();
    final List<List<OperationStats>> manySlices = new ArrayList<>();
    NodeSample oneUsed;
    NodeSample manyUsed;
    /** Each configuration's last sample after a slice, and what it used idle between its slices. */
    NodeSample oneLast;
    NodeSample manyLast;
    NodeSample oneIdle;
    NodeSample manyIdle;
    String loadBefore;
  }

  public ScaleOutScenario() {
    super("scale-out", "a mixed load (login, follow, post, home, direct message, notifications) on 1 node and on a "
        + "cluster of node processes on loopback: throughput and p99 ratios, CPU per request, event-bus hops",
        Users.OWN);
  }

  @Override
  public boolean startsItsOwnKith() {
    return true;
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(
        ScenarioOption.count("nodes", "nodes of the cluster compared with one node", 3, 2, 8),
        ScenarioOption.count("users", "users the load acts as, in each configuration", 60, 10, 10_000),
        ScenarioOption.count("slice", "seconds of one measured slice", 5, 1, 600));
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    if (!context.settings().closedLoop()) {
      // an open-loop rate that suits one node would saturate or idle the other configuration: no common ground
      return Future.failedFuture(new IllegalStateException("scale-out compares maximum throughputs in closed loop: "
          + "pass --rate max (and --connections for the requests in flight)"));
    }
    Context ctx = Vertx.currentContext();
    Run run = new Run();
    run.loadBefore = loadAverage();
    int users = (int) context.option("users");
    run.worker = context.vertx().createSharedWorkerExecutor("kith-scale-out", 1, 30, TimeUnit.MINUTES);
    return ScenarioContext.onContext(ctx, run.worker.executeBlocking(() -> {
      run.dir = Files.createTempDirectory("kith-scale-out-");
      run.mongo = EmbeddedMongo.startH2(run.dir.resolve("mongo"), 0);
      return null;
    }, false))
        .compose(v -> start(context, ctx, run, "1n", 1))
        .compose(d -> (run.one = d).setUp(users, LOGIN_USERS, SEEDED_FOLLOWS))
        .compose(v -> start(context, ctx, run, (int) context.option("nodes") + "n", (int) context.option("nodes")))
        .compose(d -> (run.many = d).setUp(users, LOGIN_USERS, SEEDED_FOLLOWS))
        .compose(v -> measure(context, ctx, run))
        .map(v -> result(context, run))
        .eventually(() -> stop(context, ctx, run));
  }

  private static Future<Deployment> start(ScenarioContext context, Context ctx, Run run, String dir, int size) {
    LOG.info("starting {} node(s) under {}", size, run.dir.resolve(dir));
    return Deployment.start(context, ctx, run.worker, run.dir.resolve(dir), size, run.mongo.url());
  }

  /**
   * A warm-up of each configuration (the JIT, pools, caches), then rounds of one measured slice per configuration,
   * the order reversed every other round, each slice bracketed by samples of what its processes used.
   */
  private Future<Void> measure(ScenarioContext context, Context ctx, Run run) {
    LoadSettings s = context.settings();
    Duration slice = Duration.ofSeconds((long) context.option("slice"));
    int rounds = (int) Math.max(2, Math.ceil((double) s.duration().toMillis() / slice.toMillis()));
    LoadRunner warm = context.runner().with(new LoadSettings(s.rate(), true, s.warmup(), Duration.ofSeconds(1),
        s.connections(), s.timeout(), s.maxInFlight()));
    LoadRunner runner = context.runner().with(new LoadSettings(s.rate(), true, Duration.ZERO, slice,
        s.connections(), s.timeout(), s.maxInFlight()));
    List<Operation> oneOps = new MixedOperations(run.one).operations();
    List<Operation> manyOps = new MixedOperations(run.many).operations();
    Future<Void> chain = warm.run(name() + " warm-up 1n", oneOps)
        .compose(x -> warm.run(name() + " warm-up " + run.many.name(), manyOps)).mapEmpty();
    for (int r = 0; r < rounds; r++) {
      int round = r;
      boolean oneFirst = r % 2 == 0;
      chain = chain.compose(v -> slice(context, ctx, runner, oneFirst ? run.one : run.many, round, rounds, run))
          .compose(v -> slice(context, ctx, runner, oneFirst ? run.many : run.one, round, rounds, run));
    }
    return chain;
  }

  private Future<Void> slice(ScenarioContext context, Context ctx, LoadRunner runner, Deployment d, int round,
                             int rounds, Run run) {
    boolean one = d == run.one;
    List<Operation> ops = new MixedOperations(d).operations();
    LOG.info("round {}/{}: {}", round + 1, rounds, d);
    return d.sample(ctx, run.worker).compose(before -> {
      // since its previous slice the configuration sat idle while the other one was measured
      NodeSample last = one ? run.oneLast : run.manyLast;
      if (last != null) {
        NodeSample idle = before.minus(last);
        if (one) {
          run.oneIdle = run.oneIdle == null ? idle : run.oneIdle.plus(idle);
        } else {
          run.manyIdle = run.manyIdle == null ? idle : run.manyIdle.plus(idle);
        }
      }
      return runner.run(name() + " " + d.name(), ops).compose(stats -> d.sample(ctx, run.worker).map(after -> {
        NodeSample used = after.minus(before);
        if (one) {
          run.oneSlices.add(stats);
          run.oneUsed = run.oneUsed == null ? used : run.oneUsed.plus(used);
          run.oneLast = after;
        } else {
          run.manySlices.add(stats);
          run.manyUsed = run.manyUsed == null ? used : run.manyUsed.plus(used);
          run.manyLast = after;
        }
        return null;
      }));
    });
  }

  private ScenarioResult result(ScenarioContext context, Run run) {
    List<OperationStats> operations = new ArrayList<>();
    OperationStats oneMix = mix(run.one, run.oneSlices, operations);
    OperationStats manyMix = mix(run.many, run.manySlices, operations);
    int size = run.many.size();
    List<Figure> figures = new ArrayList<>();
    double ratio = manyMix.throughput() / oneMix.throughput();
    figures.add(Figure.of("throughput " + run.many.name() + "/1n", ratio, "x", "the cluster's mix requests per "
        + "second over one node's, same load and concurrency").withGoal(Figure.Goal.atLeast(
        ScaleFigures.throughputGoal(size))));
    figures.add(Figure.of("scaling per added node", ScaleFigures.efficiencyPerAddedNode(ratio, size), "",
        "(throughput ratio - 1) / (nodes - 1): the share of a node's throughput each added node brought")
        .withGoal(Figure.Goal.atLeast(ScaleFigures.EFFICIENCY_GOAL)));
    List<Double> rounds = ScaleFigures.perRoundRatios(mixes(run.oneSlices), mixes(run.manySlices));
    figures.add(Figure.of("throughput per round, lowest", rounds.get(0), "x", "the lowest of the rounds' ratios "
        + "(one cluster slice over the one-node slice next to it)"));
    figures.add(Figure.of("throughput per round, highest", rounds.get(rounds.size() - 1), "x", "the highest"));
    figures.add(Figure.of("p99 " + run.many.name() + "/1n", manyMix.percentileMillis(99) / oneMix
        .percentileMillis(99), "x", "the cluster's mix p99 over one node's").withGoal(Figure.Goal.atMost(
        ScaleFigures.P99_GOAL)));
    double oneCpu = ScaleFigures.millisPerOp(run.oneUsed.nodeNanos(), oneMix.ok());
    double manyCpu = ScaleFigures.millisPerOp(run.manyUsed.nodeNanos(), manyMix.ok());
    figures.add(Figure.of("node CPU/op " + run.many.name() + "/1n", manyCpu / oneCpu, "x", "node CPU per request "
        + "in the cluster over one node's: what clustering costs in CPU, whatever the cores"));
    figures.addAll(ScaleFigures.costs("1n", 1, run.oneUsed, oneMix.ok()));
    figures.addAll(ScaleFigures.costs(run.many.name(), size, run.manyUsed, manyMix.ok()));
    figures.add(ScaleFigures.idle("1n", run.oneIdle));
    figures.add(ScaleFigures.idle(run.many.name(), run.manyIdle));
    List<String> notes = new ArrayList<>(List.of(
        String.format(Locale.ROOT, "closed loop, %d in flight, %d slices of %d s per configuration, alternating; "
            + "%d users per configuration", context.settings().connections(), run.oneSlices.size(),
            (long) context.option("slice"), (int) context.option("users")),
        "nodes: java " + String.join(" ", Deployment.JVM) + ", every module on every node, cluster on (one node is "
            + "a cluster of one); each configuration on its own redis-server, both on one MongoDB-wire server in "
            + "the bench's JVM",
        "load average before: " + run.loadBefore + "; after: " + loadAverage(),
        "node logs, Redis and MongoDB files are kept under " + run.dir + " (delete it when done)",
        "on one machine the nodes share its cores: the throughput ratio is what " + size + " JVMs get out of "
            + Runtime.getRuntime().availableProcessors() + " cores, not what " + size + " machines would; node "
            + "CPU per request is the figure that carries over"));
    return new ScenarioResult(operations, List.of(new RatioSpec(manyMix.name(), oneMix.name(), 50),
        new RatioSpec(manyMix.name(), oneMix.name(), 99)), notes, figures);
  }

  /** Adds each operation of {@code d} (all slices) to {@code out}, then the mix; returns the mix. */
  private static OperationStats mix(Deployment d, List<List<OperationStats>> slices, List<OperationStats> out) {
    for (int op = 0; op < slices.get(0).size(); op++) {
      int index = op;
      List<OperationStats> each = slices.stream().map(s -> s.get(index)).toList();
      out.add(OperationStats.sequential(each.get(0).name(), each.get(0).description(), each));
    }
    OperationStats mix = OperationStats.sequential(d.name() + "/mix", "the six operations together, " + d,
        mixes(slices));
    out.add(mix);
    return mix;
  }

  /** Each slice's operations as one mix. */
  private static List<OperationStats> mixes(List<List<OperationStats>> slices) {
    return slices.stream().map(s -> OperationStats.concurrent("mix", "mix", s)).toList();
  }

  private static Future<Void> stop(ScenarioContext context, Context ctx, Run run) {
    List<Deployment> deployments = new ArrayList<>();
    if (run.one != null) {
      deployments.add(run.one);
    }
    if (run.many != null) {
      deployments.add(run.many);
    }
    Future<Void> closing = Future.join(deployments.stream().map(Deployment::closeClients).toList()).mapEmpty();
    return closing.eventually(() -> ScenarioContext.onContext(ctx, run.worker.executeBlocking(() -> {
      deployments.forEach(Deployment::stop);
      if (run.mongo != null) {
        run.mongo.close();
      }
      return null;
    }, false))).eventually(() -> run.worker.close()).mapEmpty();
  }

  /** The 1, 5 and 15 minute load averages (/proc/loadavg), or "unknown". */
  static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).split(" ");
      return fields[0] + " " + fields[1] + " " + fields[2];
    } catch (IOException | RuntimeException e) {
      return "unknown";
    }
  }
}
