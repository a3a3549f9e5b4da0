package io.kith.bench.scenario.messaging;

import io.kith.bench.baseline.WebSocketEchoServer;
import io.kith.bench.jvm.ClassHistogram;
import io.kith.bench.jvm.Heap;
import io.kith.bench.jvm.IdleClientsProcess;
import io.kith.bench.jvm.OpenFileLimit;
import io.kith.bench.report.Figure;
import io.kith.bench.report.ScenarioResult;
import io.kith.bench.scenario.BenchAccounts;
import io.kith.bench.scenario.BenchStores;
import io.kith.bench.scenario.DescribedScenario;
import io.kith.bench.scenario.ScenarioContext;
import io.kith.bench.scenario.ScenarioOption;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Heap of the in-process Kith per idle SockJS bridge connection, against a raw WebSocket to an echo server.
 *
 * <p>The connections are held by a client JVM of their own ({@link IdleClientsProcess}), so the bench's JVM holds
 * only the server side of each: what is measured is the used heap of the Kith's JVM after full collections, before
 * and after {@code --idle} connections are open, divided by their number. Each bridge connection belongs to a user
 * of its own, with a live session opened directly in the in-process Kith's Redis (no account: thousands of password
 * hashings would take minutes, and the bridge checks only the token and its session), is authenticated by its
 * register frame, and is registered on its {@code kith.user.<id>}; every one has received a message there before the
 * heap is read, which proves it is bound and registered. The baseline is the same number of plain WebSockets from
 * the same client JVM to the bench's {@link WebSocketEchoServer} in the measured JVM, each having bounced one frame.
 * A small round of each kind is opened and closed first, so that one-time costs (classes, caches, pools) are not
 * spread over the connections. The client JVM's own heap growth is reported too: the bench client's cost, not Kith's.
 */
public final class BridgeIdleHeapScenario extends DescribedScenario {

  static final String IDLE = "idle";
  static final String CLASSES = "classes";
  /** Connections of the warm-up round of each kind. */
  static final int WARM_UP = 100;
  /** Sessions opened at once while minting tokens. */
  private static final int MINT_CHUNK = 200;
  private static final long COMMAND_MILLIS = 300_000;
  private static final long SETTLE_MILLIS = 2_000;
  private static final long PROBE_MILLIS = 60_000;
  /** Redis requests the in-process Kith lets wait for a connection (4,096 by default). */
  static final int REDIS_WAITING = 100_000;
  private static final double MIB = 1024.0 * 1024.0;

  private final BenchStores stores = BenchStores.signingTokens(name());

  public BridgeIdleHeapScenario() {
    // it opens its own sessions
    super("bridge-idle-heap",
        "heap of the in-process Kith per idle SockJS bridge connection (authenticated, registered on its user "
            + "address) vs per raw WebSocket to an echo server, connections held by a client JVM of their own",
        Users.OWN);
  }

  @Override
  public List<ScenarioOption> options() {
    return List.of(
        ScenarioOption.count(IDLE, "idle connections of each kind (bridge, then raw WebSocket)", 5000, 1, 50_000),
        ScenarioOption.count(CLASSES, "classes listed in the notes where the heap of a connection goes (0: none)", 8,
            0, 100));
  }

  /**
   * The in-process Kith's stores pinned and its Redis client's queues raised: every 20 s the gateway reports all its
   * bridge users' presence, and the accounts service sends one Redis call per user at once, so with 5,000 users
   * the default queue of 4,096 waiting requests overflows and refuses whatever else needs Redis at that moment
   * (session checks of new connections among them). That is a finding to fix in the service, not what this scenario
   * measures.
   */
  @Override
  public JsonObject inProcessConfig() {
    return stores.inProcessConfig().put("redis", new JsonObject()
        .put("max-pool-waiting", REDIS_WAITING).put("max-waiting-handlers", REDIS_WAITING)
        .mergeIn(stores.inProcessConfig().getJsonObject("redis")));
  }

