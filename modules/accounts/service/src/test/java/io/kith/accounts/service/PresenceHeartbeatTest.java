package io.kith.accounts.service;

import io.kith.accounts.api.AccountsInternal;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.BulkOperation;
import io.vertx.serviceproxy.ServiceProxyBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The presence heartbeat of a busy gateway against a Redis client with a small wait queue: a heartbeat for thousands
 * of users must be pipelined and bounded, not one request per user all at once (which overflows the queue and makes
 * every other Redis user of the node fail at that moment).
 *
 * <p>Every user comes online with the heartbeat (as after Redis lost its presence keys), so each also gets its
 * last_active, push and event. That work is bound by the embedded MongoDB on a shared 2-core machine, not by Redis:
 * the heartbeat goes through a proxy with a longer reply timeout than the gateway's, since this test is about not
 * flooding Redis, not about speed.
 */
class PresenceHeartbeatTest extends AccountsTestBase {

  private static final int USERS = 6_000;
  private static final int POOL_SIZE = 4;
  private static final int POOL_WAITING = 64;
  private static final long SLOW_MS = 120_000;

  @Override
  protected JsonObject overrides() {
    return new JsonObject().put("redis", new JsonObject()
        .put("max-pool-size", POOL_SIZE)
        .put("max-pool-waiting", POOL_WAITING));
  }

  /**
   * Stores {@code n} accounts directly in the record (registering them through Argon2id would take minutes here);
   * returns their ids.
   */
  private List<Long> seedAccounts(int n) throws Exception {
    List<Long> ids = new ArrayList<>(n);
    List<BulkOperation> inserts = new ArrayList<>(n);
    long created = System.currentTimeMillis() - 3_600_000;
    for (int i = 0; i < n; i++) {
      long id = platform.ids().next();
      String username = "hb" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
      ids.add(id);
      inserts.add(BulkOperation.createInsert(new JsonObject().put("_id", id).put("username", username)
          .put("username_lc", username).put("created", created).put("last_active", created)
          .put("settings", new JsonObject())));
    }
    await(platform.mongo().bulkWrite(AccountStore.COLLECTION, inserts));
    return ids;
  }

  @Test
  @DisplayName("a heartbeat of 6,000 users in one call, on a Redis client that lets 64 requests wait, succeeds, "
      + "makes every user online, and leaves Redis to other callers meanwhile")
  void largeHeartbeatDoesNotFloodRedis() throws Exception {
    long viewer = newUser();
    List<Long> users = seedAccounts(USERS);
    JsonObject heartbeat = new JsonObject();
    for (int i = 0; i < users.size(); i++) {
      JsonArray connections = new JsonArray().add("conn-" + UUID.randomUUID());
      if (i % 10 == 0) {
        // some users have a second device
        connections.add("conn-" + UUID.randomUUID());
      }
      heartbeat.put(Long.toString(users.get(i)), connections);
    }

    AccountsInternal patient = new ServiceProxyBuilder(vertx).setAddress(AccountsInternal.ADDRESS)
        .setOptions(new DeliveryOptions().setSendTimeout(SLOW_MS)).build(AccountsInternal.class);
    Future<Void> alive = patient.connectionsAlive(heartbeat);
    // other work of the node that needs Redis while the heartbeat runs
    List<Future<JsonObject>> meanwhile = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      meanwhile.add(accounts.presence(viewer, List.of(viewer, users.get(i))));
    }
    alive.toCompletionStage().toCompletableFuture().get(SLOW_MS, TimeUnit.MILLISECONDS);
    for (Future<JsonObject> other : meanwhile) {
      JsonObject seen = await(other);
      assertTrue(seen.containsKey(Long.toString(viewer)), seen.encode());
    }

    List<Long> offline = new ArrayList<>();
    for (int from = 0; from < users.size(); from += AccountsServiceImpl.MAX_IDS) {
      List<Long> page = users.subList(from, Math.min(users.size(), from + AccountsServiceImpl.MAX_IDS));
      JsonObject seen = await(accounts.presence(viewer, page));
      assertEquals(page.size(), seen.size(), "every seeded account is known");
      for (Long id : page) {
        if (!seen.getJsonObject(Long.toString(id)).getBoolean("online")) {
          offline.add(id);
        }
      }
    }
    assertEquals(List.of(), offline, offline.size() + " of " + USERS + " users are not online after the heartbeat");
  }
}
