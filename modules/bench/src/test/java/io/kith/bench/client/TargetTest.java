package io.kith.bench.client;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TargetTest {

  @Test
  @DisplayName("a target URL gives host, port and TLS, with the scheme's default port")
  void parses() {
    assertEquals(new Target("127.0.0.1", 8080, false, 0), Target.parse("http://127.0.0.1:8080"));
    assertEquals(new Target("kith.example", 443, true, 0), Target.parse("https://kith.example/"));
    assertEquals(new Target("kith.example", 80, false, 0), Target.parse("HTTP://kith.example"));
    assertEquals(new Target("::1", 9000, false, 0), Target.parse("http://[::1]:9000"));
    assertEquals("http://[::1]:9000", Target.parse("http://[::1]:9000").baseUrl());
  }

  @Test
  @DisplayName("a URL without a host, or with a query, is refused")
  void refuses() {
    assertThrows(IllegalArgumentException.class, () -> Target.parse("http://"));
    assertThrows(IllegalArgumentException.class, () -> Target.parse("http://h:1?x=1"));
    assertThrows(IllegalArgumentException.class, () -> Target.parse("not a url"));
  }
}
