package io.kith.push.service.delivery;

import com.google.auth.oauth2.GoogleCredentials;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.core.buffer.Buffer;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * FCM's HTTP v1 API: {@code POST {base}/v1/projects/{project}/messages:send} with a Bearer access token that Google's
 * auth library mints from the service-account key (at the key's own {@code token_uri}, refreshed before it expires,
 * on a worker thread since the library blocks). FCM's {@code UNREGISTERED} means the token is gone; 429 and 5xx are
 * retried; a 401 drops the cached token so that the retry mints a new one.
 */
final class FcmProvider implements Provider {

  private static final String SCOPE = "https://www.googleapis.com/auth/firebase.messaging";

  private final Vertx vertx;
  private final WebClient web;
  private final GoogleCredentials credentials;
  private final String url;
  private final long timeoutMs;
  /** Set by a 401: the next try mints a new token whatever the cached one's expiry says. */
  private volatile boolean stale;

  FcmProvider(Vertx vertx, WebClient web, DeliverySettings settings) throws IOException {
    this.vertx = vertx;
    this.web = web;
    DeliverySettings.Fcm fcm = settings.fcm();
    try (InputStream in = new FileInputStream(fcm.credentialsPath())) {
      this.credentials = GoogleCredentials.fromStream(in).createScoped(List.of(SCOPE));
    }
    this.url = fcm.baseUrl().replaceAll("/+$", "") + "/v1/projects/" + fcm.projectId() + "/messages:send";
    this.timeoutMs = settings.timeoutMs();
  }

  @Override
  public String kind() {
    return "fcm";
  }

  @Override
  public Future<Outcome> send(JsonObject target, PushMessage message) {
    return accessToken().compose(token -> web.postAbs(url).bearerTokenAuthentication(token).timeout(timeoutMs)
        .sendJsonObject(new JsonObject().put("message", message(target.getString("token"), message))))
        .map(this::outcome);
  }

  /** The message as FCM documents it: notification, Android collapse key and count, string-valued data. */
  static JsonObject message(String token, PushMessage m) {
    JsonObject notification = new JsonObject().put("body", m.body());
    if (m.title() != null) {
      notification.put("title", m.title());
    }
    JsonObject data = new JsonObject();
    m.data().forEach(e -> data.put(e.getKey(), String.valueOf(e.getValue())));
    return new JsonObject().put("token", token).put("notification", notification)
        .put("android", new JsonObject().put("collapse_key", m.collapse()).put("notification",
            new JsonObject().put("tag", m.collapse()).put("notification_count", m.badge())))
        .put("apns", new JsonObject().put("headers", new JsonObject().put("apns-collapse-id", m.collapse()))
            .put("payload", new JsonObject().put("aps", new JsonObject().put("badge", m.badge())
                .put("thread-id", m.collapse()))))
        .put("data", data);
  }

  private Future<String> accessToken() {
    return vertx.executeBlocking(() -> {
      if (stale) {
        stale = false;
        credentials.refresh();
      } else {
        credentials.refreshIfExpired();
      }
      return credentials.getAccessToken().getTokenValue();
    }, false);
  }

  private Outcome outcome(HttpResponse<Buffer> response) {
    int status = response.statusCode();
    if (status == 401) {
      stale = true;
      return Outcome.RETRY;
    }
    if (status == 404 || status == 400) {
      return unregistered(response) ? Outcome.GONE : Outcome.REJECTED;
    }
    return Provider.ofStatus(status);
  }

  /** Whether FCM's error says {@code UNREGISTERED} (its {@code FcmError} detail). */
  private static boolean unregistered(HttpResponse<Buffer> response) {
    try {
      JsonObject error = response.bodyAsJsonObject().getJsonObject("error", new JsonObject());
      for (Object detail : error.getJsonArray("details", new JsonArray())) {
        if (detail instanceof JsonObject && "UNREGISTERED".equals(((JsonObject) detail).getString("errorCode"))) {
          return true;
        }
      }
      return false;
    } catch (RuntimeException e) {
      return false;
    }
  }

  @Override
  public Future<Void> close() {
    return Future.succeededFuture();
  }
}
