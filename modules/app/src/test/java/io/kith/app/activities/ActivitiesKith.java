package io.kith.app.activities;

import io.kith.app.Kith;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One Kith node (accounts, relations, feeds, messaging, notifications, activities and gateway, real wiring,
 * in-process) for one test
 * class, and an HTTP client that talks to it as an app does. Tests make their own users and activities; nearby
 * searches use a random spot of their own, so tests never see each other's activities.
 */
final class ActivitiesKith implements AutoCloseable {

  static final String API = "/api/v1";
  static final Duration WAIT = Duration.ofSeconds(20);
  static final long HOUR = 3_600_000L;
  static final long DAY = 24 * HOUR;

  private static final AtomicLong SEQ = new AtomicLong(System.currentTimeMillis() % 1_000_000_000L * 100);

  private final Kith kith;
  private final Vertx client;
  private final WebClient web;

  /** A registered user and the access token of its first session. */
  record User(long id, String username, String access) {

    String path() {
      return Long.toString(id);
    }
  }

  private ActivitiesKith(Kith kith) {
    this.kith = kith;
    this.client = Vertx.vertx();
    this.web = WebClient.create(client, new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(kith.httpPort()).setFollowRedirects(false), new PoolOptions().setHttp1MaxSize(100));
  }

  /** Starts a node with the activities module and the modules it works with; rate limits lifted for tests. */
  static ActivitiesKith start() {
    JsonObject overrides = new JsonObject()
        .put("kith", new JsonObject().put("modules", new JsonArray().add("accounts").add("relations").add("feeds")
            .add("messaging").add("notifications").add("activities").add("gateway")))
        .put("http", new JsonObject().put("port", 0).put("instances", 1).put("access-log", false))
        .put("bridge", new JsonObject().put("tcp-port", 0))
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000))
        .put("feeds", new JsonObject().put("media", new JsonObject().put("uploads-per-window", 1000)))
        .put("activities", new JsonObject().put("creates-per-hour", 100_000));
    return new ActivitiesKith(Await.result(Kith.start(KithTestKit.config(overrides))));
  }

  Kith kith() {
    return kith;
  }

  Vertx client() {
    return client;
  }

  @Override
  public void close() {
    try {
      web.close();
      Await.result(client.close());
    } finally {
      Await.result(kith.stop());
    }
  }

  static String unique(String prefix) {
    return prefix + Long.toString(SEQ.incrementAndGet(), 36);
  }

  /** Sends a request without waiting for it. */
  Future<Reply> send(HttpMethod method, String path, String token, Object body) {
    HttpRequest<Buffer> request = web.request(method, path);
    if (token != null) {
      request.putHeader("Authorization", "Bearer " + token);
    }
    Future<HttpResponse<Buffer>> response;
    if (body == null) {
      response = request.send();
    } else {
      request.putHeader("Content-Type", "application/json");
      response = request.sendBuffer(body instanceof JsonObject ? ((JsonObject) body).toBuffer()
          : Buffer.buffer(String.valueOf(body)));
    }
    return response.map(r -> new Reply(r.statusCode(), r.headers(), r.body()));
  }

  Reply call(HttpMethod method, String path, String token, Object body) {
    return Await.result(send(method, path, token, body));
  }

  Reply get(String path, User as) {
    return call(HttpMethod.GET, API + path, as == null ? null : as.access(), null);
  }

  Reply put(String path, User as, Object body) {
    return call(HttpMethod.PUT, API + path, as == null ? null : as.access(), body);
  }

  Reply post(String path, User as, Object body) {
    return call(HttpMethod.POST, API + path, as == null ? null : as.access(), body);
  }

  Reply patch(String path, User as, Object body) {
    return call(HttpMethod.PATCH, API + path, as == null ? null : as.access(), body);
  }

  Reply delete(String path, User as) {
    return call(HttpMethod.DELETE, API + path, as == null ? null : as.access(), null);
  }

  User register() {
    String username = unique("a");
    JsonObject body = call(HttpMethod.POST, API + "/accounts", null, new JsonObject().put("username", username)
        .put("password", "Sunny-" + unique("p") + "!")).expect(201);
    return new User(body.getJsonObject("user").getLong("id"), username,
        body.getJsonObject("tokens").getString("access_token"));
  }

  /** Registers {@code n} users one after another (password hashing is the bottleneck either way). */
  List<User> register(int n) {
    List<User> users = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      users.add(register());
    }
    return users;
  }

  void follow(User a, User b) {
    assertEquals("following", put("/following/" + b.path(), a, null).expect(200).getString("state"));
  }

  /** Makes {@code a} and {@code b} friends (mutual follows). */
  void befriend(User a, User b) {
    follow(a, b);
    follow(b, a);
  }

  void block(User blocker, User blocked) {
    put("/me/blocks/" + blocked.path(), blocker, null).expectNoContent();
  }

  /** A valid new activity starting in a day, for two hours, at a named place without coordinates. */
  static JsonObject activity(String title) {
    long start = System.currentTimeMillis() + DAY;
    return new JsonObject().put("title", title).put("start", start).put("end", start + 2 * HOUR)
        .put("place", new JsonObject().put("name", "The old mill"));
  }

  /** The same, at these coordinates. */
  static JsonObject activityAt(String title, double latitude, double longitude) {
    JsonObject a = activity(title);
    a.getJsonObject("place").put("latitude", latitude).put("longitude", longitude);
    return a;
  }

  /** Creates an activity over HTTP (201) and returns its view. */
  JsonObject create(User organiser, JsonObject activity) {
    return post("/activities", organiser, activity).expect(201);
  }

  /** A random spot away from the poles, so that nearby searches of different tests do not meet. */
  static double[] randomSpot() {
    ThreadLocalRandom r = ThreadLocalRandom.current();
    return new double[] {r.nextDouble(-60, 60), r.nextDouble(-170, 170)};
  }

  /** Uploads a small PNG as {@code user} and returns its media id. */
  long uploadImage(User user) {
    byte[] b = new byte[2_000];
    ThreadLocalRandom.current().nextBytes(b);
    int[] head = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    for (int i = 0; i < head.length; i++) {
      b[i] = (byte) head[i];
    }
    HttpRequest<Buffer> request = web.post(API + "/media").putHeader("Authorization", "Bearer " + user.access())
        .putHeader("Content-Type", "image/png");
    Reply reply = Await.result(request.sendBuffer(Buffer.buffer(b)).map(r -> new Reply(r.statusCode(), r.headers(),
        r.body())));
    return reply.expect(201).getLong("id");
  }

  /** The ids of a page's items. */
  static List<Long> ids(JsonObject page) {
    List<Long> ids = new ArrayList<>();
    page.getJsonArray("items").forEach(o -> {
      JsonObject item = (JsonObject) o;
      ids.add(item.containsKey("user") ? item.getJsonObject("user").getLong("id") : item.getLong("id"));
    });
    return ids;
  }

  /** Every item of a list, following {@code next} with pages of {@code limit}. */
  List<JsonObject> all(String path, User as, int limit) {
    List<JsonObject> out = new ArrayList<>();
    String sep = path.contains("?") ? "&" : "?";
    String cursor = null;
    for (int pages = 0; pages < 1000; pages++) {
      JsonObject page = get(path + sep + "limit=" + limit
          + (cursor == null ? "" : "&cursor=" + java.net.URLEncoder.encode(cursor,
          java.nio.charset.StandardCharsets.UTF_8)), as).expect(200);
      page.getJsonArray("items").forEach(o -> out.add((JsonObject) o));
      cursor = page.getString("next");
      if (cursor == null) {
        return out;
      }
    }
    throw new AssertionError("paging never ended");
  }

  /**
   * The events of the activities stream about {@code activityId} whose type is {@code type} (read straight from the
   * stream, the way the notifications module receives them).
   */
  Future<List<JsonObject>> events(long activityId, String type) {
    return kith.platform().redis().send(Request.cmd(Command.XRANGE).arg("events:activities").arg("-").arg("+"))
        .map(entries -> {
          List<JsonObject> out = new ArrayList<>();
          for (Response entry : entries) {
            Response fields = entry.get(1);
            String t = null;
            JsonObject payload = null;
            for (int i = 0; i + 1 < fields.size(); i += 2) {
              String name = fields.get(i).toString();
              if (name.equals("type")) {
                t = fields.get(i + 1).toString();
              } else if (name.equals("payload")) {
                payload = new JsonObject(fields.get(i + 1).toString());
              }
            }
            if (type.equals(t) && payload != null && payload.getLong("activity", 0L) == activityId) {
              out.add(payload);
            }
          }
          return out;
        });
  }

  /**
   * Waits until {@code user} has a notification of {@code type} about {@code activityId} (read over HTTP, as the app
   * does) and returns it.
   */
  JsonObject awaitNotification(User user, String type, long activityId) {
    String path = API + "/notifications?types=" + type + "&limit=100";
    Predicate<Object> about = o -> ((JsonObject) o).getLong("activity", 0L) == activityId;
    Await.result(Poll.until(client, WAIT, type + " notification of " + user.username(), () ->
        send(HttpMethod.GET, path, user.access(), null).map(r -> r.status() == 200
            && r.body().toJsonObject().getJsonArray("items").stream().anyMatch(about))));
    return (JsonObject) get("/notifications?types=" + type + "&limit=100", user).expect(200).getJsonArray("items")
        .stream().filter(about).findFirst().orElseThrow();
  }

  /** Waits until an event of {@code type} about {@code activityId} matching {@code test} is in the stream. */
  JsonObject awaitEvent(long activityId, String type, Predicate<JsonObject> test) {
    Await.result(Poll.until(client, WAIT, type + " of activity " + activityId, () ->
        events(activityId, type).map(events -> events.stream().anyMatch(test))));
    return Await.result(events(activityId, type)).stream().filter(test).findFirst().orElseThrow();
  }
}
