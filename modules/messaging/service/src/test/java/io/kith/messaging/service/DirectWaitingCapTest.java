package io.kith.messaging.service;

import io.kith.accounts.api.AccountsService;
import io.kith.accounts.service.AccountsModule;
import io.kith.messaging.api.MessagingService;
import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.ServiceTestBase;
import io.kith.platform.testkit.StallingProxy;
import io.kith.platform.testkit.TestUsers;
import io.kith.relations.service.RelationsModule;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-node cap on direct sends waiting for the store ({@code messaging.direct-waiting-max}), with MongoDB behind a
 * proxy that can stall: while it does, the batch in flight never returns and the sends behind it wait, so the queue
 * fills exactly as on an overloaded store, and one send more is refused. The rest of the node (Redis, the other
 * services) keeps answering; MongoDB's socket timeout is raised so that the stall, not the driver, decides.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Direct sends waiting for the store are capped per node")
class DirectWaitingCapTest extends ServiceTestBase {

  private static final int CAP = 2;

  private Vertx vertx;
  private StallingProxy mongo;
  private Platform platform;
  private AccountsService accounts;
  private MessagingService messaging;

  @BeforeAll
  void deploy() throws Exception {
    vertx = Vertx.vertx();
    URI target = URI.create(KithTestKit.mongoUrl());
    mongo = await(StallingProxy.start(vertx, target.getHost(), target.getPort()));
    String url = "mongodb://127.0.0.1:" + mongo.port();
    platform = await(Platform.start(vertx, KithTestKit.config(new JsonObject()
            .put("mongo", new JsonObject().put("url", url).put("socket-timeout-ms", 120_000))
            .put("accounts", new JsonObject().put("register-max-per-address", 100_000))
            .put("messaging", new JsonObject().put("direct-waiting-max", CAP))),
        KithTestKit.redisUrl(), url));
    await(KithTestKit.deploy(platform, new AccountsModule(), new RelationsModule(), new MessagingModule()));
    accounts = AccountsService.proxy(vertx);
    messaging = MessagingService.proxy(vertx);
  }

  @AfterAll
  void undeploy() throws Exception {
    if (mongo != null) {
      mongo.stall(false);
    }
    if (platform != null) {
      await(platform.close());
    }
    if (mongo != null) {
      mongo.close();
    }
    if (vertx != null) {
      await(vertx.close());
    }
  }

  private static JsonObject text(String text) {
    return new JsonObject().put("client_id", UUID.randomUUID().toString()).put("text", text);
  }

  @Test
  @DisplayName("past the cap a send is refused at once with unavailable and retry_after; every send taken is stored "
      + "once the store answers, in sequence without gaps, and none refused is")
  void refusedPastTheCap() throws Exception {
    List<Long> u = TestUsers.newUsers(accounts::register, "q", 2, 1);
    // the conversation, its last sequence and the checks' caches warm: a send then needs MongoDB for its insert only
    long conversation = await(messaging.send(u.get(0), u.get(1), text("opening"))).getJsonObject("message")
        .getLong("conversation");
    int sent = CAP + 4;
    List<Future<JsonObject>> sends = new ArrayList<>();
    mongo.stall(true);
    try {
      for (int i = 0; i < sent; i++) {
        sends.add(messaging.send(u.get(0), u.get(1), text("n" + i)));
      }
      // one send is in the batch in flight, CAP wait behind it: the others are refused while the store says nothing
      Await.result(Poll.until(vertx, Duration.ofSeconds(60), "the sends past the cap refused",
          () -> Future.succeededFuture(sends.stream().filter(Future::failed).count() == sent - CAP - 1)));
      assertEquals(CAP + 1, sends.stream().filter(f -> !f.isComplete()).count(), "the sends taken still wait");
    } finally {
      mongo.stall(false);
    }

    List<String> taken = new ArrayList<>();
    Set<String> refused = new HashSet<>();
    for (int i = 0; i < sent; i++) {
      if (sends.get(i).failed()) {
        ServiceException e = failsWith("unavailable", sends.get(i));
        long retryAfter = debugInfo(e).getJsonObject("extra").getLong("retry_after");
        assertTrue(retryAfter >= 1, "retry_after " + retryAfter);
        refused.add("n" + i);
      } else {
        JsonObject answer = await(sends.get(i));
        assertFalse(answer.getBoolean("duplicate"));
        taken.add("n" + i);
      }
    }
    assertEquals(CAP + 1, taken.size());

    List<JsonObject> history = await(TestPages.allMessages(messaging, u.get(1), conversation));
    List<Long> seqs = history.stream().map(m -> m.getLong("seq")).toList();
    assertEquals(List.of(1L, 2L, 3L, 4L), seqs, "the opening and every send taken, without gaps");
    Set<String> stored = new HashSet<>();
    history.subList(1, history.size()).forEach(m -> stored.add(m.getString("text")));
    assertEquals(new HashSet<>(taken), stored, "every send answered is stored");
    assertTrue(stored.stream().noneMatch(refused::contains), "no refused send is stored");

    // the queue emptied: the next send is taken again
    assertEquals(5L, await(messaging.send(u.get(1), u.get(0), text("after"))).getJsonObject("message").getLong("seq"));
  }
}
