package io.kith.app.messaging;

import io.kith.app.support.BridgeSocket;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One Kith node (accounts, relations, messaging and gateway, real wiring, in-process) for one test class, and an
 * HTTP client and bridge sockets that talk to it as an app does. Tests make their own users.
 */
final class MessagingKith extends TestKith {

  private MessagingKith(JsonObject overrides) {
    super(overrides, "g");
  }

  static MessagingKith start() {
    return start(new JsonObject());
  }

  /** A node whose {@code messaging} configuration section has these overrides. */
  static MessagingKith start(JsonObject messaging) {
    return new MessagingKith(config("accounts", "relations", "messaging", "gateway")
        .put("messaging", messaging.copy()));
  }

  /** A node whose {@code kith} configuration section has these overrides (its shutdown grace, say). */
  static MessagingKith startNode(JsonObject kith) {
    JsonObject config = config("accounts", "relations", "messaging", "gateway");
    config.getJsonObject("kith").mergeIn(kith);
    return new MessagingKith(config);
  }

  /** Sends a text message over HTTP; returns the stored message. */
  JsonObject message(User from, User to, String text) {
    return post("/direct/" + to.path() + "/messages", from, new JsonObject().put("text", text)
        .put("client_id", UUID.randomUUID().toString())).expect(201).getJsonObject("message");
  }

  /** Creates a topic group ({@code "topic"}) or a friend group ({@code "friends"}) owned by {@code owner}; its id. */
  long group(User owner, String kind) {
    JsonObject spec = new JsonObject().put("kind", kind).put("name", unique("Group "));
    if (kind.equals("topic")) {
      spec.put("topic", "testing");
    }
    return post("/groups", owner, spec).expect(201).getLong("id");
  }

  /** Sends a text message to a group over HTTP; returns the stored message. */
  JsonObject groupMessage(User from, long group, String text) {
    return post("/groups/" + group + "/messages", from, new JsonObject().put("text", text)
        .put("client_id", UUID.randomUUID().toString())).expect(201).getJsonObject("message");
  }

  /** Every message after {@code afterSeq}, following after_seq with pages of {@code limit}. */
  List<JsonObject> since(User as, long conversation, long afterSeq, int limit) {
    List<JsonObject> out = new ArrayList<>();
    long after = afterSeq;
    for (int pages = 0; pages < 1000; pages++) {
      JsonObject page = get("/conversations/" + conversation + "/messages?after_seq=" + after + "&limit=" + limit, as)
          .expect(200);
      if (page.getJsonArray("items").isEmpty()) {
        return out;
      }
      page.getJsonArray("items").forEach(m -> out.add((JsonObject) m));
      after = out.get(out.size() - 1).getLong("seq");
    }
    throw new AssertionError("paging never ended");
  }

  /** Connects a socket registered on the user's address and waits until a probe published there arrives. */
  BridgeSocket connect(User user) {
    return bridge(user);
  }
}
