package io.kith.platform.store;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Free TCP ports on loopback, for embedded stores and tests. A port is picked at random below Linux's ephemeral
 * range (32768–60999 by default) and checked free: the system never hands such a port to another socket bound to
 * port 0 or to an outgoing connection in the moment between the pick and the bind, which a port the system chose
 * itself would risk (a cluster node's event-bus server took the port a test had just picked for its bridge). A port
 * is handed out once per process.
 */
public final class FreePorts {

  static final int LOW = 20_000;
  static final int HIGH = 32_000;
  private static final int ATTEMPTS = 200;
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private FreePorts() {
  }

  /** A port that was free a moment ago and that this process has not handed out before. */
  public static int pick() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int i = 0; i < ATTEMPTS; i++) {
      int port = random.nextInt(LOW, HIGH);
      if (isFree(port) && HANDED_OUT.add(port)) {
        return port;
      }
    }
    // the low range is crowded: let the system choose
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      HANDED_OUT.add(socket.getLocalPort());
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free port on loopback", e);
    }
  }

  /** Whether nothing listens on {@code port} on loopback. */
  public static boolean isFree(int port) {
    try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
