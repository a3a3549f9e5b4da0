package io.kith.app.push;

import com.eatthepath.pushy.apns.server.MockApnsServer;
import com.eatthepath.pushy.apns.server.MockApnsServerBuilder;
import com.eatthepath.pushy.apns.server.MockApnsServerListener;
import com.eatthepath.pushy.apns.server.RejectionReason;
import com.eatthepath.pushy.apns.server.UnregisteredDeviceTokenException;
import io.kith.app.support.ClusterCertificates;
import io.kith.platform.testkit.Await;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http2.Http2Headers;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.PemKeyCertOptions;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.security.interfaces.ECPrivateKey;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Local stand-ins of the three push providers for one test class, each answering as its provider documents: Pushy's
 * MockApnsServer (HTTP/2, TLS with a test CA) that refuses tokens marked gone with {@code Unregistered}; an HTTPS Web
 * Push endpoint ({@code POST /wp/<id>}) that answers 410 for subscriptions marked gone (503 once for those marked to
 * fail once); and an FCM HTTP v1 endpoint
 * with its OAuth2 token endpoint ({@code POST /token}) that answers 404 {@code UNREGISTERED} for tokens marked gone.
 * Every request is recorded as it arrived.
 */
final class ProviderEndpoints implements AutoCloseable {

  /** FCM's project in the test. */
  static final String PROJECT = "kith-test";
  /** The access token the token endpoint mints. */
  static final String ACCESS_TOKEN = "ya29.test-" + System.nanoTime();

  /** An APNs request: the device token (from the path), the headers, the JSON payload. */
  record ApnsPush(String token, Map<String, String> headers, JsonObject payload) {
  }

  /** An HTTP request to a local endpoint: path, headers (lower-case names), body. */
  record Request(String path, Map<String, String> headers, Buffer body) {
  }

  final List<ApnsPush> apns = new CopyOnWriteArrayList<>();
  final List<Request> webPush = new CopyOnWriteArrayList<>();
  final List<Request> fcm = new CopyOnWriteArrayList<>();
  final List<Request> tokenRequests = new CopyOnWriteArrayList<>();
  final Set<String> gone = ConcurrentHashMap.newKeySet();
  /** Web Push subscriptions whose next request is answered 503 (once each). */
  final Set<String> failOnce = ConcurrentHashMap.newKeySet();

  final ClusterCertificates certs;
  final Path signingKey;
  final Path serviceAccount;
  final KeyPair serviceAccountKeys;
  final int apnsPort;
  final int webPushPort;
  final int fcmPort;
  private final MockApnsServer apnsServer;
  private final Vertx vertx = Vertx.vertx();
  private final HttpServer webPushServer;
  private final HttpServer fcmServer;

  ProviderEndpoints(Path dir) throws Exception {
    certs = ClusterCertificates.create(dir, "push");
    ClusterCertificates.NodeFiles server = certs.issue("localhost");
    signingKey = certs.issue("apns-signer").key();
    apnsServer = new MockApnsServerBuilder()
        .setServerCredentials(server.cert().toFile(), server.key().toFile(), null)
        .setHandlerFactory(session -> (headers, payload) -> {
          String path = headers.path().toString();
          if (gone.contains(path.substring(path.lastIndexOf('/') + 1))) {
            throw new UnregisteredDeviceTokenException(Instant.now());
          }
        })
        .setListener(new Recorder())
        .build();
    apnsPort = apnsServer.start(0).get();
    webPushServer = Await.result(vertx.createHttpServer(new HttpServerOptions().setSsl(true)
            .setKeyCertOptions(new PemKeyCertOptions().setKeyPath(server.key().toString())
                .setCertPath(server.cert().toString())))
        .requestHandler(req -> record(req, webPush, r -> req.response().setStatusCode(
            failOnce.remove(last(req.path())) ? 503 : gone.contains(last(req.path())) ? 410 : 201).end()))
        .listen(0));
    webPushPort = webPushServer.actualPort();
    fcmServer = Await.result(vertx.createHttpServer().requestHandler(this::fcm).listen(0, "127.0.0.1"));
    fcmPort = fcmServer.actualPort();
    KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
    rsa.initialize(2048);
    serviceAccountKeys = rsa.generateKeyPair();
    serviceAccount = dir.resolve("service-account.json");
    Files.writeString(serviceAccount, new JsonObject().put("type", "service_account").put("project_id", PROJECT)
        .put("private_key_id", "key-1").put("private_key", pem(serviceAccountKeys))
        .put("client_email", "push@" + PROJECT + ".iam.gserviceaccount.com").put("client_id", "1")
        .put("token_uri", "http://127.0.0.1:" + fcmPort + "/token").encodePrettily());
  }

