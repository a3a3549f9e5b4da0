package io.kith.app.push;

import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.kith.app.push.PushTargetsHttpTest.apns;
import static io.kith.app.push.PushTargetsHttpTest.apnsToken;
import static io.kith.app.support.TestNode.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Push delivery's per-user rate: past push.pushes-per-minute a notification is stored but not pushed")
class PushRateHttpTest {

  private static final int PER_MINUTE = 2;

  @TempDir
  static Path dir;
  private ProviderEndpoints endpoints;
  private PushKith kith;

  @BeforeAll
  void start() throws Exception {
    endpoints = new ProviderEndpoints(dir);
    kith = PushKith.start(endpoints.pushSection(WebPushSubscriber.pair()).put("pushes-per-minute", PER_MINUTE));
  }

  @AfterAll
  void stop() {
    ProviderEndpoints.close(kith, endpoints);
  }

  private long pushesTo(String token) {
    return endpoints.apns.stream().filter(p -> p.token().equals(token)).count();
  }

  private void awaitPushes(String token, long count) {
    Await.result(Poll.until(kith.client(), WAIT, count + " pushes to " + token,
        () -> Future.succeededFuture(pushesTo(token) >= count)));
  }

  @Test
  @DisplayName("a user followed three times within a minute gets two pushes and three notifications")
  void limited() {
    User alice = kith.register();
    String token = apnsToken();
    kith.post("/me/push-targets", alice, apns(token)).expect(201);
    for (int i = 0; i < PER_MINUTE + 1; i++) {
      kith.follow(kith.register(), alice);
    }
    kith.awaitPage("/notifications", alice, "three notifications", p -> p.getJsonArray("items").size() == 3);
    awaitPushes(token, PER_MINUTE);

    // another user's push behind alice's three on the stream, delivered in order: once it arrives, all were handled
    User zed = kith.register();
    String marker = apnsToken();
    kith.post("/me/push-targets", zed, apns(marker)).expect(201);
    kith.follow(kith.register(), zed);
    awaitPushes(marker, 1);
    assertEquals(PER_MINUTE, pushesTo(token));
    assertEquals(List.of(1, 2), endpoints.apns.stream().filter(p -> p.token().equals(token))
        .map(p -> p.payload().getJsonObject("aps").getInteger("badge")).sorted().toList(),
        "the pushes that went are the first two");
  }
}
