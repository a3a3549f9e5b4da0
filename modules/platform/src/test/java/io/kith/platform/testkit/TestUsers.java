package io.kith.platform.testkit;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static io.kith.platform.testkit.ServiceTestBase.await;

/**
 * Fresh users for service tests, registered through the accounts service's register operation (passed in as
 * {@code accounts::register}, so that the platform test kit needs no accounts types). Names are unique, so tests
 * never see each other's users.
 */
public final class TestUsers {

  /** The password of every test user. */
  public static final String PASSWORD = "correct horse battery";

  /** The accounts service's register operation: (request, client address) to {user, tokens}. */
  @FunctionalInterface
  public interface Registrar {
    /** Registers the user of {@code request} as if from {@code clientAddress}. */
    Future<JsonObject> register(JsonObject request, String clientAddress);
  }

  private TestUsers() {
  }

  /** A unique, valid username starting with {@code prefix}. */
  public static String username(String prefix) {
    return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }

  /**
   * Registers a fresh user named {@code prefix...} from a client address of its own (so per-address limits of one
   * test never reach another); completes with the user's view.
   */
  public static Future<JsonObject> register(Registrar accounts, String prefix) {
    return accounts.register(new JsonObject().put("username", username(prefix)).put("password", PASSWORD),
        "test-" + UUID.randomUUID()).map(r -> r.getJsonObject("user"));
  }

  /**
   * Registers {@code n} fresh users and returns their ids, at most {@code wave} at a time, so that no registration
   * waits in the hashing queue longer than the proxy's timeout.
   */
  public static List<Long> newUsers(Registrar accounts, String prefix, int n, int wave) throws Exception {
    List<Long> ids = new ArrayList<>();
    while (ids.size() < n) {
      List<Future<JsonObject>> calls = new ArrayList<>();
      for (int i = 0; i < Math.min(wave, n - ids.size()); i++) {
        calls.add(register(accounts, prefix));
      }
      await(Future.all(calls));
      calls.forEach(f -> ids.add(f.result().getLong("id")));
    }
    return ids;
  }
}
