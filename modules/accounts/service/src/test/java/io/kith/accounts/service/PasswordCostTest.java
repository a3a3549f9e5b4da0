package io.kith.accounts.service;

import io.kith.platform.testkit.Await;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Argon2id cost of new hashes follows the configuration, and every hash is verified with the cost it was made
 * with: a change of cost never locks out a password set before it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PasswordCostTest {

  private Vertx vertx;

  @BeforeAll
  void start() {
    vertx = Vertx.vertx();
  }

  @AfterAll
  void stop() throws Exception {
    Await.result(vertx.close());
  }

  @Test
  @DisplayName("new hashes carry the configured cost; hashes of another cost still verify, wrong passwords do not")
  void costOfNewHashesOnly() throws Exception {
    Passwords cheap = new Passwords(vertx, 1, 8, 1024, 1);
    Passwords owasp = new Passwords(vertx, 1, 8, Passwords.MEMORY_KIB, Passwords.ITERATIONS);
    try {
      String cheapHash = Await.result(cheap.hash("correct horse battery"));
      String owaspHash = Await.result(owasp.hash("correct horse battery"));
      assertTrue(cheapHash.startsWith("$argon2id$v=19$m=1024,t=1,p=1$"), cheapHash);
      assertTrue(owaspHash.startsWith("$argon2id$v=19$m=19456,t=2,p=1$"), owaspHash);

      // each instance verifies the other's hash with the parameters written in it
      assertTrue(Await.result(cheap.verify("correct horse battery", owaspHash)));
      assertTrue(Await.result(owasp.verify("correct horse battery", cheapHash)));
      assertFalse(Await.result(cheap.verify("correct horse batterY", owaspHash)));
      assertFalse(Await.result(owasp.verify("correct horse batterY", cheapHash)));
      // no account: checked against the dummy hash, never true
      assertFalse(Await.result(cheap.verify("correct horse battery", null)));
    } finally {
      cheap.close();
      owasp.close();
    }
  }

  @Test
  @DisplayName("the cost defaults to OWASP's 19 MiB and two passes; values out of range refuse to start")
  void settings() {
    AccountsSettings defaults = AccountsSettings.from(new JsonObject());
    assertEquals(19 * 1024, defaults.argon2MemoryKib());
    assertEquals(2, defaults.argon2Iterations());
    AccountsSettings set = AccountsSettings.from(new JsonObject().put("argon2-memory-kib", 65536)
        .put("argon2-iterations", 3));
    assertEquals(65536, set.argon2MemoryKib());
    assertEquals(3, set.argon2Iterations());

    IllegalArgumentException memory = assertThrows(IllegalArgumentException.class,
        () -> AccountsSettings.from(new JsonObject().put("argon2-memory-kib", 512)));
    assertTrue(memory.getMessage().contains("accounts.argon2-memory-kib"), memory.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> AccountsSettings.from(new JsonObject().put("argon2-iterations", 0)));
    assertThrows(IllegalArgumentException.class,
        () -> AccountsSettings.from(new JsonObject().put("argon2-iterations", 17)));
  }
}
