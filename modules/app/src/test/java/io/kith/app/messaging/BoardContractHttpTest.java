package io.kith.app.messaging;

import io.kith.app.support.Contract;
import io.kith.app.support.Reply;
import io.kith.app.support.User;
import io.kith.messaging.api.Whiteboards;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.SecurityRequirement;
import io.vertx.json.schema.JsonSchema;
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
@DisplayName("The whiteboard operations' contract: every operation mounted and only for a verified caller")
class BoardContractHttpTest {

  /** Stable operation ids (clients generate code from them). */
  private static final Set<String> OPERATIONS = Set.of("createBoard", "listBoards", "getBoard", "deleteBoard",
      "listBoardStrokes", "drawStroke", "clearBoard", "addBoardMembers", "removeBoardMember");

  private MessagingKith kith;
  private List<Operation> ops;

  @BeforeAll
  void start() {
    kith = MessagingKith.start();
    ops = Contract.operations("whiteboards");
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("the contract's whiteboard operations are exactly the known ids, each needing a bearer token")
  void operationIds() {
    Set<String> ids = ops.stream().map(Operation::getOperationId).collect(Collectors.toCollection(TreeSet::new));
    assertEquals(new TreeSet<>(OPERATIONS), ids);
    for (Operation op : ops) {
      List<SecurityRequirement> security = op.getSecurityRequirements();
      assertTrue(security.stream().anyMatch(r -> r.getNames().equals(Set.of("bearerAuth"))), op.getOperationId());
      assertTrue(security.stream().noneMatch(SecurityRequirement::isEmpty),
          op.getOperationId() + " is never anonymous");
    }
  }

  /** The request body schema of an operation. */
  private JsonObject body(String operationId) {
    Operation op = ops.stream().filter(o -> o.getOperationId().equals(operationId)).findFirst().orElseThrow();
    JsonSchema schema = op.getRequestBody().getContent().get("application/json").getSchema();
    JsonObject out = new JsonObject();
    schema.fieldNames().forEach(name -> out.put(name, schema.<Object>get(name)));
    return out;
  }

  @Test
  @DisplayName("the contract's limits match the service's: members lists of at most board-members (20), a title "
      + "of at most 100 code points (the validator counts code points, as the service does: 100 emoji pass, 101 not)")
  void limitsMatchTheService() {
    // board-members defaults to 20 (WhiteboardSettings); the service refuses more
    JsonObject create = body("createBoard").getJsonObject("properties");
    assertEquals(20, create.getJsonObject("members").getInteger("maxItems"));
    assertEquals(Whiteboards.MAX_TITLE, create.getJsonObject("title").getInteger("maxLength"));
    User me = kith.register();
    String emoji = new String(Character.toChars(0x1F600));
    kith.post("/boards", me, new JsonObject().put("title", emoji.repeat(Whiteboards.MAX_TITLE))).expect(201);
    kith.post("/boards", me, new JsonObject().put("title", emoji.repeat(Whiteboards.MAX_TITLE + 1)))
        .problem(400, "validation_failed", "title");
    assertEquals(20, body("addBoardMembers").getJsonObject("properties").getJsonObject("users")
        .getInteger("maxItems"));
  }

  @Test
  @DisplayName("every whiteboard operation is mounted: with a token it answers 2xx, without one 401")
  void everyOperationMounted() {
    User me = kith.register();
    User friend = kith.register();
    User other = kith.register();
    for (User u : List.of(friend, other)) {
      kith.follow(me, u);
      kith.follow(u, me);
    }
    Map<String, JsonObject> bodies = Map.of(
        "createBoard", new JsonObject().put("title", "contract"),
        "drawStroke", BoardHttpTest.stroke(2),
        "addBoardMembers", new JsonObject().put("users", new JsonArray().add(other.id())));
    for (Operation op : ops) {
      // a board of its own for each operation: some of them delete it or change its members
      JsonObject board = kith.post("/boards", me, new JsonObject().put("title", "c")
          .put("members", new JsonArray().add(friend.id()))).expect(201);
      String path = op.getOpenAPIPath().replace("{boardId}", Long.toString(board.getLong("id")))
          .replace("{userId}", friend.path());
      JsonObject body = bodies.get(op.getOperationId());
      Reply reply = kith.call(op.getHttpMethod(), path, me.access(), body);
      assertTrue(reply.status() >= 200 && reply.status() < 300, op.getOperationId() + " " + path + " answered "
          + reply.status() + " " + reply.text());
      kith.call(op.getHttpMethod(), path, null, body).problem(401, "unauthenticated");
      kith.call(op.getHttpMethod(), path, "not-a-token", body).problem(401, "token_invalid");
    }
  }
}
