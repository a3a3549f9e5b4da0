package io.kith.platform.testkit;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.net.NetClient;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetSocket;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP proxy in front of a store (the test Redis) that can stall: while stalled it stops reading what clients send,
 * so their commands hang as they do on a paused or overloaded store, without pausing the store every other test
 * uses. With no target it is a store that accepts connections and never answers.
 */
public final class StallingProxy implements AutoCloseable {

  private final NetServer server;
  private final NetClient client;
  private final List<NetSocket> clients = new CopyOnWriteArrayList<>();
  private volatile boolean stalled;

  private StallingProxy(NetServer server, NetClient client) {
    this.server = server;
    this.client = client;
  }

  /** Starts a proxy to {@code host:port}; with {@code port} 0 nothing is forwarded and nothing answers. */
  public static Future<StallingProxy> start(Vertx vertx, String host, int port) {
    NetClient client = vertx.createNetClient();
    NetServer server = vertx.createNetServer();
    StallingProxy proxy = new StallingProxy(server, client);
    server.connectHandler(socket -> proxy.accept(socket, host, port));
    return server.listen(0, "127.0.0.1").map(s -> proxy);
  }

  private void accept(NetSocket socket, String host, int port) {
    clients.add(socket);
    socket.closeHandler(v -> clients.remove(socket));
    if (port == 0) {
      socket.handler(ignored -> { });
      return;
    }
    socket.pause();
    client.connect(port, host).onSuccess(target -> {
      socket.handler(target::write);
      target.handler(socket::write);
      socket.closeHandler(v -> {
        clients.remove(socket);
        target.close();
      });
      target.closeHandler(v -> socket.close());
      if (!stalled) {
        socket.resume();
      }
    }).onFailure(e -> socket.close());
  }

  /** The proxy's port on 127.0.0.1. */
  public int port() {
    return server.actualPort();
  }

  /** Stops (true) or restarts (false) reading what clients send. */
  public void stall(boolean stall) {
    stalled = stall;
    for (NetSocket socket : clients) {
      if (stall) {
        socket.pause();
      } else {
        socket.resume();
      }
    }
  }

  /** Drops every client connection, as a store restart does. */
  public void disconnect() {
    clients.forEach(NetSocket::close);
  }

  @Override
  public void close() {
    Await.result(server.close());
    Await.result(client.close());
  }
}
