package io.kith.platform.store;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

class LuaScriptsTest {

  @Test
  @DisplayName("the digest is the one Redis gives (SCRIPT LOAD of 'return 1')")
  void digestLikeRedis() {
    assertEquals("e0e1f9fabfc9d4800c877a703b823ac0578ff8db", LuaScripts.sha1("return 1"));
    assertEquals("da39a3ee5e6b4b0d3255bfef95601890afd80709", LuaScripts.sha1(""));
  }
}
