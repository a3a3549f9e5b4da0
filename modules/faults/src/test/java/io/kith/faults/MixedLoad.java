package io.kith.faults;

import io.kith.bench.cluster.KithNode;
import io.kith.bench.cluster.LocalCluster;
import io.vertx.core.json.JsonObject;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bounded mixed load through every gateway, one client thread per kind: chat messages, posts, follows, likes and
 * activity joins. Each operation is retried (same idempotency key) until acknowledged, and each acknowledged one is
 * recorded, so that {@link #assertNothingLost} can check after a fault that every one of them is still there.
 */
final class MixedLoad {

  /** The per-user limits the load would otherwise hit (429 is allowed, but a client stuck on it proves nothing). */
  static final Map<String, String> LIMITS = LocalCluster.LIMITS;

  private static final int USERS = 8;
  private static final int TARGETS = 40;
  private static final int POSTS = 10;
  private static final int ACTIVITIES = 10;

  private final Api api;
  private final Load load;
  private final List<KithNode> gateways;
  private final List<Api.User> users = new ArrayList<>();
  private final List<Api.User> targets = new ArrayList<>();
  private final List<Long> posts = new ArrayList<>();
  private final List<Long> activities = new ArrayList<>();

  private final Collection<JsonObject> messages = new ConcurrentLinkedQueue<>();
  private final Collection<Long> published = new ConcurrentLinkedQueue<>();
  private final Collection<Long> followed = new ConcurrentLinkedQueue<>();
  private final Map<Long, Set<Long>> likers = new ConcurrentHashMap<>();
  private final Map<Long, Set<Long>> joined = new ConcurrentHashMap<>();
  private final AtomicInteger acknowledged = new AtomicInteger();
  private final List<Future<?>> running = new ArrayList<>();
  private final ExecutorService clients = Executors.newFixedThreadPool(5);

  MixedLoad(Api api, Load load, List<KithNode> gateways) {
    this.api = api;
    this.load = load;
    this.gateways = gateways;
  }

  /** Registers the users and makes the posts they like and the activities they join. */
  MixedLoad setUp() {
    for (int i = 0; i < USERS + TARGETS + 1; i++) {
      Api.User user = api.register(gateways.get(i % gateways.size()));
      (i < USERS ? users : targets).add(user);
    }
    Api.User organiser = targets.remove(targets.size() - 1);
    for (int i = 0; i < POSTS; i++) {
      posts.add(api.post(gateways.get(0), "/posts", organiser, new JsonObject().put("text", "liked " + i)
          .put("visibility", "public")).expect(201).getLong("id"));
    }
    long start = System.currentTimeMillis() + TimeUnit.DAYS.toMillis(1);
    for (int i = 0; i < ACTIVITIES; i++) {
      activities.add(api.post(gateways.get(1), "/activities", organiser, new JsonObject().put("title", "joined " + i)
          .put("start", start).put("end", start + TimeUnit.HOURS.toMillis(2))
          .put("place", new JsonObject().put("name", "The old mill"))).expect(201).getLong("id"));
    }
    return this;
  }

  /** Starts the client threads; they run until {@link #stop()} (the finite kinds stop when done). */
  void start() {
    Api.User alice = users.get(0);
    Api.User bob = users.get(1);
    Api.User author = users.get(2);
    Api.User follower = users.get(3);
    run(Integer.MAX_VALUE, (i, node) -> api.post(node, "/direct/" + bob.id() + "/messages", alice,
        new JsonObject().put("client_id", UUID.randomUUID().toString()).put("text", "m" + i)),
        (i, ack) -> messages.add(ack.json().getJsonObject("message")));
    String postIds = UUID.randomUUID().toString();
    // a retry carries the try's client_id, as a client's does: the post must be stored once
    run(Integer.MAX_VALUE, (i, node) -> api.post(node, "/posts", author, new JsonObject().put("text", "p" + i)
        .put("visibility", "public").put("client_id", postIds + ":" + i)),
        (i, ack) -> published.add(ack.json().getLong("id")));
    run(TARGETS, (i, node) -> api.put(node, "/following/" + targets.get(i).id(), follower),
        (i, ack) -> followed.add(targets.get(i).id()));
    run(USERS * POSTS, (i, node) -> api.put(node, "/posts/" + posts.get(i / USERS) + "/like", users.get(i % USERS)),
        (i, ack) -> likers.computeIfAbsent(posts.get(i / USERS), k -> ConcurrentHashMap.newKeySet())
            .add(users.get(i % USERS).id()));
    run(USERS * ACTIVITIES, (i, node) -> api.put(node, "/activities/" + activities.get(i / USERS) + "/participation",
        users.get(i % USERS)),
        (i, ack) -> joined.computeIfAbsent(users.get(i % USERS).id(), k -> ConcurrentHashMap.newKeySet())
            .add(activities.get(i / USERS)));
  }

  /** Operation {@code index} through {@code node}. */
  private interface Operation {
    Api.Reply call(int index, KithNode node);
  }

  /** What to record of an acknowledged operation. */
  private interface Record {
    void accept(int index, Api.Reply ack);
  }

  // One client thread: operations 0..count-1 in order, each retried on the next gateways until acknowledged.
  private void run(int count, Operation operation, Record record) {
    running.add(clients.submit(() -> {
      for (int i = 0; i < count && !load.stopped(); i++) {
        int index = i;
        Api.Reply ack = load.acknowledged(gateways, i, node -> operation.call(index, node));
        if (ack == null) {
          return null; // stopped
        }
        record.accept(i, ack);
        acknowledged.incrementAndGet();
      }
      return null;
    }));
  }

  /** Operations acknowledged so far. */
  int acknowledged() {
    return acknowledged.get();
  }

  /** Stops the clients and waits for them (an operation in progress is given up, not recorded). */
  void stop() throws Exception {
    load.stop();
    for (Future<?> f : running) {
      f.get(5, TimeUnit.MINUTES); // each call has its own deadline (Api.CALL_TIMEOUT): this only catches a hang
    }
    clients.shutdown();
  }

  /** Every acknowledged message, post, follow, like and join is there, read through {@code through}. */
  void assertNothingLost(List<KithNode> through) throws Exception {
    assertNothingLost(through, true);
  }

  /** As {@link #assertNothingLost(List)}; with {@code joins} false, the joined lists are not checked. */
  void assertNothingLost(List<KithNode> through, boolean joins) throws Exception {
    Load reads = new Load();
    assertTrue(!messages.isEmpty() && !published.isEmpty() && !followed.isEmpty() && !likers.isEmpty()
        && !joined.isEmpty(), "the load made messages, posts, follows, likes and joins");
    History.assertHoldsEach(api, through.get(0), users.get(1), messages);
    for (long post : published) {
      reads.acknowledged(through, 0, node -> api.get(node, "/posts/" + post, users.get(5)));
    }
    // each try of the author's has its own text, kept by its retries: a text listed twice is a post stored twice
    List<String> texts = all(reads, through, "/users/" + users.get(2).id() + "/posts", users.get(2)).stream()
        .map(p -> p.getString("text")).toList();
    assertEquals(texts.size(), new HashSet<>(texts).size(), "each post of the load once: " + texts);
    assertTrue(texts.size() >= published.size(), published.size() + " acknowledged posts, listed " + texts.size());
    List<Long> following = userIds(all(reads, through, "/users/" + users.get(3).id() + "/following",
        users.get(3)));
    assertOnceEach(followed, following, "follows");
    for (Map.Entry<Long, Set<Long>> e : likers.entrySet()) {
      List<Long> liked = userIds(all(reads, through, "/posts/" + e.getKey() + "/likes", users.get(0)));
      assertOnceEach(e.getValue(), liked, "likers of " + e.getKey());
    }
    for (Api.User user : joins ? users : List.<Api.User>of()) {
      List<Long> listed = all(reads, through, "/me/activities/joined", user).stream().map(a -> a.getLong("id"))
          .toList();
      assertOnceEach(joined.getOrDefault(user.id(), Set.of()), listed, "joins of " + user.id());
    }
    reads.assertRefusalsAllowed();
  }

  /** Every acknowledged item is listed, and nothing is listed twice. */
  private static void assertOnceEach(Collection<Long> acknowledged, List<Long> listed, String what) {
    assertTrue(listed.containsAll(acknowledged), what + ": listed " + listed + ", acknowledged " + acknowledged);
    assertEquals(listed.size(), new HashSet<>(listed).size(), what + " listed once each: " + listed);
  }

  /** Every page of a list, read through the gateways (100 at a time, following next_cursor). */
  private List<JsonObject> all(Load reads, List<KithNode> through, String path, Api.User as) {
    List<JsonObject> items = new ArrayList<>();
    String cursor = null;
    do {
      String page = path + "?limit=100"
          + (cursor == null ? "" : "&cursor=" + URLEncoder.encode(cursor, StandardCharsets.UTF_8));
      JsonObject reply = reads.acknowledged(through, 0, node -> api.get(node, page, as)).json();
      reply.getJsonArray("items").forEach(item -> items.add((JsonObject) item));
      cursor = reply.getString("next_cursor");
    } while (cursor != null);
    return items;
  }

  private static List<Long> userIds(List<JsonObject> items) {
    return items.stream().map(item -> item.getJsonObject("user").getLong("id")).toList();
  }
}
