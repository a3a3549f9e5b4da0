package io.kith.app.notifications;

import io.kith.app.support.Contract;
import io.kith.app.support.Reply;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.SecurityRequirement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("The notifications operations' contract: every operation mounted and only for a verified caller")
class NotificationsContractHttpTest {

  /** Stable operation ids (clients generate code from them). */
  private static final Set<String> OPERATIONS = Set.of("listNotifications", "listGroupedNotifications",
      "getUnreadNotificationCounts", "markNotificationsRead", "deleteNotifications", "getNotificationPreferences",
      "setNotificationPreferences", "muteUserNotifications", "unmuteUserNotifications");

  /** Valid bodies of the operations that take one. */
  private static final Map<String, JsonObject> BODIES = Map.of(
      "markNotificationsRead", new JsonObject().put("all", true),
      "deleteNotifications", new JsonObject().put("ids", new JsonArray().add(1)),
      "setNotificationPreferences", new JsonObject().put("muted_types", new JsonArray().add("like")));

  private NotificationsKith kith;
  private List<Operation> ops;

  @BeforeAll
  void start() {
    kith = NotificationsKith.start();
    ops = Contract.operations("notifications");
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("the contract's notifications operations are exactly the known ids, each needing a bearer token")
  void operationIds() {
    Set<String> ids = ops.stream().map(Operation::getOperationId).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(new TreeSet<>(OPERATIONS), ids);
    for (Operation op : ops) {
      List<SecurityRequirement> security = op.getSecurityRequirements();
      assertTrue(security.stream().anyMatch(r -> r.getNames().equals(Set.of("bearerAuth"))), op.getOperationId());
      assertTrue(security.stream().noneMatch(SecurityRequirement::isEmpty), op.getOperationId() + " is never anonymous");
    }
  }

  @Test
  @DisplayName("every notifications operation is mounted: with a token it answers 2xx, without one 401")
  void everyOperationMounted() {
    User me = kith.register();
    User other = kith.register();
    for (Operation op : ops) {
      String path = op.getOpenAPIPath().replaceAll("\\{[A-Za-z]+}", Long.toString(other.id()));
      JsonObject body = BODIES.get(op.getOperationId());
      Reply reply = kith.call(op.getHttpMethod(), path, me.access(), body);
      assertTrue(reply.status() >= 200 && reply.status() < 300, op.getOperationId() + " " + path + " answered "
          + reply.status() + " " + reply.text());
      kith.call(op.getHttpMethod(), path, null, body).problem(401, "unauthenticated");
      kith.call(op.getHttpMethod(), path, "not-a-token", body).problem(401, "token_invalid");
    }
  }
}
