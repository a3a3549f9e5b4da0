package io.kith.bench.scenario.cluster;

import io.kith.bench.load.Operation;
import io.kith.bench.scenario.BenchAccounts;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.UUID;

/**
 * The mixed load of the scale-out scenario, the same on every configuration: a social app's day in six requests, each
 * as a user of the deployment, each through the next node in turn (one counter for all, so the nodes share every
 * kind alike). Logins log in as users of their own ({@link Deployment#loginUsers()}) and hash a password (at the lowest cost the nodes are set to); follows walk through every pair of
 * users, then repeat (idempotent); posts fan out to their author's followers and messages notify their recipient in
 * the background, on the event log's consumers.
 */
final class MixedOperations {

  static final String FOLLOWING = "/api/v1/following/";
  static final String HOME = "/api/v1/timelines/home?limit=20";
  static final String NOTIFICATIONS = "/api/v1/notifications?limit=20";
  static final String POSTS = "/api/v1/posts";

  private final Deployment deployment;
  private long next;
  private long follows;

  MixedOperations(Deployment deployment) {
    this.deployment = deployment;
  }

  /** The six operations, named with the deployment's prefix ({@code 3n/home}). */
  List<Operation> operations() {
    String p = deployment.name() + "/";
    return List.of(
        new Operation(p + "login", "POST /api/v1/auth/login", this::login),
        new Operation(p + "follow", "PUT /api/v1/following/{id}", this::follow),
        new Operation(p + "post", "POST /api/v1/posts, public", this::post),
        new Operation(p + "home", "GET /api/v1/timelines/home, 20 posts", this::home),
        new Operation(p + "direct", "POST /api/v1/direct/{id}/messages", this::direct),
        new Operation(p + "notifications", "GET /api/v1/notifications, 20", this::notifications));
  }

  private BenchAccounts.User user(long i) {
    List<BenchAccounts.User> users = deployment.users();
    return users.get((int) Math.floorMod(i, (long) users.size()));
  }

  private Future<?> login() {
    long i = next++;
    List<BenchAccounts.User> users = deployment.loginUsers();
    return deployment.accounts(i).login(users.get((int) Math.floorMod(i, (long) users.size())));
  }

  private Future<?> follow() {
    long k = follows++;
    int n = deployment.users().size();
    BenchAccounts.User follower = user(k);
    BenchAccounts.User followed = user(k + 1 + (k / n) % (n - 1));
    return deployment.client(next++).requestJson(HttpMethod.PUT, FOLLOWING + followed.id(), null,
        follower.accessToken(), 200);
  }

  private Future<?> post() {
    long i = next++;
    return deployment.client(i).postJson(POSTS, new JsonObject().put("text", "scale-out " + i)
        .put("visibility", "public"), user(i).accessToken(), 201).map(reply -> require(reply, "id"));
  }

  private Future<?> home() {
    long i = next++;
    return deployment.client(i).getJson(HOME, user(i).accessToken()).map(MixedOperations::items);
  }

  private Future<?> direct() {
    long i = next++;
    return deployment.client(i).postJson("/api/v1/direct/" + user(i + 1).id() + "/messages", new JsonObject()
        .put("client_id", UUID.randomUUID().toString()).put("text", "hello " + i), user(i).accessToken(), 201)
        .map(reply -> require(reply, "message"));
  }

  private Future<?> notifications() {
    long i = next++;
    return deployment.client(i).getJson(NOTIFICATIONS, user(i).accessToken()).map(MixedOperations::items);
  }

  private static JsonArray items(JsonObject page) {
    JsonArray items = page.getJsonArray("items");
    if (items == null) {
      throw new IllegalStateException("the page has no items");
    }
    return items;
  }

  private static Object require(JsonObject reply, String field) {
    Object value = reply.getValue(field);
    if (value == null) {
      throw new IllegalStateException("the reply has no " + field);
    }
    return value;
  }
}
