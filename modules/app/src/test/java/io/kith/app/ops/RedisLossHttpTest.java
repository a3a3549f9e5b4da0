package io.kith.app.ops;

import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.store.Stores;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static io.kith.app.support.TestKith.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Redis loses its data while Kith runs. The test JVM has a Redis of its own and runs one test class at a time, so
 * emptying it touches no other test.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Redis data loss while Kith runs: event consumers carry on without a restart, sessions are lost")
class RedisLossHttpTest {

  private static final String PASSWORD = "Sunny-redis-loss-1!";

  private OpsKith kith;
  private Redis redis;

  /** One node running the modules whose work is driven by the event log, and the gateway. */
  private static final class OpsKith extends TestKith {
    OpsKith() {
      super(config("accounts", "relations", "feeds", "notifications", "gateway"), "o");
    }
  }

  @BeforeAll
  void start() {
    kith = new OpsKith();
    redis = Stores.redis(kith.client(), KithTestKit.redisUrl(), new JsonObject());
  }

  @AfterAll
  void stop() {
    if (redis != null) {
      redis.close();
    }
    if (kith != null) {
      kith.close();
    }
  }

  private List<User> register(int n) {
    List<User> users = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String username = TestKith.unique("o");
      JsonObject body = kith.post("/accounts", null, new JsonObject().put("username", username)
          .put("password", PASSWORD)).expect(201);
      users.add(new User(body.getJsonObject("user").getLong("id"), username,
          body.getJsonObject("tokens").getString("access_token")));
    }
    return users;
  }

  /** The user with the access token of a new login. */
  private User login(User user) {
    JsonObject tokens = kith.post("/auth/login", null, new JsonObject().put("login", user.username())
        .put("password", PASSWORD)).expect(200);
    return new User(user.id(), user.username(), tokens.getString("access_token"));
  }

  private void flushAll() {
    Await.result(RedisAPI.api(redis).flushall(List.of()));
  }

  private void awaitInHome(List<User> readers, long post) {
    for (User reader : readers) {
      JsonObject page = kith.awaitPage("/timelines/home", reader, "post " + post + " in " + reader.username()
          + "'s home", p -> ids(p).contains(post));
      assertEquals(1, ids(page).stream().filter(id -> id == post).count(), "once in home: " + ids(page));
    }
  }

  @Test
  @DisplayName("after FLUSHALL a new post reaches all 20 followers' home timelines, and a follow and a like still "
      + "notify the author")
  void postsAndNotificationsAfterFlush() {
    User author = register(1).get(0);
    List<User> followers = register(20);
    followers.forEach(f -> kith.follow(f, author));
    awaitInHome(followers, kith.publish(author, "before the flush"));

    flushAll();
    // sessions lived in Redis: everyone logs in again
    User writer = login(author);
    List<User> readers = followers.stream().map(this::login).toList();
    // each follower reads home first: the timeline is rebuilt from MongoDB then, so that only the fan-out (driven by
    // the event log) can bring the next post into it
    readers.forEach(r -> kith.get("/timelines/home", r).expect(200));
    long after = kith.publish(writer, "after the flush");

    awaitInHome(readers, after);
    User late = register(1).get(0);
    kith.follow(late, writer);
    kith.put("/posts/" + after + "/like", readers.get(0)).expect(200);
    JsonObject follow = kith.awaitPage("/notifications?types=follower&from_user=" + late.path(), writer,
        "the late follower's notification", p -> p.getJsonArray("items").size() == 1);
    assertEquals(late.id(), follow.getJsonArray("items").getJsonObject(0).getJsonObject("actor").getLong("id"));
    kith.awaitPage("/notifications?types=like&post=" + after, writer, "the like's notification",
        p -> p.getJsonArray("items").size() == 1);
  }

  @Test
  @DisplayName("after FLUSHALL an access token of a session opened before is refused with 401 session_revoked, and a "
      + "new login works")
  void sessionsAreLost() {
    User user = register(1).get(0);
    kith.get("/timelines/home", user).expect(200);

    flushAll();

    // a node remembers a session it checked as alive for a few seconds
    Await.result(Poll.until(kith.client(), TestKith.WAIT, "the old session's token to be refused",
        () -> kith.send(HttpMethod.GET, TestKith.API + "/timelines/home", user.access(), null)
            .map(reply -> reply.status() == 401)));
    kith.get("/timelines/home", user).problem(401, "session_revoked");
    kith.get("/timelines/home", login(user)).expect(200);
  }
}
