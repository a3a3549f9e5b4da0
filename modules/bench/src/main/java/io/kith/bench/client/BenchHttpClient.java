package io.kith.bench.client;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

/**
 * A keep-alive HTTP/1.1 client with a fixed pool of connections to the target. Requests beyond the pool size wait in
 * the client's queue, and that wait is part of the measured latency.
 */
public final class BenchHttpClient {

  private final HttpClientAgent client;
  private final Target target;
  private final long timeoutMillis;

  /**
   * Creates the client; call it on the context the load runner uses.
   *
   * @param connections   pool size
   * @param timeoutMillis how long a request may wait for a connection and then for data before the client gives up on
   *                      it (the load runner counts its own timeouts; this only keeps abandoned requests from piling up)
   */
  public BenchHttpClient(Vertx vertx, Target target, int connections, long timeoutMillis) {
    this.target = target;
    this.timeoutMillis = timeoutMillis;
    this.client = vertx.createHttpClient(
        new HttpClientOptions().setKeepAlive(true).setSsl(target.ssl()).setDefaultHost(target.host())
            .setDefaultPort(target.port()),
        new PoolOptions().setHttp1MaxSize(connections));
  }

  /**
   * Sends {@code GET path}, with {@code Authorization: Bearer <token>} when {@code bearerToken} is not null, and
   * completes with the JSON object body of a 200 response. Any other status fails with {@code HTTP <status>},
   * followed by the problem code when the body is a Kith problem ({@code HTTP 429 rate_limited}).
   */
  public Future<JsonObject> getJson(String path, String bearerToken) {
    return requestJson(HttpMethod.GET, path, null, bearerToken, 200);
  }

  /**
   * Sends {@code POST path} with the JSON {@code body} (and {@code Authorization: Bearer <token>} when
   * {@code bearerToken} is not null), and completes with the JSON object body of a response with status
   * {@code expectedStatus}. Any other status fails with {@code HTTP <status>}, followed by the problem code when the
   * body is a Kith problem ({@code HTTP 429 login_throttled}).
   */
  public Future<JsonObject> postJson(String path, JsonObject body, String bearerToken, int expectedStatus) {
    return requestJson(HttpMethod.POST, path, body, bearerToken, expectedStatus);
  }

  /**
   * Sends {@code method path} with the JSON {@code body} when it is not null (and {@code Authorization: Bearer
   * <token>} when {@code bearerToken} is not null), and completes with the JSON object body of a response with status
   * {@code expectedStatus}. Any other status fails with {@code HTTP <status>}, followed by the problem code when the
   * body is a Kith problem ({@code HTTP 409 activity_full}).
   */
  public Future<JsonObject> requestJson(HttpMethod method, String path, JsonObject body, String bearerToken,
                                        int expectedStatus) {
    RequestOptions options = new RequestOptions()
        .setMethod(method)
        .setHost(target.host())
        .setPort(target.port())
        .setSsl(target.ssl())
        .setURI(path)
        .setConnectTimeout(timeoutMillis)
        .setIdleTimeout(timeoutMillis)
        .putHeader(HttpHeaders.ACCEPT, "application/json");
    if (body != null) {
      options.putHeader(HttpHeaders.CONTENT_TYPE, "application/json");
    }
    if (bearerToken != null) {
      options.putHeader(HttpHeaders.AUTHORIZATION, "Bearer " + bearerToken);
    }
    return client.request(options)
        .compose(request -> body == null ? request.send() : request.send(body.toBuffer()))
        .compose(response -> response.body().map(reply -> {
          if (response.statusCode() != expectedStatus) {
            throw new IllegalStateException("HTTP " + response.statusCode() + problemCode(reply));
          }
          return reply.toJsonObject();
        }));
  }

  /** " code" of a problem+json body, or "" when the body is not one. */
  static String problemCode(Buffer body) {
    try {
      Object code = body.length() == 0 ? null : body.toJsonObject().getValue("code");
      return code instanceof String ? " " + code : "";
    } catch (RuntimeException notJson) {
      return "";
    }
  }

  /** Closes the connections. */
  public Future<Void> close() {
    return client.close();
  }
}
