package io.kith.app.push;

import io.kith.platform.testkit.Await;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A webhook receiver on loopback: records every request (headers and body as received) and answers the status the
 * policy of its path gives for the request's JSON body.
 */
final class Receiver implements AutoCloseable {

  /** One request as received. */
  record Hit(String path, String signature, String event, String body) {
    JsonObject json() {
      return new JsonObject(body);
    }
  }

  private final HttpServer server;
  private final List<Hit> hits = new CopyOnWriteArrayList<>();
  private final Map<String, Function<JsonObject, Integer>> policies = new ConcurrentHashMap<>();

  Receiver(Vertx vertx) {
    server = Await.result(vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
      String body = b.toString(StandardCharsets.UTF_8);
      hits.add(new Hit(req.path(), req.getHeader("Kith-Signature"), req.getHeader("Kith-Event"), body));
      int status = policies.getOrDefault(req.path(), json -> 200).apply(new JsonObject(body));
      req.response().setStatusCode(status).end(status == 200 ? "ok" : "no");
    })).listen(0, "127.0.0.1"));
  }

  /** A URL of the receiver (http on loopback: allow-listed in the test configuration), one per endpoint. */
  String url(String endpoint) {
    return "http://127.0.0.1:" + server.actualPort() + "/hooks/" + endpoint;
  }

  /** Sets the status answered to each body sent to {@code url} (200 until set). */
  void answer(String url, Function<JsonObject, Integer> policy) {
    policies.put(url.substring(url.indexOf("/hooks/")), policy);
  }

  /** The requests to {@code url} whose body's data has {@code field} = {@code value}, in arrival order. */
  List<Hit> about(String url, String field, long value) {
    List<Hit> out = new ArrayList<>();
    for (Hit h : hits) {
      if (url.endsWith(h.path()) && h.json().getJsonObject("data").getLong(field, -1L) == value) {
        out.add(h);
      }
    }
    return out;
  }

  /** HMAC-SHA256 of {@code t + "." + body} with {@code secret}, hex: what a receiver computes to check a signature. */
  static String sign(String secret, String t, String body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal((t + "." + body).getBytes(StandardCharsets.UTF_8)));
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** The {@code t} and the {@code v1} values of a signature header, in order. */
  static List<String> parts(String header, String name) {
    List<String> out = new ArrayList<>();
    for (String part : header.split(",")) {
      if (part.startsWith(name + "=")) {
        out.add(part.substring(name.length() + 1));
      }
    }
    return out;
  }

  @Override
  public void close() {
    Await.result(server.close());
  }
}
