package io.kith.app.push;

import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;

import java.util.function.Supplier;

/**
 * One Kith node (accounts, relations, notifications, messaging, push and the gateway, real wiring, in-process) for one
 * test class, and an HTTP client that talks to it as an app does.
 */
final class PushKith extends TestKith {

  private static final String PASSWORD = "Sunny-push-password-1!";

  private PushKith(JsonObject overrides) {
    super(overrides, "p");
  }

  /** Starts a node with these {@code push} settings. */
  static PushKith start(JsonObject push) {
    return new PushKith(config("accounts", "relations", "feeds", "notifications", "messaging", "push", "gateway")
        .put("push", push.copy()));
  }

  /** Polls {@code found} until it gives something other than null (a push a provider received), and returns that. */
  <T> T awaitFound(String what, Supplier<T> found) {
    Object[] result = new Object[1];
    Await.result(Poll.until(client(), WAIT, what, () -> {
      result[0] = found.get();
      return Future.succeededFuture(result[0] != null);
    }));
    @SuppressWarnings("unchecked")
    T t = (T) result[0];
    return t;
  }

  /** Registers a user with a known password (so that a second session can log in). */
  User registerWithPassword() {
    String username = unique("p");
    JsonObject body = call(HttpMethod.POST, API + "/accounts", null, new JsonObject().put("username", username)
        .put("password", PASSWORD)).expect(201);
    return new User(body.getJsonObject("user").getLong("id"), username,
        body.getJsonObject("tokens").getString("access_token"));
  }

  /** A second session of {@code user} (a second device): the same user with that session's access token. */
  User secondSession(User user) {
    JsonObject tokens = call(HttpMethod.POST, API + "/auth/login", null, new JsonObject()
        .put("login", user.username()).put("password", PASSWORD)).expect(200);
    return new User(user.id(), user.username(), tokens.getString("access_token"));
  }
}
