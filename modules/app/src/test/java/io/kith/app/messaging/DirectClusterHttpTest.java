package io.kith.app.messaging;

import io.kith.app.support.Reply;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.store.FreePorts;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Direct messages sent into one conversation through two clustered Kith nodes at once (each runs accounts, relations,
 * messaging and the gateway, on one Redis and one MongoDB-wire server): each node gives sequences from its own copy of
 * the conversation's last one and writes its sends in batches, so the copies go stale under each other. What users
 * are promised is checked over HTTP: every acknowledged message is stored once, at sequences 1..N without a gap or a
 * duplicate, each client id once, and the conversations list shows the highest sequence and exact unread counts.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Direct messages sent through two clustered nodes at once")
class DirectClusterHttpTest {

  /** Messages each user sends in a burst: under the unread cap (100), so the counts stay exact. */
  private static final int PER_USER = 40;

  private Node nodeA;
  private Node nodeB;

  /** A clustered node with a client pool wide enough for the sends of a burst to arrive together. */
  private static final class Node extends TestKith {

    Node(JsonObject overrides) {
      super(overrides, "dc", new PoolOptions().setHttp1MaxSize(16));
    }
  }

  @BeforeAll
  void startCluster() {
    String clusterName = "kith-test-" + UUID.randomUUID();
    int portA = FreePorts.pick();
    int portB = FreePorts.pick();
    JsonArray members = new JsonArray().add("127.0.0.1:" + portA).add("127.0.0.1:" + portB);
    nodeA = new Node(clustered(clusterName, portA, members));
    nodeB = new Node(clustered(clusterName, portB, members));
    // a request from A to an address only B consumes: both nodes are in one cluster
    String probe = "kith.test.probe." + UUID.randomUUID();
    Await.result(nodeB.kith().vertx().eventBus().consumer(probe, m -> m.reply("B")).completion());
    Await.result(Poll.until(nodeA.client(), TestKith.WAIT.multipliedBy(3), "both nodes in one cluster",
        () -> nodeA.kith().vertx().eventBus().request(probe, "ping").map(r -> true).otherwise(false)));
  }

  private static JsonObject clustered(String clusterName, int hzPort, JsonArray members) {
    return TestKith.config("accounts", "relations", "messaging", "gateway")
        .put("cluster", new JsonObject().put("enabled", true).put("name", clusterName).put("host", "127.0.0.1")
            .put("port", hzPort).put("members", members).put("join-wait-seconds", 0));
  }

  @AfterAll
  void stopCluster() {
    for (Node node : new Node[] {nodeB, nodeA}) {
      if (node != null) {
        node.close();
      }
    }
  }

  /** The other node than {@code node}. */
  private Node other(Node node) {
    return node == nodeA ? nodeB : nodeA;
  }

  /** Sends a direct text message with this client id through {@code node}, without waiting. */
  private static Future<Reply> send(Node node, User from, User to, String clientId) {
    return node.send(HttpMethod.POST, TestKith.API + "/direct/" + to.path() + "/messages", from.access(),
        new JsonObject().put("client_id", clientId).put("text", "from " + from.username() + " " + clientId));
  }

  /** Waits until every one of these requests has its answer (or failed). */
  @SafeVarargs
  private static void awaitAll(List<Future<Reply>>... lists) {
    List<Future<Reply>> all = new ArrayList<>();
    for (List<Future<Reply>> list : lists) {
      all.addAll(list);
    }
    Await.result(Future.join(all));
  }

  /** The acknowledged message of a send's answer (201 new, 200 a retry), failing the test on any other answer. */
  private static JsonObject acknowledged(Reply reply) {
    assertTrue(reply.status() == 201 || reply.status() == 200, "unexpected answer: " + reply.status() + " "
        + reply.text());
    return reply.json().getJsonObject("message");
  }

  /** Every message of a conversation as {@code as} reads it through {@code node}, paging by {@code after_seq}. */
  private static List<JsonObject> history(Node node, User as, long conversation) {
    List<JsonObject> out = new ArrayList<>();
    long after = 0;
    for (int pages = 0; pages < 100; pages++) {
      JsonArray items = node.get("/conversations/" + conversation + "/messages?after_seq=" + after + "&limit=50", as)
          .expect(200).getJsonArray("items");
      if (items.isEmpty()) {
        return out;
      }
      items.forEach(m -> out.add((JsonObject) m));
      after = out.get(out.size() - 1).getLong("seq");
    }
    throw new AssertionError("paging never ended");
  }

