package io.kith.app.support;

import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.TestImages;
import io.vertx.core.MultiMap;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@link TestNode} whose tests act as {@link User}s registered over HTTP: the request verbs as a user (or
 * anonymously with a null user), registration, following, bridge sockets on a user's address, and reading pages.
 */
public class TestKith extends TestNode {

  private final String userPrefix;

  /** Starts a node with {@code overrides}; registered usernames start with {@code userPrefix}. */
  protected TestKith(JsonObject overrides, String userPrefix) {
    this(overrides, userPrefix, new PoolOptions());
  }

  /** As {@link #TestKith(JsonObject, String)}, with these client connection pool options. */
  protected TestKith(JsonObject overrides, String userPrefix, PoolOptions pool) {
    super(overrides, "127.0.0.1", pool);
    this.userPrefix = userPrefix;
  }

  /** A node running these modules with their default configuration; registered usernames start with {@code prefix}. */
  public static TestKith node(String userPrefix, String... modules) {
    return new TestKith(config(modules), userPrefix);
  }

  // ------------------------------------------------------------------ HTTP as a user

  private static String token(User as) {
    return as == null ? null : as.access();
  }

  /** GET as {@code as}, or anonymously when {@code as} is null. */
  public Reply get(String path, User as) {
    return call(HttpMethod.GET, API + path, token(as), null);
  }

  /** PUT with no body. */
  public Reply put(String path, User as) {
    return call(HttpMethod.PUT, API + path, token(as), null);
  }

  /** PUT with this body (may be null). */
  public Reply put(String path, User as, Object body) {
    return call(HttpMethod.PUT, API + path, token(as), body);
  }

  /** POST with this body (may be null). */
  public Reply post(String path, User as, Object body) {
    return call(HttpMethod.POST, API + path, token(as), body);
  }

  /** PATCH with this body. */
  public Reply patch(String path, User as, Object body) {
    return call(HttpMethod.PATCH, API + path, token(as), body);
  }

  /** DELETE. */
  public Reply delete(String path, User as) {
    return call(HttpMethod.DELETE, API + path, token(as), null);
  }

  // ------------------------------------------------------------------ users and relations

  /** Registers a fresh user and returns it with its access token. */
  public User register() {
    return register(unique(userPrefix));
  }

  /** Registers a user with this username; fails the test unless it is created. */
  public User register(String username) {
    JsonObject body = registerRaw(username).expect(201);
    return new User(body.getJsonObject("user").getLong("id"), username,
        body.getJsonObject("tokens").getString("access_token"));
  }

  /** POST /api/v1/accounts for this username, whatever the answer. */
  public Reply registerRaw(String username) {
    return call(HttpMethod.POST, API + "/accounts", null, new JsonObject().put("username", username)
        .put("password", "Sunny-" + unique("p") + "!"));
  }

