package io.kith.faults;

import io.kith.bench.client.BridgeClient;
import io.kith.bench.client.Target;
import io.kith.bench.cluster.KithNode;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * One user's bridge connection (SockJS raw WebSocket, the bench's client) to one node, registered on the user's own
 * address and keeping every push it receives, as an app's connection would.
 */
final class Pushes {

  private static final long DEADLINE_SECONDS = 60;

  private final BridgeClient client;
  private final List<JsonObject> received = new CopyOnWriteArrayList<>();

  private Pushes(BridgeClient client) {
    this.client = client;
  }

  /**
   * Connects {@code user} to {@code node}'s bridge and registers on its user address; returns once a direct message
   * from {@code sender} has arrived there as a push, so that the registration is known to be in place.
   */
  static Pushes open(Vertx vertx, Api api, KithNode node, Api.User user, Api.User sender) throws Exception {
    BridgeClient client = result(BridgeClient.perUser(vertx, Target.parse(node.base()),
        BridgeClient.Transport.WEBSOCKET, List.of(user.token()), TimeUnit.SECONDS.toMillis(30)).open());
    Pushes pushes = new Pushes(client);
    result(client.register(0, "kith.user." + user.id(), pushes.received::add));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
    while (!pushes.has(p -> "message".equals(p.getString("kind")))) {
      // the registration is not acknowledged: a message sent before it took effect is not pushed, so send again
      new Load().acknowledged(List.of(node), 0, n -> api.post(n, "/direct/" + user.id() + "/messages", sender,
          new JsonObject().put("client_id", UUID.randomUUID().toString()).put("text", "are you there")));
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no push reached " + user.id() + "'s bridge connection on " + node);
      }
      Thread.sleep(500);
    }
    return pushes;
  }

  private static <T> T result(Future<T> future) throws InterruptedException, ExecutionException, TimeoutException {
    return future.toCompletionStage().toCompletableFuture().get(DEADLINE_SECONDS, TimeUnit.SECONDS);
  }

  /** Whether a push matching {@code push} has arrived. */
  boolean has(Predicate<JsonObject> push) {
    return received.stream().anyMatch(push);
  }

  /** Waits (up to a generous deadline) for a {@code {"kind":"resync"}} push; fails without one. */
  void awaitResync(String why) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
    while (!has(p -> "resync".equals(p.getString("kind")))) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("no resync push (" + why + ") within " + DEADLINE_SECONDS + " s; got " + received);
      }
      Thread.sleep(250);
    }
  }

  /** Forgets the pushes received so far. */
  void clear() {
    received.clear();
  }

  /** Whether the connection is still open. */
  boolean open() {
    return client.openConnections() == 1;
  }

  void close() {
    client.close();
  }
}
