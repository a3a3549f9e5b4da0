package io.kith.faults;

import io.kith.bench.cluster.KithNode;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;

/**
 * The HTTP API of the nodes, as a client sees it (java.net.http). A call that gets no answer (refused connection, a
 * stopped node's silence past the deadline) is a {@link Reply} with status 0, never an exception: the load decides
 * what to do with it.
 */
final class Api {

  /** Longer than the nodes' request deadline (http.request-timeout-seconds): an answer this late is a hang. */
  static final Duration CALL_TIMEOUT = Duration.ofSeconds(30);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  /** A registered user and its access token. */
  record User(long id, String username, String token) {
  }

  /** An answer: status (0 when none came), content type and body; {@code node} is who was asked. */
  record Reply(KithNode node, String method, String path, int status, String contentType, String body) {

    JsonObject json() {
      return new JsonObject(body);
    }

    /** The answers a client may get under faults besides success: 503 or 429, as problem+json. */
    boolean isAllowedRefusal() {
      return (status == 503 || status == 429) && contentType.startsWith("application/problem+json");
    }

    /** Fails unless the status is {@code expected}; returns the JSON body. */
    JsonObject expect(int expected) {
      if (status != expected) {
        throw new AssertionError(this.toString());
      }
      return body.isEmpty() ? new JsonObject() : json();
    }

    @Override
    public String toString() {
      return method + " " + path + " on " + node + ": " + status + " " + contentType + " " + body;
    }
  }

  Reply get(KithNode node, String path, User as) {
    return call(node, "GET", path, as, null);
  }

  Reply post(KithNode node, String path, User as, JsonObject body) {
    return call(node, "POST", path, as, body);
  }

  Reply put(KithNode node, String path, User as) {
    return call(node, "PUT", path, as, null);
  }

  /** {@code method} on {@code /api/v1 + path} of {@code node}, as {@code as} (null: anonymous). */
  Reply call(KithNode node, String method, String path, User as, JsonObject body) {
    return send(node, method, "/api/v1" + path, as, body);
  }

  /** {@code GET path} outside the API ({@code /ready}, {@code /health}) of {@code node}, anonymously. */
  Reply root(KithNode node, String path) {
    return send(node, "GET", path, null, null);
  }

  private Reply send(KithNode node, String method, String path, User as, JsonObject body) {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(node.base() + path))
        .timeout(CALL_TIMEOUT)
        .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
            : HttpRequest.BodyPublishers.ofString(body.encode()));
    if (body != null) {
      request.header("Content-Type", "application/json");
    }
    if (as != null) {
      request.header("Authorization", "Bearer " + as.token());
    }
    try {
      HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      return new Reply(node, method, path, r.statusCode(), r.headers().firstValue("Content-Type").orElse(""),
          r.body());
    } catch (IOException e) {
      return new Reply(node, method, path, 0, "", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Reply(node, method, path, 0, "", e.toString());
    }
  }

  /** Registers a fresh user through {@code node}. */
  User register(KithNode node) {
    String username = "f" + UUID.randomUUID().toString().replace("-", "").substring(0, 14);
    JsonObject body = post(node, "/accounts", null, new JsonObject().put("username", username)
        .put("password", "Sunny-" + UUID.randomUUID() + "!")).expect(201);
    return new User(body.getJsonObject("user").getLong("id"), username,
        body.getJsonObject("tokens").getString("access_token"));
  }
}