  @Override
  public Future<ScenarioResult> run(ScenarioContext context) {
    int idle = (int) context.option(IDLE);
    if (context.kithVertx() == null) {
      return Future.failedFuture(new IllegalStateException(name() + " reads the heap of the Kith it measures, so it "
          + "runs only against the in-process Kith (without --target)"));
    }
    OpenFileLimit limit = OpenFileLimit.current().orElse(null);
    if (limit != null && !limit.allows(idle)) {
      return Future.failedFuture(new IllegalStateException(limit.advice(idle)));
    }
    int warm = Math.min(WARM_UP, idle);
    AtomicReference<Platform> platform = new AtomicReference<>();
    AtomicReference<IdleClientsProcess> client = new AtomicReference<>();
    AtomicReference<Path> dir = new AtomicReference<>();
    return stores.open(context)
        .compose(p -> {
          platform.set(p);
          return mint(p, warm + idle);
        })
        .compose(tokens -> blocking(context.vertx(), () -> {
          Path tmp = Files.createTempDirectory("kith-bench-idle-");
          dir.set(tmp);
          Files.write(tmp.resolve("warm.txt"), tokens.subList(0, warm), StandardCharsets.UTF_8);
          Files.write(tmp.resolve("idle.txt"), tokens.subList(warm, tokens.size()), StandardCharsets.UTF_8);
          return tokens;
        }))
        .compose(tokens -> WebSocketEchoServer.start(Runtime.getRuntime().availableProcessors(), 65_536)
            .compose(echo -> {
              context.onClose(echo::close);
              return blocking(context.vertx(), () -> {
                client.set(IdleClientsProcess.start(context.target().host(), context.target().port(),
                    ScenarioContext.CONNECT_TIMEOUT_MILLIS));
                return echo;
              });
            })
            .compose(echo -> measure(context, client.get(), echo, dir.get(), userIds(tokens), warm, idle)))
        .eventually(() -> blocking(context.vertx(), () -> {
          if (client.get() != null) {
            client.get().close();
          }
          if (dir.get() != null) {
            for (String f : List.of("warm.txt", "idle.txt", "histogram-0.txt", "histogram-1.txt", "histogram-2.txt",
                "histogram-3.txt", "histogram-4.txt")) {
              Files.deleteIfExists(dir.get().resolve(f));
            }
            Files.deleteIfExists(dir.get());
          }
          return null;
        }).eventually(() -> platform.get() == null ? Future.succeededFuture() : platform.get().close()));
  }

