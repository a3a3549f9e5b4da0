package io.kith.platform.store;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FreePortsTest {

  @Test
  @DisplayName("picked ports are bindable, below the ephemeral range, and never handed out twice")
  void picks() throws Exception {
    Set<Integer> seen = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      int port = FreePorts.pick();
      assertTrue(seen.add(port), "port " + port + " handed out twice");
      assertTrue(port >= FreePorts.LOW && port < FreePorts.HIGH, "port " + port + " outside the low range");
      try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
        assertFalse(FreePorts.isFree(port), "a bound port is not free");
      }
      assertTrue(FreePorts.isFree(port));
    }
  }
}
