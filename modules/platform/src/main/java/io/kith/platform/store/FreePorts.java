package io.kith.platform.store;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free TCP ports on loopback, for embedded stores and tests. */
public final class FreePorts {

  private FreePorts() {
  }

  /** A port that was free a moment ago. */
  public static int pick() {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
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