  /** Opens {@code count} sessions of fresh user ids; answers lines {@code "<userId> <access token>"}. */
  private static Future<List<String>> mint(Platform platform, int count) {
    List<String> lines = new ArrayList<>(count);
    Future<Void> chain = Future.succeededFuture();
    for (int start = 0; start < count; start += MINT_CHUNK) {
      int n = Math.min(MINT_CHUNK, count - start);
      chain = chain.compose(v -> {
        List<Future<String>> chunk = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          long user = platform.ids().next();
          chunk.add(platform.sessions().open(user, BenchAccounts.DEVICE).map(pair -> user + " " + pair.accessToken()));
        }
        return Future.all(chunk).map(all -> {
          for (int i = 0; i < n; i++) {
            lines.add(all.resultAt(i));
          }
          return null;
        });
      });
    }
    return chain.map(v -> lines).recover(e -> Future.failedFuture(new IllegalStateException(
        "cannot open sessions in the in-process Kith's Redis: " + e.getMessage(), e)));
  }

  private static List<Long> userIds(List<String> lines) {
    return lines.stream().map(l -> Long.parseLong(l.substring(0, l.indexOf(' ')))).toList();
  }

  /** The heap readings of one run, in bytes (the client JVM's own where named so). */
  record Readings(long echoBefore, long echoAfter, long clientEchoBefore, long clientEchoAfter,
                          long bridgeBefore, long bridgeAfter, long clientBridgeBefore, long clientBridgeAfter,
                          long afterClose) {
  }

  private Future<ScenarioResult> measure(ScenarioContext context, IdleClientsProcess client, WebSocketEchoServer echo,
                                         Path dir, List<Long> users, int warm, int idle) {
    Vertx vertx = context.vertx();
    Vertx kith = context.kithVertx();
    List<Long> warmUsers = users.subList(0, warm);
    List<Long> idleUsers = users.subList(warm, users.size());
    String echoPort = Integer.toString(echo.port());
    int classes = (int) context.option(CLASSES);
    long[] r = new long[9];
    // warm-up: one small round of each kind, then the measured rounds
    return blocking(vertx, () -> {
      client.call("open-echo " + echoPort + " " + warm, COMMAND_MILLIS);
      client.call("close", COMMAND_MILLIS);
      client.call("open-bridge " + dir.resolve("warm.txt"), COMMAND_MILLIS);
      return null;
    })
        .compose(v -> probe(kith, warmUsers, client, vertx))
        .compose(v -> blocking(vertx, () -> {
          client.call("close", COMMAND_MILLIS);
          r[0] = settledHeap(classes, dir, 0);
          r[2] = clientHeap(client);
          client.call("open-echo " + echoPort + " " + idle, COMMAND_MILLIS);
          r[1] = settledHeap(classes, dir, 1);
          r[3] = clientHeap(client);
          requireOpen(client, idle, "raw WebSocket");
          client.call("close", COMMAND_MILLIS);
          r[4] = settledHeap(classes, dir, 2);
          r[6] = clientHeap(client);
          client.call("open-bridge " + dir.resolve("idle.txt"), COMMAND_MILLIS);
          return null;
        }))
        .compose(v -> probe(kith, idleUsers, client, vertx))
        .compose(v -> blocking(vertx, () -> {
          r[5] = settledHeap(classes, dir, 3);
          r[7] = clientHeap(client);
          requireOpen(client, idle, "bridge");
          client.call("close", COMMAND_MILLIS);
          r[8] = settledHeap(classes, dir, 4);
          return new Readings(r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8]);
        }))
        .map(readings -> {
          ScenarioResult result = result(readings, idle, warm);
          if (classes == 0) {
            return result;
          }
          List<String> notes = new ArrayList<>(result.notes());
          notes.add(breakdown("per bridge connection", growth(dir, 2, 3, idle, classes)));
          notes.add(breakdown("per raw WebSocket", growth(dir, 0, 1, idle, classes)));
          notes.add(breakdown("left after closing the bridge connections, per connection",
              growth(dir, 2, 4, idle, classes)));
          return new ScenarioResult(result.operations(), result.ratios(), notes, result.figures());
        });
  }

  /**
   * After {@link #SETTLE_MILLIS}, the measured JVM's used heap after GC, with class histogram {@code n} written beside
   * it (when asked for).
   */
  private static long settledHeap(int classes, Path dir, int n) throws InterruptedException, IOException {
    Thread.sleep(SETTLE_MILLIS);
    long used = Heap.usedAfterGc();
    histogram(classes, dir, n);
    return used;
  }

  /** The client JVM's own used heap. */
  private static long clientHeap(IdleClientsProcess client) {
    return IdleClientsProcess.number(client.call("heap", COMMAND_MILLIS), "heap");
  }

  /**
   * When the breakdown is asked for, writes a class histogram to {@code histogram-<n>.txt}: on disk, it does not
   * count in the next histogram nor in the heap readings.
   */
  private static void histogram(int classes, Path dir, int n) throws IOException {
    if (classes > 0) {
      Files.writeString(dir.resolve("histogram-" + n + ".txt"), ClassHistogram.takeText(), StandardCharsets.UTF_8);
    }
  }

  /** The classes that grew most from histogram {@code from} to histogram {@code to}, per connection. */
  private static List<ClassHistogram.Growth> growth(Path dir, int from, int to, int connections, int classes) {
    try {
      ClassHistogram a = ClassHistogram.parse(Files.readString(dir.resolve("histogram-" + from + ".txt")));
      ClassHistogram b = ClassHistogram.parse(Files.readString(dir.resolve("histogram-" + to + ".txt")));
      return a.growth(b, connections, classes);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A note: the classes that grew most, per connection. */
  static String breakdown(String what, List<ClassHistogram.Growth> growth) {
    StringBuilder s = new StringBuilder("largest growth by class, " + what + " (bytes, objects):");
    for (ClassHistogram.Growth g : growth) {
      s.append(String.format(Locale.ROOT, " %s %s (%.2f);", ClassHistogram.readable(g.className()),
          Figure.format(g.bytesPerConnection()), g.instancesPerConnection()));
    }
    return growth.isEmpty() ? s.append(" nothing grew").toString() : s.substring(0, s.length() - 1);
  }

  /**
   * Publishes a message to every user's address on Kith's event bus, again every half second, until every connection
   * has received one: the bridge does not acknowledge registrations, so the first messages may come before them.
   */
  private static Future<Void> probe(Vertx kith, List<Long> users, IdleClientsProcess client, Vertx vertx) {
    JsonObject probe = new JsonObject().put("kind", "bench-probe");
    return blocking(vertx, () -> {
      long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PROBE_MILLIS);
      long reached = 0;
      while (System.nanoTime() < deadline) {
        users.forEach(u -> kith.eventBus().publish(Addresses.user(u), probe));
        Thread.sleep(500);
        reached = IdleClientsProcess.number(client.call("pushes", COMMAND_MILLIS), "pushes");
        if (reached >= users.size()) {
          return null;
        }
      }
      throw new IllegalStateException("only " + reached + " of " + users.size() + " bridge connections received a "
          + "message on their user address within " + PROBE_MILLIS / 1000 + " s: registrations refused or lost");
    });
  }

  private static void requireOpen(IdleClientsProcess client, int expected, String kind) {
    long open = IdleClientsProcess.number(client.call("open", COMMAND_MILLIS), "open");
    if (open != expected) {
      throw new IllegalStateException("only " + open + " of " + expected + " " + kind + " connections were still "
          + "open when the heap was read");
    }
  }

  /**
   * Runs {@code work} on a thread of its own and hands its outcome back to the caller's context: heap readings and
   * the client JVM's answers block, for longer than Vert.x lets a worker thread run without warnings.
   */
  private static <T> Future<T> blocking(Vertx vertx, Callable<T> work) {
    Context caller = vertx.getOrCreateContext();
    Promise<T> promise = Promise.promise();
    Thread thread = new Thread(() -> {
      try {
        T result = work.call();
        caller.runOnContext(v -> promise.complete(result));
      } catch (Exception | Error e) {
        caller.runOnContext(v -> promise.fail(e));
      }
    }, "kith-bench-heap");
    thread.setDaemon(true);
    thread.start();
    return promise.future();
  }

  static ScenarioResult result(Readings r, int idle, int warm) {
    double echoServer = Heap.perConnection(r.echoBefore(), r.echoAfter(), idle);
    double bridgeServer = Heap.perConnection(r.bridgeBefore(), r.bridgeAfter(), idle);
    double echoClient = Heap.perConnection(r.clientEchoBefore(), r.clientEchoAfter(), idle);
    double bridgeClient = Heap.perConnection(r.clientBridgeBefore(), r.clientBridgeAfter(), idle);
    double leftOver = Heap.perConnection(r.bridgeBefore(), r.afterClose(), idle);
    List<Figure> figures = List.of(
        Figure.of("server heap per bridge connection", bridgeServer, "bytes", "growth of the measured JVM's used "
            + "heap after GC with " + idle + " idle bridge connections open, divided by " + idle),
        Figure.of("server heap per raw WebSocket", echoServer, "bytes", "the same with " + idle + " plain WebSockets "
            + "to the echo server"),
        Figure.of("bridge/raw WebSocket heap", echoServer > 0 ? bridgeServer / echoServer : Double.NaN, "x",
            "server heap per bridge connection over server heap per raw WebSocket"),
        Figure.of("server heap, all bridge connections", (r.bridgeAfter() - r.bridgeBefore()) / MIB, "MiB",
            "growth of the used heap for the " + idle + " bridge connections"),
        Figure.of("left after closing, per connection", leftOver, "bytes", "used heap after the bridge connections "
            + "closed, minus before they opened, per connection (near 0 when nothing is kept)"),
        Figure.of("client heap per bridge connection", bridgeClient, "bytes", "the bench client JVM's growth per "
            + "bridge connection (the bench's cost, not Kith's)"),
        Figure.of("client heap per raw WebSocket", echoClient, "bytes", "the bench client JVM's growth per echo "
            + "connection"));
    List<String> notes = List.of(
        String.format(Locale.ROOT, "used heap after GC of the JVM running Kith (MiB): %.1f before and %.1f with %d raw "
                + "WebSockets open; %.1f before and %.1f with %d bridge connections open; %.1f after they closed",
            r.echoBefore() / MIB, r.echoAfter() / MIB, idle, r.bridgeBefore() / MIB, r.bridgeAfter() / MIB, idle,
            r.afterClose() / MIB),
        "the connections are held by a client JVM of their own: the measured JVM holds Kith (gateway, services, the "
            + "embedded MongoDB-wire server), the idle echo server and the bench's runner, and only the server side "
            + "of each connection; Redis runs in its own process and its memory (presence, sessions) is not counted",
        "each bridge connection belongs to its own user (a session opened directly in Redis, no account), sent its "
            + "bearer token in a register frame for its kith.user.<id> followed by a kith.bridge.whoami request "
            + "(200 such registrations at a time), and received one message there before the reading; each raw "
            + "WebSocket bounced one frame; then no traffic but the bridge client's keep-alive ping every 5 s",
        "heap only: Netty's direct buffers, thread stacks and the kernel's socket buffers are not in these figures",
        "the in-process Kith's Redis client lets " + REDIS_WAITING + " requests wait (4,096 by default): the presence "
            + "heartbeat sends one Redis call per connected user at once, which overflows the default queue past "
            + "about 4,000 users",
        "a warm-up round of " + warm + " connections of each kind was opened and closed before the readings; "
            + "--rate, --duration, --warmup and --connections do not apply to this scenario");
    return new ScenarioResult(List.of(), List.of(), notes, figures);
  }
}