  /** Registers {@code n} fresh users one after another (password hashing is the bottleneck either way). */
  public List<User> register(int n) {
    List<User> users = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      users.add(register());
    }
    return users;
  }

  /** {@code a} follows {@code b}; returns the state ("following", or "requested" when {@code b} approves). */
  public String follow(User a, User b) {
    return put("/following/" + b.path(), a).expect(200).getString("state");
  }

  /** {@code a} and {@code b} follow each other (both without approval): friends. */
  public void befriend(User a, User b) {
    assertEquals("following", follow(a, b));
    assertEquals("following", follow(b, a));
  }

  /** A bridge socket registered on the user's own address (see {@link #bridge(String, String)}). */
  public BridgeSocket bridge(User user) {
    return bridge(user.address(), user.access());
  }

  // ------------------------------------------------------------------ posts

  /** Publishes a post with this text and visibility; returns its view. */
  public JsonObject publish(User author, String text, String visibility) {
    return post("/posts", author, new JsonObject().put("text", text).put("visibility", visibility)).expect(201);
  }

  /** Publishes a public post with this text; returns its id. */
  public long publish(User author, String text) {
    return publish(author, text, "public").getLong("id");
  }

  // ------------------------------------------------------------------ media

  /** Uploads a small real PNG (drawn by {@link TestImages}) as {@code user} and returns its media id. */
  public long uploadImage(User user) {
    return upload(user, "image/png", TestImages.png(40, 30)).expect(201).getLong("id");
  }

  /**
   * Uploads bytes that claim to be a PNG but decode as nothing as {@code user}; returns the media id (the media is
   * in state {@code failed}, reason {@code undecodable}).
   */
  public long uploadGarbageImage(User user) {
    byte[] b = new byte[2_000];
    ThreadLocalRandom.current().nextBytes(b);
    int[] head = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    for (int i = 0; i < head.length; i++) {
      b[i] = (byte) head[i];
    }
    JsonObject media = upload(user, "image/png", b).expect(201);
    if (!"failed".equals(media.getString("state"))) {
      throw new IllegalStateException("garbage bytes were not refused by the media pipeline: " + media);
    }
    return media.getLong("id");
  }

  /** POST /media of {@code bytes} as {@code contentType} by {@code user}: the raw reply. */
  public Reply upload(User user, String contentType, byte[] bytes) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", contentType);
    return Await.result(send(HttpMethod.POST, API + "/media", user.access(), headers, Buffer.buffer(bytes)));
  }

  // ------------------------------------------------------------------ pages

  /** The ids of the items of a page, in order. */
  public static List<Long> ids(JsonObject page) {
    List<Long> ids = new ArrayList<>();
    page.getJsonArray("items").forEach(item -> ids.add(((JsonObject) item).getLong("id")));
    return ids;
  }

  /** The user ids of a page of users (likers, followers), in order. */
  public static List<Long> userIds(JsonObject page) {
    List<Long> ids = new ArrayList<>();
    page.getJsonArray("items").forEach(item -> ids.add(((JsonObject) item).getJsonObject("user").getLong("id")));
    return ids;
  }

  /** The item of a page with this id, or null. */
  public static JsonObject item(JsonObject page, long id) {
    for (Object item : page.getJsonArray("items")) {
      if (((JsonObject) item).getLong("id") == id) {
        return (JsonObject) item;
      }
    }
    return null;
  }

  /** Waits until GET {@code path} as {@code as} answers 200 with a page that {@code condition} accepts; returns it. */
  public JsonObject awaitPage(String path, User as, String what, Predicate<JsonObject> condition) {
    JsonObject[] last = new JsonObject[1];
    Await.result(Poll.until(client(), WAIT, what, () ->
        send(HttpMethod.GET, API + path, token(as), null).map(reply -> {
          if (reply.status() != 200) {
            return false;
          }
          last[0] = reply.body().toJsonObject();
          return condition.test(last[0]);
        })));
    return last[0];
  }

  /** Every item id of a paged list, following {@code next_cursor} with pages of {@code limit}. */
  public List<Long> allIds(String path, User as, int limit) {
    return allIds(path, as, limit, "cursor", "next_cursor", TestKith::ids);
  }

  /**
   * Every id of a paged list, read with pages of {@code limit}: each page's {@code nextField} (absent on the last)
   * is sent back as {@code cursorParam}, and {@code idsOf} takes the ids of a page.
   */
  protected List<Long> allIds(String path, User as, int limit, String cursorParam, String nextField,
                              Function<JsonObject, List<Long>> idsOf) {
    List<Long> ids = new ArrayList<>();
    Object cursor = null;
    for (int pages = 0; pages < 1000; pages++) {
      String sep = path.contains("?") ? "&" : "?";
      JsonObject page = get(path + sep + "limit=" + limit + (cursor == null ? "" : "&" + cursorParam + "=" + cursor),
          as).expect(200);
      ids.addAll(idsOf.apply(page));
      cursor = page.getValue(nextField);
      if (cursor == null) {
        return ids;
      }
    }
    throw new AssertionError("paging never ended: " + path);
  }

  /**
   * Holds every thread of the node's media worker pool ({@code kith-media}, shared by name) until closed, so uploads
   * stay in processing meanwhile; returns once all of them are held.
   */
  public HeldMediaPool holdMediaPool() {
    int threads = kith().platform().config().section("feeds").getJsonObject("media", new JsonObject())
        .getInteger("workers", 2);
    return new HeldMediaPool(kith().vertx().createSharedWorkerExecutor("kith-media", threads), threads);
  }

  /** The node's media pool, held (see {@link #holdMediaPool}); closing lets it work again. */
  public static final class HeldMediaPool implements AutoCloseable {
    private final WorkerExecutor pool;
    private final CountDownLatch release = new CountDownLatch(1);

    private HeldMediaPool(WorkerExecutor pool, int threads) {
      this.pool = pool;
      CountDownLatch started = new CountDownLatch(threads);
      for (int i = 0; i < threads; i++) {
        // unordered, so each task takes a thread of its own instead of queueing behind the first
        pool.executeBlocking(() -> {
          started.countDown();
          return release.await(5, TimeUnit.MINUTES);
        }, false);
      }
      try {
        assertTrue(started.await(60, TimeUnit.SECONDS), "the media pool's threads were not all held");
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void close() {
      release.countDown();
      pool.close(); // drops this reference only: the pipeline's own keeps the pool
    }
  }
}
