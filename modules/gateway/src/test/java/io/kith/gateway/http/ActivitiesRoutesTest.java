package io.kith.gateway.http;

import io.kith.activities.api.ActivitiesService;
import io.kith.gateway.support.TestGateway;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.token.TokenPair;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.kith.gateway.support.TestGateway.API;
import static io.kith.gateway.support.TestGateway.assertProblem;
import static io.vertx.core.Future.succeededFuture;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The activities routes over a recording stand-in for the activities service: which service method each operation
 * calls with which arguments (the acting user from the token, path ids, the query object), and what the contract
 * refuses before the service is reached (the same bounds as the service's).
 */
@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Activities routes: operation to service mapping, tokens and contract refusals")
class ActivitiesRoutesTest {

  private static final long HOUR = 3_600_000L;

  private TestGateway gateway;
  private final Recorder activities = new Recorder();

  @AfterEach
  void tearDown() {
    if (gateway != null) {
      gateway.close();
    }
  }

  private void start(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject(), platform -> { },
        platform -> List.of(new SystemRoutes(), TestGateway.authRoutes(platform),
            new ActivitiesRoutes(activities)));
  }

  private HttpResponse<Buffer> send(HttpMethod method, String path, String token, JsonObject body) {
    var request = gateway.request(method, API + path, token);
    return Await.result(body == null ? request.send() : request.sendJsonObject(body));
  }

  /** The single service call the last request made: {@code [method, args...]}. */
  private JsonArray lastCall() {
    assertEquals(1, activities.calls.size(), "one service call: " + activities.calls);
    return activities.calls.remove(0);
  }

  private static JsonObject activity() {
    long start = System.currentTimeMillis() + 24 * HOUR;
    return new JsonObject().put("title", "Picnic").put("start", start).put("end", start + 2 * HOUR)
        .put("place", new JsonObject().put("name", "The park").put("lat", 48.85).put("lon", 2.35));
  }

  @Test
  @DisplayName("each operation calls its service method with the token's user, path ids, query and body")
  void mapping(Vertx vertx) {
    start(vertx);
    TokenPair me = gateway.newSession();
    String t = me.accessToken();
    long u = me.userId();
    JsonObject body = activity();

    assertEquals(201, send(HttpMethod.POST, "/activities", t, body).statusCode());
    assertEquals(new JsonArray().add("create").add(u).add(body), lastCall());
    assertEquals(200, send(HttpMethod.GET, "/activities/5", t, null).statusCode());
    assertEquals(new JsonArray().add("activity").add(u).add(5L), lastCall());
    JsonObject changes = new JsonObject().put("capacity", (Object) null).put("title", "Picnic!");
    assertEquals(200, send(HttpMethod.PATCH, "/activities/5", t, changes).statusCode());
    assertEquals(new JsonArray().add("update").add(u).add(5L).add(changes), lastCall());
    assertEquals(200, send(HttpMethod.POST, "/activities/5/cancel", t, null).statusCode());
    assertEquals(new JsonArray().add("cancel").add(u).add(5L), lastCall());
    assertEquals(200, send(HttpMethod.POST, "/activities/5/invitations", t,
        new JsonObject().put("users", new JsonArray().add(7).add(8))).statusCode());
    assertEquals(new JsonArray().add("invite").add(u).add(5L).add(new JsonArray().add(7L).add(8L)), lastCall());
    assertEquals(204, send(HttpMethod.DELETE, "/activities/5/participants/7", t, null).statusCode());
    assertEquals(new JsonArray().add("removeParticipant").add(u).add(5L).add(7L), lastCall());

    assertEquals(200, send(HttpMethod.PUT, "/activities/5/participation", t, null).statusCode());
    assertEquals(new JsonArray().add("join").add(u).add(5L), lastCall());
    assertEquals(200, send(HttpMethod.DELETE, "/activities/5/participation", t, null).statusCode());
    assertEquals(new JsonArray().add("leave").add(u).add(5L), lastCall());
    assertEquals(200, send(HttpMethod.GET, "/activities/5/participants", t, null).statusCode());
    assertEquals(new JsonArray().add("participants").add(u).add(5L).add(new JsonObject()), lastCall());
    assertEquals(200, send(HttpMethod.GET, "/activities/5/participants?status=waitlisted&limit=3&cursor=17", t,
        null).statusCode());
    assertEquals(new JsonArray().add("participants").add(u).add(5L).add(new JsonObject().put("status", "waitlisted")
        .put("limit", 3).put("cursor", "17")), lastCall());

    HttpResponse<Buffer> organised = send(HttpMethod.GET, "/me/activities/organised", t, null);
    assertEquals(200, organised.statusCode());
    assertEquals(new JsonArray().add("organised").add(u).add(new JsonObject()), lastCall());
    assertEquals("1700000000000_42", organised.bodyAsJsonObject().getString("next_cursor"),
        "over HTTP a cursor's dot is an underscore (the validator would read 1700000000000.42 as a number)");
    assertEquals(200, send(HttpMethod.GET, "/me/activities/joined?when=past&limit=100&cursor=1700000000000_42", t,
        null).statusCode());
    assertEquals(new JsonArray().add("joined").add(u).add(new JsonObject().put("when", "past").put("limit", 100)
        .put("cursor", "1700000000000.42")), lastCall());

    assertEquals(200, send(HttpMethod.GET, "/activities/nearby?lat=48.85&lon=-2.5&radius_km=100"
        + "&order=distance&limit=10&cursor=20", t, null).statusCode());
    JsonArray nearby = lastCall();
    assertEquals("nearby", nearby.getString(0));
    assertEquals(u, nearby.getLong(1));
    JsonObject query = nearby.getJsonObject(2);
    assertEquals(48.85, query.getDouble("lat"), 1e-9);
    assertEquals(-2.5, query.getDouble("lon"), 1e-9);
    assertEquals(100.0, query.getDouble("radius_km"), 1e-9);
    assertEquals("distance", query.getString("order"));
    assertEquals(10, query.getInteger("limit"));
    assertEquals("20", query.getString("cursor"));
    assertEquals(200, send(HttpMethod.GET, "/activities/nearby?lat=0&lon=0&radius_km=0.5", t, null)
        .statusCode());
    assertEquals(0.5, lastCall().getJsonObject(2).getDouble("radius_km"), 1e-9);
    assertEquals(200, send(HttpMethod.GET, "/activities/friends?limit=2", t, null).statusCode());
    assertEquals(new JsonArray().add("friendsActivities").add(u).add(new JsonObject().put("limit", 2)), lastCall());
  }

  @Test
  @DisplayName("every activities operation needs a token, and says 401 before judging the input")
  void requiredToken(Vertx vertx) {
    start(vertx);
    List<Object[]> ops = List.of(
        new Object[] {HttpMethod.POST, "/activities", activity()},
        new Object[] {HttpMethod.GET, "/activities/5", null},
        new Object[] {HttpMethod.PATCH, "/activities/5", new JsonObject().put("title", "x")},
        new Object[] {HttpMethod.POST, "/activities/5/cancel", null},
        new Object[] {HttpMethod.POST, "/activities/5/invitations", new JsonObject().put("users",
            new JsonArray().add(1))},
        new Object[] {HttpMethod.DELETE, "/activities/5/participants/7", null},
        new Object[] {HttpMethod.PUT, "/activities/5/participation", null},
        new Object[] {HttpMethod.DELETE, "/activities/5/participation", null},
        new Object[] {HttpMethod.GET, "/activities/5/participants", null},
        new Object[] {HttpMethod.GET, "/me/activities/organised", null},
        new Object[] {HttpMethod.GET, "/me/activities/joined", null},
        new Object[] {HttpMethod.GET, "/activities/nearby?lat=1&lon=1&radius_km=1", null},
        new Object[] {HttpMethod.GET, "/activities/friends", null});
    for (Object[] op : ops) {
      String path = (String) op[1];
      assertProblem(send((HttpMethod) op[0], path, null, (JsonObject) op[2]), 401, "unauthenticated");
      assertProblem(send((HttpMethod) op[0], path.replace("/5", "/0").replace("=1", "=999"), null,
          op[2] == null ? null : new JsonObject().put("bogus", true)), 401, "unauthenticated");
      assertProblem(send((HttpMethod) op[0], path, "not-a-token", (JsonObject) op[2]), 401, "token_invalid");
    }
    assertTrue(activities.calls.isEmpty(), "refused requests never reach the service: " + activities.calls);
  }

  @Test
  @DisplayName("lists and ids are bounded by the contract: radius, coordinates, order, when, status, limit, cursor")
  void queries(Vertx vertx) {
    start(vertx);
    String t = gateway.newSession().accessToken();
    String near = "/activities/nearby?";
    List<String[]> bad = List.of(
        new String[] {near + "lat=1&lon=1&radius_km=0", "radius_km"},
        new String[] {near + "lat=1&lon=1&radius_km=-1", "radius_km"},
        new String[] {near + "lat=1&lon=1&radius_km=100.5", "radius_km"},
        new String[] {near + "lat=1&lon=1&radius_km=far", "radius_km"},
        new String[] {near + "lat=1&lon=1", "radius_km"},
        new String[] {near + "lat=91&lon=1&radius_km=1", "lat"},
        new String[] {near + "lat=-90.01&lon=1&radius_km=1", "lat"},
        new String[] {near + "lat=85.06&lon=1&radius_km=1", "lat"},
        new String[] {near + "lon=1&radius_km=1", "lat"},
        new String[] {near + "lat=1&lon=180.5&radius_km=1", "lon"},
        new String[] {near + "lat=1&radius_km=1", "lon"},
        new String[] {near + "lat=1&lon=1&radius_km=1&order=popularity", "order"},
        new String[] {near + "lat=1&lon=1&radius_km=1&limit=101", "limit"},
        new String[] {"/activities/friends?limit=0", "limit"},
        new String[] {"/activities/friends?cursor=1.2.3", "cursor"},
        new String[] {"/activities/friends?cursor=1700000000000.42", "cursor"},
        new String[] {"/me/activities/joined?cursor=" + "1".repeat(201), "cursor"},
        new String[] {"/me/activities/organised?when=soon", "when"},
        new String[] {"/me/activities/joined?when=", "when"},
        new String[] {"/activities/5/participants?status=removed", "status"},
        new String[] {"/activities/5/participants?limit=x", "limit"},
        new String[] {"/activities/0", "activityId"},
        new String[] {"/activities/9007199254740992", "activityId"},
        new String[] {"/activities/-4/participants", "activityId"});
    for (String[] b : bad) {
      JsonObject problem = assertProblem(send(HttpMethod.GET, b[0], t, null), 400, "validation_failed");
      assertEquals(b[1], problem.getString("field"), b[0] + ": " + problem.encode());
    }
    assertEquals("userId", assertProblem(send(HttpMethod.DELETE, "/activities/5/participants/0", t, null), 400,
        "validation_failed").getString("field"));
    assertEquals("activityId", assertProblem(send(HttpMethod.PUT, "/activities/nearby/participation", t, null), 400,
        "validation_failed").getString("field"));
    assertTrue(activities.calls.isEmpty(), "refused requests never reach the service: " + activities.calls);
  }

  @Test
  @DisplayName("activity bodies are bounded as the service bounds them: lengths, ranges, enums, cover, unknown members")
  void bodies(Vertx vertx) {
    start(vertx);
    String t = gateway.newSession().accessToken();
    JsonArray tooMany = new JsonArray();
    for (int i = 1; i <= 101; i++) {
      tooMany.add(i);
    }
    List<Object[]> badActivities = List.of(
        new Object[] {activity().put("title", "x".repeat(101)), "title"},
        new Object[] {activity().put("title", ""), "title"},
        new Object[] {activity().put("title", "   "), "title"},
        new Object[] {without(activity(), "title"), "title"},
        new Object[] {activity().put("introduction", "x".repeat(5001)), "introduction"},
        new Object[] {without(activity(), "start"), "start"},
        new Object[] {activity().put("start", -1), "start"},
        new Object[] {activity().put("end", "tomorrow"), "end"},
        new Object[] {without(activity(), "place"), "place"},
        new Object[] {activity().put("place", new JsonObject().put("lat", 1).put("lon", 1)), "place"},
        new Object[] {activity().put("place", new JsonObject().put("name", "")), "place.name"},
        new Object[] {activity().put("place", new JsonObject().put("name", "n".repeat(201))), "place.name"},
        new Object[] {activity().put("place", new JsonObject().put("name", "n").put("lat", 90.5)
            .put("lon", 1)), "place.lat"},
        new Object[] {activity().put("place", new JsonObject().put("name", "n").put("lat", 1)
            .put("lon", -180.5)), "place.lon"},
        new Object[] {activity().put("place", new JsonObject().put("name", "n").put("lat", 1)), "place"},
        new Object[] {activity().put("place", new JsonObject().put("name", "n").put("lat", 1)), "place"},
        new Object[] {activity().put("capacity", 0), "capacity"},
        new Object[] {activity().put("capacity", 5001), "capacity"},
        new Object[] {activity().put("capacity", 2.5), "capacity"},
        new Object[] {activity().put("waitlist", "yes"), "waitlist"},
        new Object[] {activity().put("visibility", "private"), "visibility"},
        new Object[] {activity().put("cover", new JsonObject().put("url", "http://example.com/a.png")), "cover"},
        new Object[] {activity().put("cover", new JsonObject().put("url", "https://x/" + "a".repeat(503))), "cover"},
        new Object[] {activity().put("cover", new JsonObject().put("media", 0)), "cover"},
        new Object[] {activity().put("cover", new JsonObject().put("media", 1).put("url", "https://x.y/z")), "cover"},
        new Object[] {activity().put("organiser", 9), "organiser"});
    for (Object[] b : badActivities) {
      JsonObject body = (JsonObject) b[0];
      String field = (String) b[1];
      JsonObject problem = assertProblem(send(HttpMethod.POST, "/activities", t, body), 400, "validation_failed");
      String named = problem.getString("field", "") + " " + problem.getString("detail", "");
      assertTrue(named.contains(field), "names " + field + ": " + problem.encode());
    }
    assertProblem(send(HttpMethod.PATCH, "/activities/5", t, new JsonObject()), 400, "validation_failed");
    assertProblem(send(HttpMethod.PATCH, "/activities/5", t, new JsonObject().put("title", (Object) null)), 400,
        "validation_failed");
    assertProblem(send(HttpMethod.PATCH, "/activities/5", t, new JsonObject().put("status", "cancelled")), 400,
        "validation_failed");
    assertProblem(send(HttpMethod.PATCH, "/activities/5", t, new JsonObject().put("capacity", 0)), 400,
        "validation_failed");
    assertProblem(send(HttpMethod.POST, "/activities/5/invitations", t, new JsonObject().put("users", tooMany)), 400,
        "validation_failed");
    assertProblem(send(HttpMethod.POST, "/activities/5/invitations", t, new JsonObject().put("users",
        new JsonArray())), 400, "validation_failed");
    assertProblem(send(HttpMethod.POST, "/activities/5/invitations", t, new JsonObject().put("users",
        new JsonArray().add(0))), 400, "validation_failed");
    assertProblem(send(HttpMethod.POST, "/activities/5/invitations", t, new JsonObject()), 400, "validation_failed");
    assertTrue(activities.calls.isEmpty(), "refused requests never reach the service: " + activities.calls);

    // the bounds themselves are accepted, and nulls clear what may be cleared
    JsonObject full = activity().put("title", "t".repeat(100)).put("introduction", "i".repeat(5000))
        .put("place", new JsonObject().put("name", "n".repeat(200)).put("lat", -90).put("lon", 180))
        .put("capacity", 5000).put("waitlist", true).put("visibility", "invitation")
        .put("cover", new JsonObject().put("url", "https://example.com/" + "a".repeat(492)));
    assertEquals(201, send(HttpMethod.POST, "/activities", t, full).statusCode());
    assertEquals(full, lastCall().getJsonObject(2));
    JsonObject media = activity().put("cover", new JsonObject().put("media", 42)).put("capacity", 1)
        .put("visibility", "friends").put("place", new JsonObject().put("name", "Somewhere"));
    assertEquals(201, send(HttpMethod.POST, "/activities", t, media).statusCode());
    lastCall();
    JsonObject clear = new JsonObject().put("introduction", (Object) null).put("capacity", (Object) null)
        .put("cover", (Object) null);
    assertEquals(200, send(HttpMethod.PATCH, "/activities/5", t, clear).statusCode());
    assertEquals(clear, lastCall().getJsonObject(3));
    JsonArray hundred = new JsonArray(new ArrayList<>(tooMany.getList().subList(0, 100)));
    assertEquals(200, send(HttpMethod.POST, "/activities/5/invitations", t, new JsonObject().put("users", hundred))
        .statusCode());
    assertEquals(100, lastCall().getJsonArray(3).size());
  }

  private static JsonObject without(JsonObject body, String member) {
    body.remove(member);
    return body;
  }

  /** The service's cursor of every page the recorder answers. */
  static final String NEXT = "1700000000000.42";

  /** Records each call as {@code [method, args...]} and answers with an empty page. */
  static final class Recorder implements ActivitiesService {
    final List<JsonArray> calls = new CopyOnWriteArrayList<>();

    private Future<JsonObject> record(Object... call) {
      JsonArray entry = new JsonArray();
      for (Object o : call) {
        entry.add(o);
      }
      calls.add(entry);
      return succeededFuture(new JsonObject().put("items", new JsonArray()).put("next", NEXT));
    }

    /** A list call's filters with its page's limit and cursor among them, as one recorded query. */
    private static JsonObject asked(JsonObject filters, PageRequest page) {
      JsonObject query = filters.copy();
      page.toJson().forEach(member -> query.put(member.getKey(), member.getValue()));
      return query;
    }

    private static Future<Page> page(Future<JsonObject> body) {
      return body.map(json -> Page.of("items", json));
    }

    @Override
    public Future<JsonObject> create(long actor, JsonObject activity) {
      return record("create", actor, activity);
    }

    @Override
    public Future<JsonObject> update(long actor, long activityId, JsonObject changes) {
      return record("update", actor, activityId, changes);
    }

    @Override
    public Future<JsonObject> cancel(long actor, long activityId) {
      return record("cancel", actor, activityId);
    }

    @Override
    public Future<JsonObject> invite(long actor, long activityId, List<Long> userIds) {
      return record("invite", actor, activityId, new JsonArray(new ArrayList<>(userIds)));
    }

    @Override
    public Future<Void> removeParticipant(long actor, long activityId, long userId) {
      return record("removeParticipant", actor, activityId, userId).mapEmpty();
    }

    @Override
    public Future<JsonObject> join(long actor, long activityId) {
      return record("join", actor, activityId);
    }

    @Override
    public Future<JsonObject> leave(long actor, long activityId) {
      return record("leave", actor, activityId);
    }

    @Override
    public Future<Page> participants(long viewer, long activityId, JsonObject query, PageRequest page) {
      return page(record("participants", viewer, activityId, asked(query, page)));
    }

    @Override
    public Future<JsonObject> activity(long viewer, long activityId) {
      return record("activity", viewer, activityId);
    }

    @Override
    public Future<Page> organised(long actor, JsonObject query, PageRequest page) {
      return page(record("organised", actor, asked(query, page)));
    }

    @Override
    public Future<Page> joined(long actor, JsonObject query, PageRequest page) {
      return page(record("joined", actor, asked(query, page)));
    }

    @Override
    public Future<Page> nearby(long viewer, JsonObject query, PageRequest page) {
      return page(record("nearby", viewer, asked(query, page)));
    }

    @Override
    public Future<Page> friendsActivities(long viewer, PageRequest page) {
      return page(record("friendsActivities", viewer, asked(new JsonObject(), page)));
    }
  }
}
