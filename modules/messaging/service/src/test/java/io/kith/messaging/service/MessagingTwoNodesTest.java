package io.kith.messaging.service;

import io.kith.accounts.api.AccountsService;
import io.kith.accounts.service.AccountsModule;
import io.kith.messaging.api.MessagingService;
import io.kith.platform.Platform;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.ServiceTestBase;
import io.kith.platform.testkit.TestUsers;
import io.kith.relations.service.RelationsModule;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two nodes (two Vert.x instances, each with its own platform, id lease and messaging service) over the same stores:
 * what a cluster does to one conversation when sends arrive on different nodes at once, without the per-node ordering.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Direct messages sent through two nodes at once")
class MessagingTwoNodesTest extends ServiceTestBase {

  private final List<Vertx> vertxes = new ArrayList<>();
  private final List<Platform> platforms = new ArrayList<>();
  private final List<MessagingService> nodes = new ArrayList<>();
  private AccountsService accounts;

  @BeforeAll
  void deploy() throws Exception {
    for (int i = 0; i < 2; i++) {
      Vertx vertx = Vertx.vertx();
      Platform platform = await(KithTestKit.platform(vertx, new JsonObject()
          .put("accounts", new JsonObject().put("register-max-per-address", 100_000))
          .put("messaging", new JsonObject().put("settle-millis", 300))));
      await(KithTestKit.deploy(platform, new AccountsModule(), new RelationsModule(), new MessagingModule()));
      vertxes.add(vertx);
      platforms.add(platform);
      nodes.add(MessagingService.proxy(vertx));
    }
    accounts = AccountsService.proxy(vertxes.get(0));
  }

  @AfterAll
  void undeploy() throws Exception {
    for (Platform p : platforms) {
      await(p.close());
    }
    for (Vertx v : vertxes) {
      await(v.close());
    }
  }

  private List<Long> newUsers(int n) throws Exception {
    // one at a time, as this test has always registered them
    return TestUsers.newUsers(accounts::register, "t", n, 1);
  }

  private static JsonObject text(String text) {
    return new JsonObject().put("client_id", UUID.randomUUID().toString()).put("text", text);
  }

  /** Every message id of the conversation by after_seq paging, as a reconnecting client reads it. */
  private List<Long> readAll(MessagingService node, long user, long conversation) throws Exception {
    return await(readFrom(node, user, conversation, 0, new ArrayList<>()));
  }

  private Future<List<Long>> readFrom(MessagingService node, long user, long conversation, long after,
                                      List<Long> ids) {
    return node.history(user, conversation, new JsonObject(), new PageRequest(4, 0, 0, String.valueOf(after)))
        .map(Page::toJson).compose(page -> {
      if (page.getJsonArray("items").isEmpty()) {
        return Future.succeededFuture(ids);
      }
      long next = after;
      for (Object m : page.getJsonArray("items")) {
        ids.add(((JsonObject) m).getLong("id"));
        next = ((JsonObject) m).getLong("seq");
      }
      return readFrom(node, user, conversation, next, ids);
    });
  }

  @Test
  @DisplayName("concurrent sends on both nodes get distinct sequences, and paging returns each message once, in order")
  void concurrentAcrossNodes() throws Exception {
    List<Long> u = newUsers(2);
    long conversation = await(nodes.get(0).send(u.get(0), u.get(1), text("first")))
        .getJsonObject("message").getLong("conversation");
    List<Future<JsonObject>> sends = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      sends.add(nodes.get(i % 2).send(u.get((i / 2) % 2), u.get(((i / 2) + 1) % 2), text("n" + i)));
    }
    await(Future.all(sends));
    List<JsonObject> sent = sends.stream().map(f -> f.result().getJsonObject("message")).toList();
    Set<Long> seqs = new HashSet<>();
    sent.forEach(m -> seqs.add(m.getLong("seq")));
    assertEquals(30, seqs.size(), "distinct sequences: " + seqs);
    List<Long> expected = new ArrayList<>(sent.stream()
        .sorted((a, b) -> Long.compare(a.getLong("seq"), b.getLong("seq"))).map(m -> m.getLong("id")).toList());
    for (MessagingService node : nodes) {
      List<Long> read = readAll(node, u.get(1), conversation);
      assertEquals(expected, read.subList(1, read.size()), "every message once, by sequence");
    }
  }

  @Test
  @DisplayName("one client id sent through both nodes at once is one message; a hole it may leave is stepped over once settled")
  void sameClientIdOnBothNodes() throws Exception {
    List<Long> u = newUsers(2);
    for (int round = 0; round < 5; round++) {
      JsonObject body = text("retry " + round);
      Future<JsonObject> one = nodes.get(0).send(u.get(0), u.get(1), body);
      Future<JsonObject> two = nodes.get(1).send(u.get(0), u.get(1), body);
      await(Future.all(one, two));
      assertEquals(one.result().getJsonObject("message").getLong("id"),
          two.result().getJsonObject("message").getLong("id"), "round " + round);
    }
    JsonObject last = await(nodes.get(1).send(u.get(0), u.get(1), text("after the races"))).getJsonObject("message");
    long conversation = last.getLong("conversation");
    // once the settle time has passed, after_seq paging reaches the last message across any hole, each message once
    List<List<Long>> read = new ArrayList<>();
    await(Poll.until(vertxes.get(0), Duration.ofSeconds(10), "paging to reach the last message", () ->
        readFrom(nodes.get(0), u.get(1), conversation, 0, new ArrayList<>()).map(ids -> {
          read.clear();
          read.add(ids);
          return !ids.isEmpty() && ids.get(ids.size() - 1).equals(last.getLong("id"));
        })));
    List<Long> ids = read.get(0);
    assertEquals(6, ids.size(), "five raced messages and the last, once each: " + ids);
    assertEquals(6, new HashSet<>(ids).size());
  }
}
