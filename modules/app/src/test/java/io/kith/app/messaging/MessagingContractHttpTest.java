package io.kith.app.messaging;

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
@DisplayName("The messaging operations' contract: every operation mounted and only for a verified caller")
class MessagingContractHttpTest {

  /** Stable operation ids (clients generate code from them). */
  private static final Set<String> OPERATIONS = Set.of("sendDirectMessage", "getDirectConversation", "listConversations", "getConversation",
      "listMessages", "markConversationRead", "sendTyping", "recallMessage", "listMessageReaders",
      "getMessagingSettings",
      "updateMessagingSettings", "createChatGroup", "searchChatGroups", "getChatGroup", "updateChatGroup",
      "dissolveChatGroup", "joinChatGroup", "leaveChatGroup", "inviteToChatGroup", "listChatGroupMembers",
      "kickChatGroupMember", "setChatGroupMemberRole", "sendGroupMessage", "listGroupInvitations",
      "declineGroupInvitation");

  private MessagingKith kith;
  private List<Operation> ops;

  @BeforeAll
  void start() {
    kith = MessagingKith.start();
    ops = Contract.operations("messaging");
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("the contract's messaging operations are exactly the known ids, each needing a bearer token")
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
  @DisplayName("every messaging operation is mounted: with a token it answers 2xx, without one 401")
  void everyOperationMounted() {
    User me = kith.register();
    User other = kith.register();
    JsonObject message = kith.message(me, other, "for the contract");
    kith.follow(me, other);
    kith.follow(other, me);
    Map<String, JsonObject> bodies = Map.ofEntries(
        Map.entry("sendDirectMessage", new JsonObject().put("client_id", "contract").put("text", "hi")),
        Map.entry("markConversationRead", new JsonObject().put("seq", 1)),
        Map.entry("updateMessagingSettings", new JsonObject().put("read_receipts", false)),
        Map.entry("createChatGroup", new JsonObject().put("kind", "topic").put("name", "Contract").put("topic", "c")),
        Map.entry("updateChatGroup", new JsonObject().put("name", "Contract renamed")),
        Map.entry("inviteToChatGroup", new JsonObject().put("users", new JsonArray().add(other.id()))),
        Map.entry("setChatGroupMemberRole", new JsonObject().put("role", "admin")),
        Map.entry("sendGroupMessage", new JsonObject().put("client_id", "contract-group").put("text", "hi all")));
    for (Operation op : ops) {
      String path = op.getOpenAPIPath().replace("{userId}", other.path())
          .replace("{conversationId}", Long.toString(message.getLong("conversation")))
          .replace("{messageId}", Long.toString(message.getLong("id")));
      if (path.contains("{groupId}")) {
        path = path.replace("{groupId}", Long.toString(groupFor(op.getOperationId(), me, other)));
      }
      if (op.getOperationId().equals("searchChatGroups")) {
        path += "?q=contract";
      }
      JsonObject body = bodies.get(op.getOperationId());
      Reply reply = kith.call(op.getHttpMethod(), path, me.access(), body);
      assertTrue(reply.status() >= 200 && reply.status() < 300, op.getOperationId() + " " + path + " answered "
          + reply.status() + " " + reply.text());
      kith.call(op.getHttpMethod(), path, null, body).problem(401, "unauthenticated");
      kith.call(op.getHttpMethod(), path, "not-a-token", body).problem(401, "token_invalid");
    }
  }

  /** A fresh group in which {@code operation} succeeds for {@code me}, with {@code other} as a member if needed. */
  private long groupFor(String operation, User me, User other) {
    switch (operation) {
      case "joinChatGroup":
        return kith.group(other, "topic");
      case "leaveChatGroup":
      case "kickChatGroupMember":
      case "setChatGroupMemberRole": {
        long id = operation.equals("leaveChatGroup") ? kith.group(other, "topic") : kith.group(me, "topic");
        kith.post("/groups/" + id + "/join", operation.equals("leaveChatGroup") ? me : other, null).expect(200);
        return id;
      }
      default:
        return kith.group(me, "topic");
    }
  }
}
