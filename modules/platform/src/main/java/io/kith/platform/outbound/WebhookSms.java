package io.kith.platform.outbound;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.HexFormat;

/**
 * Sends each text message as a JSON POST ({@code {"to", "text", "kind"}}) to {@code sms.endpoint}, signed the way
 * webhooks are: header {@value #TIMESTAMP} holds the Unix time in seconds, header {@value #SIGNATURE} holds
 * {@code v1=} and the lower-case hex HMAC-SHA256, keyed with {@code sms.secret}, of the timestamp, a dot, and the
 * exact body bytes. The receiver recomputes it, compares in constant time, and refuses an old timestamp. Any 2xx answer
 * is success; anything else fails the send.
 */
public final class WebhookSms implements SmsGateway {

  private static final Logger LOG = LoggerFactory.getLogger(WebhookSms.class);

  /** The header with the Unix time (seconds) the signature covers. */
  public static final String TIMESTAMP = "X-Kith-Timestamp";
  /** The header with the signature. */
  public static final String SIGNATURE = "X-Kith-Signature";

  private final HttpClient client;
  private final String endpoint;
  private final byte[] secret;
  private final int timeoutMs;

  /** A gateway posting to the endpoint of {@code settings}. */
  public WebhookSms(Vertx vertx, OutboundSettings settings) {
    this.client = vertx.createHttpClient(new HttpClientOptions().setConnectTimeout(settings.smsTimeoutMs()));
    this.endpoint = settings.smsEndpoint();
    this.secret = settings.smsSecret().getBytes(StandardCharsets.UTF_8);
    this.timeoutMs = settings.smsTimeoutMs();
    if (endpoint.startsWith("http://")) {
      // the texts carry codes that log people in: plain HTTP is for a provider adapter on the same host or tests
      LOG.warn("sms.endpoint {} is plain HTTP: text messages and their codes cross the network unencrypted; use "
          + "https:// unless the endpoint runs on this host", endpoint);
    }
  }

  /** The value of {@value #SIGNATURE} for {@code body} sent at {@code timestamp} (seconds) with {@code secret}. */
  public static String signature(byte[] secret, String timestamp, byte[] body) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(secret, "HmacSHA256"));
      mac.update(timestamp.getBytes(StandardCharsets.UTF_8));
      mac.update((byte) '.');
      return "v1=" + HexFormat.of().formatHex(mac.doFinal(body));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("HmacSHA256 is missing from this JVM", e);
    }
  }

  @Override
  public Future<Void> send(Sms sms) {
    byte[] body = new JsonObject().put("to", sms.to()).put("text", sms.text()).put("kind", sms.kind()).toBuffer()
        .getBytes();
    String timestamp = Long.toString(System.currentTimeMillis() / 1000);
    RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(endpoint)
        .setIdleTimeout(timeoutMs)
        .putHeader("Content-Type", "application/json")
        .putHeader(TIMESTAMP, timestamp)
        .putHeader(SIGNATURE, signature(secret, timestamp, body));
    return client.request(options)
        .compose(request -> request.send(io.vertx.core.buffer.Buffer.buffer(body)))
        .compose(response -> response.body().compose(answer -> response.statusCode() / 100 == 2
            ? Future.<Void>succeededFuture()
            : Future.failedFuture("the SMS endpoint answered " + response.statusCode())));
  }

  /** Closes the HTTP client. */
  public Future<Void> close() {
    return client.close();
  }
}
