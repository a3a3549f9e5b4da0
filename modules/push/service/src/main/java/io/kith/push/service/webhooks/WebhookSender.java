package io.kith.push.service.webhooks;

import io.kith.push.api.Webhooks;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.SocketAddress;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;
import java.util.List;

/**
 * One attempt of one delivery: checks the endpoint's URL with the {@link AddressGuard}, connects to the address it
 * checked (the URL's host still names the request and, with TLS, the server name and the certificate checked), POSTs
 * the signed body and answers what came back: {@code {at, status?, latency_ms, body?, error?}}.
 */
final class WebhookSender {

  private final HttpClient client;
  private final AddressGuard guard;
  private final WebhooksSettings settings;

  WebhookSender(Vertx vertx, AddressGuard guard, WebhooksSettings settings) {
    // SNI from the request's host although the connection goes to an address: the guard resolved the name already
    this.client = vertx.createHttpClient(new HttpClientOptions().setForceSni(true).setVerifyHost(true)
        .setConnectTimeout((int) settings.timeoutMs()).setMaxRedirects(0));
    this.guard = guard;
    this.settings = settings;
  }

  /** The signature header's value for {@code body} at {@code unixSeconds}, one {@code v1} per secret. */
  static String signature(List<String> secrets, long unixSeconds, String body) {
    StringBuilder header = new StringBuilder("t=").append(unixSeconds);
    for (String secret : secrets) {
      header.append(",v1=").append(hmac(secret, unixSeconds + "." + body));
    }
    return header.toString();
  }

  static String hmac(String secret, String message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
      return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", e);
    }
  }

  /** Attempts {@code delivery} to {@code endpoint}; never fails: a refusal or an error is in the answer. */
  Future<JsonObject> attempt(JsonObject endpoint, JsonObject delivery) {
    long start = System.currentTimeMillis();
    String body = delivery.getString("body");
    List<String> secrets = WebhookEndpoints.validSecrets(endpoint, start);
    return guard.check(endpoint.getString("url")).compose(target -> {
      String path = target.uri().getRawPath() == null || target.uri().getRawPath().isEmpty() ? "/"
          : target.uri().getRawPath();
      RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST)
          .setServer(SocketAddress.inetSocketAddress(target.port(), target.address().getHostAddress()))
          .setHost(target.host()).setPort(target.port()).setSsl(target.tls())
          .setURI(target.uri().getRawQuery() == null ? path : path + "?" + target.uri().getRawQuery())
          .setTimeout(settings.timeoutMs())
          .putHeader("Content-Type", "application/json")
          .putHeader("User-Agent", "Kith-Webhooks/1")
          .putHeader(Webhooks.EVENT_HEADER, delivery.getString("type"))
          .putHeader(Webhooks.DELIVERY_HEADER, String.valueOf(delivery.getLong("_id")))
          .putHeader(Webhooks.SIGNATURE_HEADER, signature(secrets, start / 1000, body));
      return client.request(options)
          .compose(request -> request.send(Buffer.buffer(body)))
          .compose(response -> response.body().map(answer -> new JsonObject().put("status", response.statusCode())
              .put("body", truncate(answer.toString(StandardCharsets.UTF_8)))));
    }).map(answer -> answer.put("at", start).put("latency_ms", System.currentTimeMillis() - start))
        .recover(e -> Future.succeededFuture(new JsonObject().put("at", start)
            .put("latency_ms", System.currentTimeMillis() - start)
            .put("error", e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage())));
  }

  private String truncate(String answer) {
    return answer.length() <= settings.answerBytes() ? answer : answer.substring(0, settings.answerBytes());
  }

  Future<Void> close() {
    return client.close();
  }
}
