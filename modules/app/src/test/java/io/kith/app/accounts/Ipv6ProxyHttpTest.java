package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import static io.kith.app.accounts.AccountsKith.LOGIN_WINDOW_SECONDS;
import static io.kith.app.accounts.AccountsKith.MAX_FAILURES_PER_ADDRESS;
import static io.kith.app.accounts.AccountsKith.newAddress;
import static io.kith.app.accounts.AccountsKith.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A proxy on the IPv6 loopback, configured the way people write it ({@code ::1}); the socket reports the peer in
 * another spelling ({@code 0:0:0:0:0:0:0:1}), which must still match. Skipped where the machine has no IPv6 loopback.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Client addresses behind a trusted proxy on IPv6")
class Ipv6ProxyHttpTest {

  private AccountsKith kith;

  private static boolean ipv6Loopback() {
    try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("::1"))) {
      return probe.getLocalPort() > 0;
    } catch (IOException e) {
      return false;
    }
  }

  @BeforeAll
  void start() {
    assumeTrue(ipv6Loopback(), "no IPv6 loopback on this machine");
    kith = AccountsKith.start(new JsonObject()
        .put("http", new JsonObject().put("host", "::").put("trusted-proxies", new JsonArray().add("::1"))), "::1");
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("X-Forwarded-For from a proxy configured as ::1 is honoured for the per-address login limit")
  void compressedIpv6ProxyTrusted() {
    String address = newAddress();
    for (int i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      kith.login(unique("nobody"), "wrong-password", address).problem(401, "invalid_credentials");
    }
    User user = kith.register();

    kith.login(user.username(), user.password(), address).throttled("login_throttled", LOGIN_WINDOW_SECONDS);
    // had the proxy not been trusted, the failures would have counted against the proxy and throttled everyone
    JsonObject tokens = kith.login(user.username(), user.password(), newAddress()).expect(200);
    assertEquals(user.id(), tokens.getLong("user_id"));
    // IPv6 clients are counted in one spelling too
    String v6 = "2001:db8:0:0:0:0:0:" + Integer.toHexString((int) (Math.random() * 0xfff0) + 1);
    for (int i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      kith.login(unique("nobody"), "wrong-password", i % 2 == 0 ? v6 : "[" + v6.replace(":0:0:0:0:0:", "::") + "]:443")
          .problem(401, "invalid_credentials");
    }
    kith.login(user.username(), user.password(), v6.replace(":0:0:0:0:0:", "::"))
        .throttled("login_throttled", LOGIN_WINDOW_SECONDS);
  }
}