  /** The conversation as it shows in {@code as}'s conversations list read through {@code node}. */
  private static JsonObject listed(Node node, User as, long conversation) {
    for (Object item : node.get("/conversations?limit=50", as).expect(200).getJsonArray("items")) {
      if (((JsonObject) item).getLong("id") == conversation) {
        return (JsonObject) item;
      }
    }
    throw new AssertionError("conversation " + conversation + " not in the list of " + as.username());
  }

  /**
   * Asserts the stored history is exactly {@code acked} (message id to client id): sequences 1..N in order, each
   * client id once; returns the history.
   */
  private static List<JsonObject> assertWhole(Node node, User as, long conversation, Map<Long, String> acked) {
    List<JsonObject> history = history(node, as, conversation);
    List<Long> seqs = history.stream().map(m -> m.getLong("seq")).toList();
    assertEquals(LongStream.rangeClosed(1, acked.size()).boxed().toList(), seqs, "sequences 1..N, no gap or twin");
    Map<Long, String> stored = new HashMap<>();
    history.forEach(m -> stored.put(m.getLong("id"), m.getString("client_id")));
    assertEquals(acked, stored, "the stored messages are the acknowledged ones");
    assertEquals(acked.size(), new HashSet<>(stored.values()).size(), "each client id once");
    return history;
  }

  @Test
  @DisplayName("two users sending at once through both nodes, one node's copy of the last sequence stale, each send "
      + "retried at once through the other node: every acknowledged message stored once at sequences 1..N, the "
      + "list's last message the highest and the unread counts exact")
  void concurrentSendsAcrossNodes() {
    User alice = nodeA.register();
    User bob = nodeB.register();
    List<Future<Reply>> firsts = new ArrayList<>();
    List<Future<Reply>> retries = new ArrayList<>();
    List<String> clientIds = new ArrayList<>();
    // B learns sequence 1, then A stores 2..6: B's copy is five behind when the burst starts
    for (int i = 0; i < 6; i++) {
      Node node = i == 0 ? nodeB : nodeA;
      String clientId = UUID.randomUUID().toString();
      clientIds.add(clientId);
      Reply sent = Await.result(send(node, alice, bob, clientId));
      assertEquals(i + 1L, sent.expect(201).getJsonObject("message").getLong("seq"));
      firsts.add(Future.succeededFuture(sent));
      retries.add(send(other(node), alice, bob, clientId));
    }
    for (int i = 0; i < PER_USER; i++) {
      for (User[] pair : new User[][] {{alice, bob}, {bob, alice}}) {
        Node node = i % 2 == 0 ? nodeA : nodeB;
        String clientId = UUID.randomUUID().toString();
        clientIds.add(clientId);
        firsts.add(send(node, pair[0], pair[1], clientId));
        retries.add(send(other(node), pair[0], pair[1], clientId));
      }
    }
    awaitAll(firsts, retries);

    Map<Long, String> acked = new HashMap<>();
    Map<Long, Long> senders = new HashMap<>();
    for (int i = 0; i < firsts.size(); i++) {
      Reply first = firsts.get(i).result();
      Reply retry = retries.get(i).result();
      JsonObject a = acknowledged(first);
      JsonObject b = acknowledged(retry);
      assertEquals(a.getLong("id"), b.getLong("id"), "a send and its retry answer one message");
      assertEquals(Set.of(200, 201), new HashSet<>(List.of(first.status(), retry.status())),
          "one stored (201), one a retry (200)");
      assertEquals(clientIds.get(i), a.getString("client_id"));
      acked.put(a.getLong("id"), a.getString("client_id"));
      senders.put(a.getLong("id"), a.getLong("sender"));
    }
    assertEquals(clientIds.size(), acked.size(), "every client id acknowledged as a message of its own");
    long conversation = firsts.get(0).result().json().getJsonObject("message").getLong("conversation");

    List<JsonObject> history = assertWhole(nodeB, bob, conversation, acked);
    assertEquals(history, history(nodeA, alice, conversation), "both nodes and both users read one history");
    JsonObject highest = history.get(history.size() - 1);
    long fromAlice = senders.values().stream().filter(s -> s == alice.id()).count();
    for (Node node : new Node[] {nodeA, nodeB}) {
      for (User user : new User[] {alice, bob}) {
        JsonObject listed = listed(node, user, conversation);
        assertEquals(acked.size(), listed.getLong("last_seq"), listed.encode());
        assertEquals(highest.getLong("id"), listed.getJsonObject("last_message").getLong("id"), listed.encode());
        assertEquals(user == bob ? fromAlice : acked.size() - fromAlice, listed.getLong("unread"), listed.encode());
      }
    }
  }

