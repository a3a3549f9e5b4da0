package io.kith.app.activities;

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

import static io.kith.app.activities.ActivitiesKith.activity;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("The activities operations' contract: every operation mounted and only for a verified caller")
class ActivitiesContractHttpTest {

  /** Stable operation ids (clients generate code from them), one per service method offered over HTTP. */
  private static final Set<String> OPERATIONS = Set.of("createActivity", "getActivity", "updateActivity",
      "cancelActivity", "inviteToActivity", "removeActivityParticipant", "joinActivity", "leaveActivity",
      "listActivityParticipants", "listOrganisedActivities", "listJoinedActivities", "listNearbyActivities",
      "listFriendsActivities");

  private ActivitiesKith kith;
  private List<Operation> ops;

  @BeforeAll
  void start() {
    kith = ActivitiesKith.start();
    ops = Contract.operations("activities");
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("the contract's activities operations are exactly the known ids, each needing a bearer token")
  void operationIds() {
    Set<String> ids = ops.stream().map(Operation::getOperationId).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(new TreeSet<>(OPERATIONS), ids);
    for (Operation op : ops) {
      List<SecurityRequirement> security = op.getSecurityRequirements();
      assertTrue(security.stream().anyMatch(r -> r.getNames().equals(Set.of("bearerAuth"))), op.getOperationId());
      assertTrue(security.stream().noneMatch(SecurityRequirement::isEmpty),
          op.getOperationId() + " is never anonymous");
      assertTrue(op.getTags().equals(List.of("activities")), op.getOperationId() + " is tagged activities only");
    }
  }

  @Test
  @DisplayName("every activities operation is mounted: with a token it answers 2xx, without one or with a bad one 401")
  void everyOperationMounted() {
    User me = kith.register();
    User other = kith.register();
    JsonObject mine = kith.create(me, activity("Contract").put("capacity", 10));
    kith.put("/activities/" + mine.getLong("id") + "/participation", other, null).expect(200);
    // joining and leaving are for someone else's activity (an organiser does not join their own)
    JsonObject theirs = kith.create(other, activity("Contract, theirs"));
    Set<String> asParticipant = Set.of("joinActivity", "leaveActivity");
    Map<String, JsonObject> bodies = Map.of(
        "createActivity", activity("Contract create"),
        "updateActivity", new JsonObject().put("title", "Contract edit"),
        "inviteToActivity", new JsonObject().put("users", new JsonArray().add(other.id())));
    // the writes that end something (cancel, remove) run last, on their own activity
    List<Operation> ordered = ops.stream().sorted((a, b) -> Boolean.compare(ending(a), ending(b))).toList();
    for (Operation op : ordered) {
      JsonObject target = asParticipant.contains(op.getOperationId()) ? theirs : mine;
      String path = op.getOpenAPIPath().replace("{activityId}", Long.toString(target.getLong("id")))
          .replace("{userId}", other.path());
      if (op.getOperationId().equals("listNearbyActivities")) {
        path += "?lat=10&lon=20&radius_km=5";
      }
      JsonObject body = bodies.get(op.getOperationId());
      Reply reply = kith.call(op.getHttpMethod(), path, me.access(), body);
      assertTrue(reply.status() >= 200 && reply.status() < 300, op.getOperationId() + " " + path + " answered "
          + reply.status() + " " + reply.text());
      kith.call(op.getHttpMethod(), path, null, body).problem(401, "unauthenticated");
      kith.call(op.getHttpMethod(), path, "not-a-token", body).problem(401, "token_invalid");
    }
  }

  private static boolean ending(Operation op) {
    return op.getOperationId().equals("cancelActivity") || op.getOperationId().equals("removeActivityParticipant");
  }
}
