package io.kith.platform.store;

import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.RedisClientType;
import io.vertx.redis.client.RedisOptions;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisConnection;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import io.vertx.redis.client.impl.RequestImpl;
import io.vertx.redis.client.impl.ZModem;
import io.vertx.redis.client.impl.types.MultiType;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The Redis Cluster client of a node: commands and batches go through one shared cluster connection (see
 * {@link #onShared} for why not the pools), and pipelined batches may span hash slots: the cluster client sends a
 * batch to one node and refuses one whose keys live on several (CROSSSLOT), while Kith pipelines commands of many
 * users at once (a fan-out writes one timeline per follower, each under its own {@code {u:id}} tag). A batch is split
 * by the hash slot of each command's first key (a command's keys share a tag: see the platform README, "Redis
 * Cluster"), the parts are sent at once, and the replies come back in the order of the commands. Commands of one slot
 * keep their order; commands of different slots touch different keys, so their order does not matter. Keyless
 * commands form one part of their own. A batch with one slot goes through unchanged. Dedicated connections
 * ({@link #connect}) split their batches the same way.
 *
 * <p>A failed part fails the whole batch, as a failed batch does on one server; parts that succeeded have run, so a
 * batch sent again (as {@link LuaScripts#batch} does after NOSCRIPT) must be safe to run twice, as it already must.
 */
public final class SlotBatchedRedis implements Redis {

  private static final int KEYLESS = -1;

  private final Vertx vertx;
  private final Redis delegate;
  private final RedisOptions options;
  // one client per master that a caller needed by itself (see nodeOf), by host:port
  private final Map<String, Redis> nodes = new ConcurrentHashMap<>();
  private final AtomicReference<Future<RedisConnection>> shared = new AtomicReference<>();

  /** Wraps a cluster client made with {@code options} (whose first seed URL gives the nodes' credentials). */
  public SlotBatchedRedis(Vertx vertx, Redis delegate, RedisOptions options) {
    this.vertx = vertx;
    this.delegate = delegate;
    this.options = options;
  }

  /**
   * A client of the master that serves {@code key} alone, for what must reach that very node: a command without keys
   * about a connection there (CLIENT ID, CLIENT UNBLOCK of an event-log reader blocked on the stream), which a cluster
   * client sends to any node. After a failover the key's master is another: ask again when the client fails.
   */
  public Future<Redis> nodeOf(String key) {
    return masterOf(delegate, key).map(node -> nodes.computeIfAbsent(node, n -> {
      int colon = n.lastIndexOf(':');
      // this node's dedicated connections (event-log readers) hold a connection each for long: a pool of their own
      return Redis.createClient(vertx, new RedisOptions(options).setType(RedisClientType.STANDALONE)
          .setMaxPoolSize(Math.max(options.getMaxPoolSize(), 128)).setMaxPoolWaiting(512)
          .setEndpoints(new ArrayList<>())
          .setConnectionString(nodeUrl(options.getEndpoint(), n.substring(0, colon),
              Integer.parseInt(n.substring(colon + 1)))));
    }));
  }

  /**
   * The {@code host:port} of the master serving {@code key}, as the cluster that {@code redis} (any client of it)
   * reaches knows it now (CLUSTER KEYSLOT, then CLUSTER SLOTS).
   */
  public static Future<String> masterOf(Redis redis, String key) {
    return redis.send(Request.cmd(Command.CLUSTER).arg("KEYSLOT").arg(key))
        .compose(slot -> redis.send(Request.cmd(Command.CLUSTER).arg("SLOTS")).map(ranges -> {
          int s = slot.toInteger();
          for (Response range : ranges) {
            if (range.get(0).toInteger() <= s && s <= range.get(1).toInteger()) {
              return range.get(2).get(0).toString() + ":" + range.get(2).get(1).toInteger();
            }
          }
          throw new IllegalStateException("no Redis Cluster master serves slot " + s);
        }));
  }

  // the seed's URL with another host and port: same scheme (redis or rediss) and credentials
  private static String nodeUrl(String seed, String host, int port) {
    URI uri = URI.create(seed);
    try {
      return new URI(uri.getScheme(), uri.getUserInfo(), host, port, null, null, null).toString();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("bad Redis seed URL", e);
    }
  }

  /** The hash slot of {@code command}'s first key, or -1 for a command without keys. */
  static int slotOf(Request command) {
    List<byte[]> keys = ((RequestImpl) command).keys();
    return keys.isEmpty() ? KEYLESS : ZModem.generate(keys.get(0));
  }

  // Parts of a split batch in flight at once on the shared connection, so that a batch of thousands of users does not
  // overfill the queue of a node's connection.
  static final int PARTS_IN_FLIGHT = 256;

  @Override
  public Future<List<Response>> batch(List<Request> commands) {
    return onShared(conn -> split(commands, conn::batch, conn::send));
  }

  @Override
  public Future<Response> send(Request command) {
    return onShared(conn -> crossSlotMget(command)
        ? split(List.of(command), conn::batch, conn::send).map(r -> r.get(0)) : conn.send(command));
  }

  /**
   * Runs {@code command} on the shared cluster connection (one connection to each node, commands pipelined on it).
   * The cluster client's pooled commands each take a connection to every node of the cluster from the pools, holding
   * those it got while it waits for the rest: under load, commands holding some nodes' connections wait for each
   * other's, and every command stalls until its deadline. A connection that fails is dropped and the next command
   * opens another (to the nodes of the topology then).
   */
  private <T> Future<T> onShared(Function<RedisConnection, Future<T>> command) {
    Future<RedisConnection> used = shared();
    return used.compose(command).onFailure(e -> {
      if (StoreFailures.isRedisOutage(e)) {
        drop(used);
      }
    });
  }

  private Future<RedisConnection> shared() {
    Future<RedisConnection> current = shared.get();
    if (current != null) {
      return current;
    }
    Promise<RedisConnection> opening = Promise.promise();
    if (!shared.compareAndSet(null, opening.future())) {
      return shared();
    }
    delegate.connect().onComplete(opening);
    opening.future().onSuccess(c -> c.exceptionHandler(e -> drop(opening.future()))
            .endHandler(v -> drop(opening.future())))
        .onFailure(e -> drop(opening.future()));
    return opening.future();
  }

  private void drop(Future<RedisConnection> failed) {
    if (shared.compareAndSet(failed, null)) {
      failed.onSuccess(RedisConnection::close);
    }
  }

  /**
   * Sends {@code commands} as one batch per hash slot through {@code batch} (or {@code send} for one command). An
   * {@code MGET} whose keys live in several slots goes as one {@code MGET} per slot, its answer put back in the order
   * of its keys (the cluster client's own split of such an MGET answers in no particular order).
   */
  static Future<List<Response>> split(List<Request> commands, Function<List<Request>, Future<List<Response>>> batch,
                                      Function<Request, Future<Response>> send) {
    if (commands.stream().noneMatch(SlotBatchedRedis::crossSlotMget)) {
      List<List<Integer>> parts = partsBySlot(commands);
      return parts.size() <= 1 ? batch.apply(commands) : sendParts(commands, parts, batch, send);
    }
    List<Request> sent = new ArrayList<>();
    List<List<MgetPart>> mgets = new ArrayList<>();
    for (Request command : commands) {
      mgets.add(crossSlotMget(command) ? mgetParts(command, sent) : null);
      if (mgets.get(mgets.size() - 1) == null) {
        sent.add(command);
      }
    }
    return split(sent, batch, send).map(replies -> {
      List<Response> out = new ArrayList<>(commands.size());
      int at = 0;
      for (List<MgetPart> parts : mgets) {
        if (parts == null) {
          out.add(replies.get(at++));
        } else {
          out.add(joined(parts, replies, at));
          at += parts.size();
        }
      }
      return out;
    });
  }

  /** One slot's MGET of a cross-slot MGET: the positions its keys had in the whole. */
  private record MgetPart(List<Integer> positions) {
  }

  /** Whether {@code command} is an MGET over keys of more than one slot. */
  static boolean crossSlotMget(Request command) {
    if (command.command() != Command.MGET) {
      return false;
    }
    List<byte[]> keys = ((RequestImpl) command).keys();
    int first = keys.isEmpty() ? KEYLESS : ZModem.generate(keys.get(0));
    return keys.stream().anyMatch(k -> ZModem.generate(k) != first);
  }

  // adds one MGET per slot of the command's keys to sent, in the order slots first appear
  private static List<MgetPart> mgetParts(Request mget, List<Request> sent) {
    List<byte[]> keys = ((RequestImpl) mget).keys();
    Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
    for (int i = 0; i < keys.size(); i++) {
      bySlot.computeIfAbsent(ZModem.generate(keys.get(i)), s -> new ArrayList<>()).add(i);
    }
    List<MgetPart> parts = new ArrayList<>();
    for (List<Integer> positions : bySlot.values()) {
      Request part = Request.cmd(Command.MGET);
      positions.forEach(i -> part.arg(keys.get(i)));
      sent.add(part);
      parts.add(new MgetPart(positions));
    }
    return parts;
  }

  // the answer of a cross-slot MGET from its parts' answers (at replies[at] on), values in the order of its keys
  private static Response joined(List<MgetPart> parts, List<Response> replies, int at) {
    int size = parts.stream().mapToInt(p -> p.positions().size()).sum();
    Response[] values = new Response[size];
    for (int p = 0; p < parts.size(); p++) {
      List<Integer> positions = parts.get(p).positions();
      for (int j = 0; j < positions.size(); j++) {
        values[positions.get(j)] = replies.get(at + p).get(j);
      }
    }
    MultiType whole = MultiType.create(size, false);
    for (Response value : values) {
      whole.add(value);
    }
    return whole;
  }

  // the positions of the commands of each slot, in the order slots first appear
  private static List<List<Integer>> partsBySlot(List<Request> commands) {
    Map<Integer, List<Integer>> bySlot = new LinkedHashMap<>();
    for (int i = 0; i < commands.size(); i++) {
      bySlot.computeIfAbsent(slotOf(commands.get(i)), s -> new ArrayList<>()).add(i);
    }
    return new ArrayList<>(bySlot.values());
  }

  private static Future<List<Response>> sendParts(List<Request> commands, List<List<Integer>> parts,
                                                  Function<List<Request>, Future<List<Response>>> batch,
                                                  Function<Request, Future<Response>> send) {
    Response[] replies = new Response[commands.size()];
    Future<Void> chain = Future.succeededFuture();
    for (int from = 0; from < parts.size(); from += PARTS_IN_FLIGHT) {
      List<List<Integer>> wave = parts.subList(from, Math.min(parts.size(), from + PARTS_IN_FLIGHT));
      chain = chain.compose(v -> sendWave(commands, wave, batch, send, replies));
    }
    return chain.map(v -> Arrays.asList(replies));
  }

  private static Future<Void> sendWave(List<Request> commands, List<List<Integer>> wave,
                                       Function<List<Request>, Future<List<Response>>> batch,
                                       Function<Request, Future<Response>> send, Response[] replies) {
    List<Future<List<Response>>> sent = new ArrayList<>(wave.size());
    for (List<Integer> part : wave) {
      sent.add(part.size() == 1 ? send.apply(commands.get(part.get(0))).map(r -> Arrays.asList(r))
          : batch.apply(part.stream().map(commands::get).toList()));
    }
    return Future.all(sent).map(all -> {
      for (int p = 0; p < wave.size(); p++) {
        List<Response> answered = all.resultAt(p);
        List<Integer> positions = wave.get(p);
        for (int j = 0; j < positions.size(); j++) {
          replies[positions.get(j)] = answered.get(j);
        }
      }
      return null;
    });
  }

  @Override
  public Future<RedisConnection> connect() {
    return delegate.connect().map(SlotBatchedConnection::new);
  }

  @Override
  public Future<Void> close() {
    Future<RedisConnection> open = shared.getAndSet(null);
    if (open != null) {
      open.onSuccess(RedisConnection::close);
    }
    nodes.values().forEach(Redis::close);
    nodes.clear();
    return delegate.close();
  }

  /** A dedicated cluster connection whose batches are split per slot like the client's. */
  private static final class SlotBatchedConnection implements RedisConnection {

    private final RedisConnection delegate;

    SlotBatchedConnection(RedisConnection delegate) {
      this.delegate = delegate;
    }

    @Override
    public Future<List<Response>> batch(List<Request> commands) {
      return split(commands, delegate::batch, delegate::send);
    }

    @Override
    public Future<Response> send(Request command) {
      return crossSlotMget(command) ? split(List.of(command), delegate::batch, delegate::send).map(r -> r.get(0))
          : delegate.send(command);
    }

    @Override
    public RedisConnection exceptionHandler(Handler<Throwable> handler) {
      delegate.exceptionHandler(handler);
      return this;
    }

    @Override
    public RedisConnection handler(Handler<Response> handler) {
      delegate.handler(handler);
      return this;
    }

    @Override
    public RedisConnection pause() {
      delegate.pause();
      return this;
    }

    @Override
    public RedisConnection resume() {
      delegate.resume();
      return this;
    }

    @Override
    public RedisConnection fetch(long amount) {
      delegate.fetch(amount);
      return this;
    }

    @Override
    public RedisConnection endHandler(Handler<Void> endHandler) {
      delegate.endHandler(endHandler);
      return this;
    }

    @Override
    public Future<Void> close() {
      return delegate.close();
    }

    @Override
    public boolean pendingQueueFull() {
      return delegate.pendingQueueFull();
    }
  }
}
