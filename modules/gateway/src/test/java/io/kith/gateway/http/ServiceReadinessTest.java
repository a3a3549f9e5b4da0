package io.kith.gateway.http;

import io.kith.gateway.support.TestGateway;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Readiness of a gateway depends on its services being reachable on some node")
class ServiceReadinessTest {

  private TestGateway gateway;

  @AfterEach
  void tearDown() {
    if (gateway != null) {
      gateway.close();
    }
  }

  private static String status(HttpResponse<Buffer> ready, String check) {
    return ready.bodyAsJsonObject().getJsonArray("checks").stream().map(c -> (JsonObject) c)
        .filter(c -> check.equals(c.getString("id"))).map(c -> c.getString("status")).findFirst().orElse(null);
  }

  @Test
  @DisplayName("a gateway whose service runs on no node answers /ready 503 naming it, and 200 once a consumer of its "
      + "address exists; the ping never reaches the service")
  void serviceOnNoNode(Vertx vertx) {
    String address = "kith.test.service." + KithTestKit.newUserId();
    String check = "service " + address;
    gateway = TestGateway.start(vertx, new JsonObject(),
        platform -> HealthRoutes.addServiceChecks(platform, List.of(address)));

    HttpResponse<Buffer> down = gateway.get("/ready", null);
    assertEquals(503, down.statusCode(), down.bodyAsString());
    assertEquals("DOWN", status(down, check), down.bodyAsString());
    assertEquals("UP", status(down, "redis"), down.bodyAsString());

    AtomicInteger calls = new AtomicInteger();
    MessageConsumer<Object> service = vertx.eventBus().consumer(address, msg -> calls.incrementAndGet());
    io.kith.platform.testkit.Await.result(service.completion());
    HttpResponse<Buffer> up = gateway.get("/ready", null);
    assertEquals(200, up.statusCode(), up.bodyAsString());
    assertEquals("UP", status(up, check), up.bodyAsString());
    assertEquals(0, calls.get(), "the service handled a readiness ping");
    assertTrue(up.bodyAsString().contains(address));
  }
}