  /**
   * The {@code push} settings that point every provider at these endpoints, Web Push signing with {@code vapid};
   * events delivered one at a time (in stream order) and retried quickly.
   */
  JsonObject pushSection(KeyPair vapid) {
    byte[] d = new byte[32];
    WebPushSubscriber.fixed(((ECPrivateKey) vapid.getPrivate()).getS(), d, 0);
    return new JsonObject().put("concurrency", 1).put("attempts", 2).put("retry-base-ms", 50)
        .put("trust-path", certs.caFile().toString())
        .put("apns", new JsonObject().put("key-path", signingKey.toString()).put("key-id", "KEY0000001")
            .put("team-id", "TEAM000001").put("topic", "io.kith.demo").put("host", "localhost").put("port", apnsPort))
        .put("fcm", new JsonObject().put("credentials-path", serviceAccount.toString()).put("project-id", PROJECT)
            .put("base-url", "http://127.0.0.1:" + fcmPort))
        .put("webpush", new JsonObject().put("public-key", WebPushSubscriber.b64(WebPushSubscriber.point(
            vapid.getPublic()))).put("private-key", WebPushSubscriber.b64(d)).put("subject", "mailto:ops@kith.test"));
  }

  private static String pem(KeyPair keys) {
    return "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
        .encodeToString(keys.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
  }

  private void fcm(HttpServerRequest req) {
    record(req, req.path().equals("/token") ? tokenRequests : fcm, r -> {
      if (req.path().equals("/token")) {
        req.response().putHeader("Content-Type", "application/json").end(new JsonObject()
            .put("access_token", ACCESS_TOKEN).put("expires_in", 3600).put("token_type", "Bearer").encode());
        return;
      }
      String token = r.body().toJsonObject().getJsonObject("message", new JsonObject()).getString("token", "");
      if (gone.contains(token)) {
        // as FCM documents a token that is no longer valid
        req.response().setStatusCode(404).putHeader("Content-Type", "application/json").end(new JsonObject()
            .put("error", new JsonObject().put("code", 404).put("message", "Requested entity was not found.")
                .put("status", "NOT_FOUND").put("details", new JsonArray().add(new JsonObject()
                    .put("@type", "type.googleapis.com/google.firebase.fcm.v1.FcmError")
                    .put("errorCode", "UNREGISTERED")))).encode());
      } else {
        req.response().putHeader("Content-Type", "application/json").end(new JsonObject()
            .put("name", "projects/" + PROJECT + "/messages/" + System.nanoTime()).encode());
      }
    });
  }

  private static void record(HttpServerRequest req, List<Request> into, java.util.function.Consumer<Request> answer) {
    req.body().onSuccess(body -> {
      Map<String, String> headers = new ConcurrentHashMap<>();
      req.headers().forEach(h -> headers.put(h.getKey().toLowerCase(), h.getValue()));
      Request r = new Request(req.path(), headers, body);
      into.add(r);
      answer.accept(r);
    });
  }

  private static String last(String path) {
    return path.substring(path.lastIndexOf('/') + 1);
  }

  /** Keeps what MockApnsServer accepted. */
  private final class Recorder implements MockApnsServerListener {
    @Override
    public void handlePushNotificationAccepted(Http2Headers headers, ByteBuf payload) {
      Map<String, String> h = new ConcurrentHashMap<>();
      headers.forEach(e -> h.put(e.getKey().toString(), e.getValue().toString()));
      String path = headers.path().toString();
      apns.add(new ApnsPush(path.substring(path.lastIndexOf('/') + 1), h,
          new JsonObject(payload.toString(StandardCharsets.UTF_8))));
    }

    @Override
    public void handlePushNotificationRejected(Http2Headers headers, ByteBuf payload, RejectionReason reason,
                                               Instant invalidation) {
      // refusals are seen by their effect (the target removed)
    }
  }

  @Override
  public void close() {
    try {
      apnsServer.shutdown().get();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    } finally {
      vertx.close();
    }
  }

  /**
   * Checks a token request as Google's OAuth2 JWT-bearer grant (RFC 7523): form-encoded, the grant type, and an
   * assertion signed RS256 with the service account's key; returns the assertion's claims.
   */
  JsonObject verifiedGrant(Request request) throws GeneralSecurityException {
    Map<String, String> form = new java.util.HashMap<>();
    for (String pair : request.body().toString().split("&")) {
      int eq = pair.indexOf('=');
      form.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    if (!request.headers().getOrDefault("content-type", "").startsWith("application/x-www-form-urlencoded")
        || !"urn:ietf:params:oauth:grant-type:jwt-bearer".equals(form.get("grant_type"))) {
      throw new GeneralSecurityException("not a JWT-bearer grant: " + request.headers() + " " + form);
    }
    String[] jwt = form.get("assertion").split("\\.");
    Signature rs256 = Signature.getInstance("SHA256withRSA");
    rs256.initVerify(serviceAccountKeys.getPublic());
    rs256.update((jwt[0] + "." + jwt[1]).getBytes(StandardCharsets.US_ASCII));
    if (!rs256.verify(Base64.getUrlDecoder().decode(jwt[2]))) {
      throw new GeneralSecurityException("the assertion's signature does not verify");
    }
    return new JsonObject(new String(Base64.getUrlDecoder().decode(jwt[1]), StandardCharsets.UTF_8));
  }

  /** Stops a test class's node, then its endpoints (either may be null when the start failed). */
  static void close(PushKith kith, ProviderEndpoints endpoints) {
    if (kith != null) {
      kith.close();
    }
    if (endpoints != null) {
      endpoints.close();
    }
  }
}
