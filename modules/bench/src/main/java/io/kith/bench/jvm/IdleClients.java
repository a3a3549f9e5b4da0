package io.kith.bench.jvm;

import io.kith.bench.client.BridgeClient;
import io.kith.bench.client.ClientContext;
import io.kith.bench.client.EchoClient;
import io.kith.bench.client.Target;
import io.kith.platform.bus.Addresses;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The client side of {@code bridge-idle-heap}, run in a JVM of its own so that the connections it holds do not count
 * in the heap of the Kith being measured. It reads one command per line on stdin and answers each with one line on
 * stdout ({@code error <message>} when it fails); it exits on {@code exit} or when stdin closes (the bench ended).
 *
 * <ul>
 *   <li>{@code heap}: {@code heap <bytes>}, this JVM's used heap after full collections;</li>
 *   <li>{@code open-echo <port> <n>}: opens {@code n} WebSockets to the echo server on that loopback port, and
 *   bounces one frame on each: {@code opened <n>};</li>
 *   <li>{@code open-bridge <file>}: opens one SockJS WebSocket per line {@code <userId> <access token>} of the file
 *   and registers it on {@code kith.user.<userId>} ({@link #registerAll}): {@code opened <n>};</li>
 *   <li>{@code pushes}: {@code pushes <n>}, how many bridge connections have received a message;</li>
 *   <li>{@code open}: {@code open <n>}, the connections still open;</li>
 *   <li>{@code close}: closes them all: {@code closed};</li>
 *   <li>{@code exit}: {@code bye}, then the JVM exits.</li>
 * </ul>
 *
 * <p>Command line: {@code <host> <http port> <timeout millis>} of the Kith whose bridge it connects to. Printing is
 * this tool's protocol, hence {@code System.out}.
 */
public final class IdleClients {

  static {
    if (System.getProperty("logback.configurationFile") == null) {
      System.setProperty("logback.configurationFile", "kith-bench-logback.xml");
    }
  }

  /** Registrations (register frame, then a whoami round trip) in flight at once. */
  static final int REGISTER_CONCURRENCY = 200;

  private final Vertx vertx;
  private final Context context;
  private final Target target;
  private final long timeoutMillis;
  private final AtomicInteger pushed = new AtomicInteger();
  private BridgeClient bridge;
  private EchoClient echo;

  private IdleClients(Vertx vertx, Target target, long timeoutMillis) {
    this.vertx = vertx;
    this.context = vertx.getOrCreateContext();
    this.target = target;
    this.timeoutMillis = timeoutMillis;
  }

  /** Entry point of the client JVM. */
  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: IdleClients <host> <http port> <timeout millis>");
      System.exit(2);
    }
    Vertx vertx = Vertx.vertx();
    IdleClients clients = new IdleClients(vertx, new Target(args[0], Integer.parseInt(args[1]), false, 0),
        Long.parseLong(args[2]));
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    out.println("ready");
    String line;
    while ((line = in.readLine()) != null) {
      String reply;
      try {
        reply = clients.handle(line.strip());
      } catch (Exception e) {
        reply = "error " + oneLine(e);
      }
      out.println(reply);
      if (reply.equals("bye")) {
        break;
      }
    }
    try {
      vertx.close().await(10, TimeUnit.SECONDS);
    } catch (Exception e) {
      // exiting anyway
    }
    System.exit(0);
  }

  private String handle(String line) throws Exception {
    String[] words = line.split("\\s+");
    switch (words[0]) {
      case "heap":
        return "heap " + Heap.usedAfterGc();
      case "open-echo": {
        int port = Integer.parseInt(words[1]);
        int n = Integer.parseInt(words[2]);
        echo = onContext(() -> EchoClient.create(vertx, target.host(), port, n, timeoutMillis).open()
            .compose(client -> {
              List<Future<JsonObject>> bounced = new ArrayList<>();
              for (int i = 0; i < n; i++) {
                bounced.add(client.request(i, new JsonObject().put("type", "ping").put("n", i)));
              }
              return Future.all(bounced).map(all -> client);
            }));
        return "opened " + n;
      }
      case "open-bridge": {
        List<String> lines = Files.readAllLines(Path.of(words[1]), StandardCharsets.UTF_8);
        List<Long> users = new ArrayList<>();
        List<String> tokens = new ArrayList<>();
        for (String l : lines) {
          if (!l.isBlank()) {
            String[] parts = l.strip().split(" ", 2);
            users.add(Long.parseLong(parts[0]));
            tokens.add(parts[1]);
          }
        }
        pushed.set(0);
        boolean[] seen = new boolean[users.size()];
        bridge = onContext(() -> BridgeClient.perUser(vertx, target, BridgeClient.Transport.WEBSOCKET, tokens,
            timeoutMillis).open().compose(client -> registerAll(client, users, seen)));
        return "opened " + users.size();
      }
      case "pushes":
        return "pushes " + pushed.get();
      case "open":
        return "open " + onContext(() -> Future.succeededFuture(
            (bridge == null ? 0 : bridge.openConnections()) + (echo == null ? 0 : echo.openConnections())));
      case "close":
        onContext(() -> {
          Future<Void> b = bridge == null ? Future.succeededFuture() : bridge.close();
          Future<Void> e = echo == null ? Future.succeededFuture() : echo.close();
          bridge = null;
          echo = null;
          return Future.join(b, e).mapEmpty();
        });
        return "closed";
      case "exit":
        return "bye";
      default:
        throw new IllegalArgumentException("unknown command '" + words[0] + "'");
    }
  }

  /**
   * Registers every connection on its user's address, {@value #REGISTER_CONCURRENCY} at a time: each register frame
   * is followed by a whoami request on the same connection, whose reply means the bridge has decided the
   * registration (frames of a connection are decided in order) and that the token is the expected user's. Without
   * this pacing, thousands of first frames at once each need a session check in Redis together.
   */
  private Future<BridgeClient> registerAll(BridgeClient client, List<Long> users, boolean[] seen) {
    AtomicInteger next = new AtomicInteger();
    List<Future<Void>> lanes = new ArrayList<>();
    for (int lane = 0; lane < Math.min(REGISTER_CONCURRENCY, users.size()); lane++) {
      lanes.add(registerNext(client, users, seen, next));
    }
    return Future.all(lanes).map(all -> client);
  }

  private Future<Void> registerNext(BridgeClient client, List<Long> users, boolean[] seen, AtomicInteger next) {
    int i = next.getAndIncrement();
    if (i >= users.size()) {
      return Future.succeededFuture();
    }
    long user = users.get(i);
    // the handler runs on this context, like every frame of the client: no lock needed for seen
    client.register(i, Addresses.user(user), body -> {
      if (!seen[i]) {
        seen[i] = true;
        pushed.incrementAndGet();
      }
    });
    return client.request(i, Addresses.BRIDGE_WHOAMI, new JsonObject())
        .recover(e -> Future.failedFuture(new IllegalStateException("registering connection " + i + " of user "
            + user + " failed (" + next.get() + " started so far): " + e.getMessage(), e)))
        .compose(reply -> {
          if (reply.getLong("user_id", 0L) != user) {
            return Future.failedFuture("connection " + i + " is bound to user " + reply.getValue("user_id")
                + " instead of " + user);
          }
          return registerNext(client, users, seen, next);
        });
  }

  /** Runs {@code work} on the clients' context and waits for its outcome. */
  private <T> T onContext(Supplier<Future<T>> work) throws Exception {
    // generous: thousands of handshakes on a loaded machine
    return ClientContext.run(context, work).await(Math.max(60_000, 10 * timeoutMillis), TimeUnit.MILLISECONDS);
  }

  private static String oneLine(Throwable e) {
    Throwable t = e;
    while (t.getMessage() == null && t.getCause() != null) {
      t = t.getCause();
    }
    String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    return message.replace('\n', ' ').replace('\r', ' ');
  }
}
