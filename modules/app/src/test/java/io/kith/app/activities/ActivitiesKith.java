package io.kith.app.activities;

import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/**
 * One Kith node (accounts, relations, feeds, messaging, notifications, activities and gateway, real wiring,
 * in-process) for one test
 * class, and an HTTP client that talks to it as an app does. Tests make their own users and activities; nearby
 * searches use a random spot of their own, so tests never see each other's activities.
 */
final class ActivitiesKith extends TestKith {

  static final long HOUR = 3_600_000L;
  static final long DAY = 24 * HOUR;

  private ActivitiesKith(JsonObject overrides) {
    super(overrides, "a", new PoolOptions().setHttp1MaxSize(100));
  }

  /** Starts a node with the activities module and the modules it works with; rate limits lifted for tests. */
  static ActivitiesKith start() {
    JsonObject overrides = config("accounts", "relations", "feeds", "messaging", "notifications", "activities",
        "gateway")
        .put("feeds", new JsonObject().put("media", new JsonObject().put("uploads-per-window", 1000)))
        .put("activities", new JsonObject().put("creates-per-hour", 100_000));
    return new ActivitiesKith(overrides);
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
    a.getJsonObject("place").put("lat", latitude).put("lon", longitude);
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

  /** The ids of a page's items: the user's for a page of participants, else the item's (hides {@link TestKith#ids}). */
  public static List<Long> ids(JsonObject page) {
    List<Long> ids = new ArrayList<>();
    page.getJsonArray("items").forEach(o -> {
      JsonObject item = (JsonObject) o;
      ids.add(item.containsKey("user") ? item.getJsonObject("user").getLong("id") : item.getLong("id"));
    });
    return ids;
  }

  /** Every item of a list, following {@code next_cursor} with pages of {@code limit}. */
  List<JsonObject> all(String path, User as, int limit) {
    List<JsonObject> out = new ArrayList<>();
    String sep = path.contains("?") ? "&" : "?";
    String cursor = null;
    for (int pages = 0; pages < 1000; pages++) {
      JsonObject page = get(path + sep + "limit=" + limit
          + (cursor == null ? "" : "&cursor=" + java.net.URLEncoder.encode(cursor,
          java.nio.charset.StandardCharsets.UTF_8)), as).expect(200);
      page.getJsonArray("items").forEach(o -> out.add((JsonObject) o));
      cursor = page.getString("next_cursor");
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
    return kith().platform().redis().send(Request.cmd(Command.XRANGE).arg("events:activities").arg("-").arg("+"))
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
    Await.result(Poll.until(client(), WAIT, type + " notification of " + user.username(), () ->
        send(HttpMethod.GET, path, user.access(), null).map(r -> r.status() == 200
            && r.body().toJsonObject().getJsonArray("items").stream().anyMatch(about))));
    return (JsonObject) get("/notifications?types=" + type + "&limit=100", user).expect(200).getJsonArray("items")
        .stream().filter(about).findFirst().orElseThrow();
  }

  /** Waits until an event of {@code type} about {@code activityId} matching {@code test} is in the stream. */
  JsonObject awaitEvent(long activityId, String type, Predicate<JsonObject> test) {
    Await.result(Poll.until(client(), WAIT, type + " of activity " + activityId, () ->
        events(activityId, type).map(events -> events.stream().anyMatch(test))));
    return Await.result(events(activityId, type)).stream().filter(test).findFirst().orElseThrow();
  }
}
