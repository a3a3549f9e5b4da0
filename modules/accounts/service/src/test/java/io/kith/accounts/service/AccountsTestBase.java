package io.kith.accounts.service;

import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.ModuleTestBase;
import io.kith.platform.testkit.Outbox;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;


/**
 * Deploys the accounts module on the test stores once per class and calls it through its event-bus proxy, the way
 * the gateway and other domains do. Each test makes its own users (unique names), so tests do not depend on each
 * other.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AccountsTestBase extends ModuleTestBase {

  protected AccountsService accounts;
  protected AccountsInternal accountsInternal;

  /** Configuration overrides for the class (e.g. tighter limits). */
  protected JsonObject overrides() {
    return new JsonObject();
  }

  @BeforeAll
  void deploy() throws Exception {
    startPlatform(overrides());
    await(KithTestKit.deploy(platform, new AccountsModule()));
    accounts = AccountsService.proxy(vertx);
    accountsInternal = AccountsInternal.proxy(vertx);
  }

  /** Asserts that {@code future} fails with {@code code} naming {@code field} (debug info {@code field}). */
  protected static Throwable failsWithField(String code, String field, Future<?> future) {
    return failsWith(code, field, future);
  }

  /** Polls {@code condition} every 25 ms until it yields true; fails the test after {@code timeout}. */
  protected void poll(String what, Duration timeout, Supplier<Future<Boolean>> condition) throws Exception {
    await(Poll.until(vertx, timeout, what, condition));
  }

  private static final AtomicLong PHONES = new AtomicLong(ThreadLocalRandom.current().nextLong(100_000_000L,
      800_000_000L));

  /** A phone number in international form that no other test uses. */
  protected static String newPhone() {
    return "+8613" + PHONES.incrementAndGet();
  }

  /** A unique, valid username. */
  protected static String newUsername() {
    return "u" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
  }

  /** A unique client address, so per-address limits of one test do not reach another. */
  protected static String newAddress() {
    return "10." + (int) (Math.random() * 250) + "." + (int) (Math.random() * 250) + "." + (int) (Math.random() * 250)
        + "-" + UUID.randomUUID();
  }

  /** Registers a fresh user; returns {user, tokens}. */
  protected JsonObject register(JsonObject extra) throws Exception {
    JsonObject req = new JsonObject().put("username", newUsername()).put("password", "correct horse battery")
        .mergeIn(extra);
    return await(accounts.register(req, newAddress()));
  }

  /**
   * Registers a fresh user and verifies the email and phone of {@code extra} with the codes the development outbox
   * received (only verified identifiers are found by address-book lookup or shown to others); returns {user, tokens}.
   */
  protected JsonObject registerVerified(JsonObject extra) throws Exception {
    JsonObject registered = register(extra);
    long id = idOf(registered);
    for (String channel : List.of("email", "phone")) {
      if (extra.getString(channel) != null) {
        String target = registered.getJsonObject("user").getString(channel);
        await(accounts.confirmVerification(id, channel, await(Outbox.code(vertx, target))));
      }
    }
    return registered;
  }

  /** Registers {@code n} fresh users in parallel (hashing runs on the module's worker pool); returns {user, tokens}s. */
  protected List<JsonObject> registerMany(int n) throws Exception {
    List<Future<JsonObject>> all = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      all.add(accounts.register(new JsonObject().put("username", newUsername()).put("password", "correct horse battery"),
          newAddress()));
    }
    await(Future.all(all));
    List<JsonObject> out = new ArrayList<>();
    for (Future<JsonObject> f : all) {
      out.add(f.result());
    }
    return out;
  }

  /** Registers a fresh user and returns only its id. */
  protected long newUser() throws Exception {
    return idOf(register(new JsonObject()));
  }

  /** Updates the profile of {@code actor}; returns the own view after the update. */
  protected JsonObject patch(long actor, JsonObject changes) throws Exception {
    return await(accounts.updateProfile(actor, changes));
  }

  protected long idOf(JsonObject registered) {
    return registered.getJsonObject("user").getLong("id");
  }
}