  @Test
  @DisplayName("recalls through the other node while both users keep sending through both nodes leave the sequences "
      + "whole; after the highest message is recalled the list shows it recalled, and unread counts leave recalls out")
  void recallsAmongConcurrentSends() {
    User alice = nodeB.register();
    User bob = nodeA.register();
    List<Future<Reply>> sends = new ArrayList<>();
    List<Future<Reply>> recalls = new ArrayList<>();
    for (int i = 0; i < PER_USER; i++) {
      for (User[] pair : new User[][] {{alice, bob}, {bob, alice}}) {
        Node node = i % 2 == 0 ? nodeB : nodeA;
        Future<Reply> sent = send(node, pair[0], pair[1], UUID.randomUUID().toString());
        sends.add(sent);
        if (i % 3 == 0) {
          User sender = pair[0];
          recalls.add(sent.compose(reply -> other(node).send(HttpMethod.POST, TestKith.API + "/messages/"
              + acknowledged(reply).getLong("id") + "/recall", sender.access(), null)));
        }
      }
    }
    awaitAll(sends, recalls);

    Map<Long, String> acked = new HashMap<>();
    sends.forEach(f -> {
      JsonObject m = acknowledged(f.result());
      acked.put(m.getLong("id"), m.getString("client_id"));
    });
    Set<Long> recalled = recalls.stream().map(f -> f.result().expect(200).getLong("id")).collect(Collectors.toCollection(HashSet::new));
    long conversation = sends.get(0).result().json().getJsonObject("message").getLong("conversation");

    List<JsonObject> history = assertWhole(nodeA, alice, conversation, acked);
    history.forEach(m -> assertEquals(recalled.contains(m.getLong("id")), m.getBoolean("recalled", false),
        "recalled exactly when recalled: " + m.encode()));
    JsonObject highest = history.get(history.size() - 1);
    User highestSender = highest.getLong("sender") == alice.id() ? alice : bob;
    Node through = highest.getLong("sender") == alice.id() ? nodeA : nodeB;
    through.post("/messages/" + highest.getLong("id") + "/recall", highestSender, null).expect(200);
    recalled.add(highest.getLong("id"));

    for (Node node : new Node[] {nodeA, nodeB}) {
      for (User user : new User[] {alice, bob}) {
        JsonObject listed = listed(node, user, conversation);
        JsonObject last = listed.getJsonObject("last_message");
        assertNotNull(last, listed.encode());
        assertEquals(highest.getLong("id"), last.getLong("id"), listed.encode());
        assertTrue(last.getBoolean("recalled", false), "the last message shows its recall: " + listed.encode());
        long unread = history.stream().filter(m -> m.getLong("sender") != user.id())
            .filter(m -> !recalled.contains(m.getLong("id"))).count();
        assertEquals(unread, listed.getLong("unread"), listed.encode());
      }
    }
  }

  @Test
  @DisplayName("a group send aimed at a direct conversation's id is refused as no such group and takes none of its "
      + "sequences: the next direct message follows the last without a gap")
  void groupSendIntoDirectConversationRefused() {
    User alice = nodeA.register();
    User bob = nodeB.register();
    JsonObject first = acknowledged(Await.result(send(nodeA, alice, bob, UUID.randomUUID().toString())));
    long conversation = first.getLong("conversation");
    for (Node node : new Node[] {nodeA, nodeB}) {
      node.post("/groups/" + conversation + "/messages", alice, new JsonObject().put("text", "sneaky")
          .put("client_id", UUID.randomUUID().toString())).problem(404, "group_not_found");
    }
    JsonObject second = acknowledged(Await.result(send(nodeB, bob, alice, UUID.randomUUID().toString())));
    assertEquals(2L, second.getLong("seq"));
    assertEquals(List.of(1L, 2L), history(nodeA, bob, conversation).stream().map(m -> m.getLong("seq")).toList());
  }
}
