package io.kith.app.moderation;

import io.kith.app.support.Conformance;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("The operators' system overview over HTTP: nodes, their modules, readiness and meters, for moderators only")
class SystemOverviewHttpTest {

  private OperatorKith operators;
  private TestKith kith;

  @BeforeAll
  void start() {
    operators = OperatorKith.start(OperatorKith.MODULES, new JsonObject());
    kith = operators.kith();
  }

  @AfterAll
  void stop() {
    if (operators != null) {
      kith.close();
    }
  }

  private static JsonObject check(JsonObject node, String name) {
    return node.getJsonArray("checks").stream().map(JsonObject.class::cast)
        .filter(c -> name.equals(c.getString("name"))).findFirst()
        .orElseThrow(() -> new AssertionError("no check " + name + " in " + node.encode()));
  }

  @Test
  @DisplayName("an admin sees the one node, every module it runs, its stores ready and its meters, as the document says")
  void adminSeesTheNode() {
    kith.get("/ping", null).expect(200); // at least one request served before the roll call
    JsonObject overview = kith.get("/admin/system", operators.admin()).expect(200);
    assertEquals(List.of(), Conformance.load().problems("getSystemOverview", 200, overview));
    assertFalse(overview.getBoolean("clustered"));
    assertEquals(1, overview.getInteger("members"));
    JsonArray nodes = overview.getJsonArray("nodes");
    assertEquals(1, nodes.size(), nodes.encode());
    JsonObject node = nodes.getJsonObject(0);
    assertEquals(Set.of(OperatorKith.MODULES), Set.copyOf(node.getJsonArray("modules").getList())); // in start order
    assertTrue(check(node, "redis").getBoolean("ok"), node.encode());
    assertTrue(check(node, "mongo").getBoolean("ok"), node.encode());
    assertTrue(check(node, "service kith.moderation").getBoolean("ok"), node.encode());
    JsonObject metrics = node.getJsonObject("metrics");
    assertTrue(metrics.getLong("http_requests") > 0, metrics.encode());
    assertTrue(metrics.getLong("http_time_ms") >= 0, metrics.encode());
  }

  @Test
  @DisplayName("a moderator sees the overview; a plain user is refused with role_required, a caller without a token with 401")
  void onlyOperators() {
    User moderator = operators.moderator();
    assertEquals(1, kith.get("/admin/system", moderator).expect(200).getJsonArray("nodes").size());
    kith.get("/admin/system", kith.register()).problem(403, "role_required");
    kith.get("/admin/system", null).problem(401, "unauthenticated");
  }

  @Test
  @DisplayName("an undeclared query parameter is refused with 400, not ignored")
  void badInput() {
    kith.get("/admin/system?verbose=1", operators.admin()).problem(400, "unknown_query_parameter", "verbose");
  }
}
