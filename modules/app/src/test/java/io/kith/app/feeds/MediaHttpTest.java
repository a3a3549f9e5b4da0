package io.kith.app.feeds;

import io.kith.app.Kith;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.TestImages;
import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.AsyncFile;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Media over HTTP on one Kith node (accounts, relations, feeds, gateway): streamed uploads, downloads with ranges and
 * headers, and the refusals. Reads by other users of media attached to a visible post need the feeds service's
 * publishing, which is tested at the service level (MediaReadTest) until then.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MediaHttpTest {

  private static final String API = "/api/v1";
  private static final int IMAGE_MAX = 300 * 1024;
  private static final int VIDEO_MAX = 2 * 1024 * 1024;

  private Kith kith;
  private Vertx client;
  private WebClient web;

  record Reply(int status, MultiMap headers, Buffer body) {
    JsonObject json(int expected) {
      assertEquals(expected, status, "unexpected status; body: " + text());
      return body.toJsonObject();
    }

    String text() {
      return body == null ? "" : body.length() > 500 ? body.getString(0, 500) : body.toString();
    }

    JsonObject problem(int expected, String code) {
      assertEquals(expected, status, "unexpected status; body: " + text());
      assertTrue(headers.get("Content-Type").startsWith("application/problem+json"), headers.get("Content-Type"));
      JsonObject problem = body.toJsonObject();
      assertEquals(code, problem.getString("code"), problem.encode());
      return problem;
    }
  }

  @BeforeAll
  void start() {
    JsonObject overrides = new JsonObject()
        .put("kith", new JsonObject().put("modules", new JsonArray().add("accounts").add("relations").add("feeds")
            .add("gateway")))
        .put("http", new JsonObject().put("port", 0).put("instances", 1).put("access-log", false))
        .put("bridge", new JsonObject().put("tcp-port", 0))
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000))
        .put("feeds", new JsonObject().put("media", new JsonObject().put("image-max-bytes", IMAGE_MAX)
            .put("video-max-bytes", VIDEO_MAX).put("uploads-per-window", 1000)));
    kith = Await.result(Kith.start(KithTestKit.config(overrides)));
    client = Vertx.vertx();
    web = WebClient.create(client, new WebClientOptions().setDefaultHost("127.0.0.1")
        .setDefaultPort(kith.httpPort()).setFollowRedirects(false));
  }

  @AfterAll
  void stop() {
    try {
      if (web != null) {
        web.close();
        Await.result(client.close());
      }
    } finally {
      if (kith != null) {
        Await.result(kith.stop());
      }
    }
  }

  // ------------------------------------------------------------------ helpers

  private String register() {
    String name = "m" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
    HttpResponse<Buffer> r = Await.result(web.post(API + "/accounts").sendJsonObject(new JsonObject()
        .put("username", name).put("password", "Sunny-" + name + "!")));
    assertEquals(201, r.statusCode(), r.bodyAsString());
    return r.bodyAsJsonObject().getJsonObject("tokens").getString("access_token");
  }

  private static Reply reply(Future<HttpResponse<Buffer>> response) {
    return Await.result(response.map(r -> new Reply(r.statusCode(), r.headers(), r.body())));
  }

  private Reply upload(String token, String type, Buffer body) {
    HttpRequest<Buffer> request = web.post(API + "/media");
    if (token != null) {
      request.putHeader("Authorization", "Bearer " + token);
    }
    if (type != null) {
      request.putHeader("Content-Type", type);
    }
    return reply(request.sendBuffer(body));
  }

  /** Uploads with chunked transfer encoding (no Content-Length), from a file. */
  private Reply uploadChunked(String token, String type, Buffer body) {
    String path = Await.result(client.fileSystem().createTempFile("kith-media", ".bin"));
    Await.result(client.fileSystem().writeFile(path, body));
    AsyncFile file = Await.result(client.fileSystem().open(path, new OpenOptions().setRead(true)));
    try {
      return reply(web.post(API + "/media").putHeader("Authorization", "Bearer " + token)
          .putHeader("Content-Type", type).sendStream(file));
    } finally {
      client.fileSystem().delete(path);
    }
  }

  private Reply get(String path, String token, String... headers) {
    HttpRequest<Buffer> request = web.get(API + path);
    if (token != null) {
      request.putHeader("Authorization", "Bearer " + token);
    }
    for (int i = 0; i < headers.length; i += 2) {
      request.putHeader(headers[i], headers[i + 1]);
    }
    return reply(request.send());
  }

  private static Buffer bytes(int size, int... head) {
    byte[] b = new byte[size];
    ThreadLocalRandom.current().nextBytes(b);
    for (int i = 0; i < head.length; i++) {
      b[i] = (byte) head[i];
    }
    return Buffer.buffer(b);
  }

  private static Buffer png(int size) {
    return bytes(size, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A);
  }

  /** A real PNG the media pipeline decodes (the made-up bytes of {@link #png} fail it and cannot be attached). */
  private static Buffer realPng() {
    return Buffer.buffer(TestImages.png(40, 30));
  }

  private static Buffer mp4(int size) {
    return bytes(size, 0, 0, 0, 0x18, 'f', 't', 'y', 'p', 'm', 'p', '4', '2');
  }

  // ------------------------------------------------------------------ tests

  @Test
  @DisplayName("an uploaded image is 201 with its description and reads back with the media headers")
  void uploadAndRead() {
    String token = register();
    Buffer image = png(50_000);
    Reply created = upload(token, "image/png", image);
    JsonObject media = created.json(201);
    assertEquals("image", media.getString("kind"));
    assertEquals("image/png", media.getString("content_type"));
    assertEquals(50_000, media.getLong("size"));
    assertEquals(API + "/media/" + media.getLong("id"), created.headers().get("Location"));

    Reply read = get("/media/" + media.getLong("id"), token, "Accept-Encoding", "gzip, deflate");
    assertEquals(200, read.status(), read.text());
    assertEquals(image, read.body());
    assertEquals("image/png", read.headers().get("Content-Type"));
    assertEquals("50000", read.headers().get("Content-Length"));
    assertEquals("bytes", read.headers().get("Accept-Ranges"));
    assertEquals("nosniff", read.headers().get("X-Content-Type-Options"));
    assertEquals("private, no-cache", read.headers().get("Cache-Control"));
    assertNull(read.headers().get("Content-Encoding") == null ? null
        : read.headers().get("Content-Encoding").contains("gzip") ? "gzip" : null, "media is never compressed");
    String etag = read.headers().get("ETag");
    assertNotNull(etag);

    Reply notModified = get("/media/" + media.getLong("id"), token, "If-None-Match", etag);
    assertEquals(304, notModified.status());
  }

  @Test
  @DisplayName("a video larger than the general body limit is streamed in, also without Content-Length")
  void largeVideo() {
    String token = register();
    Buffer video = mp4(1_500_000); // over http.body-limit (1 MiB)
    JsonObject media = upload(token, "video/mp4", video).json(201);
    assertEquals("video/mp4", media.getString("content_type"));
    assertEquals(video, get("/media/" + media.getLong("id"), token).body());

    Buffer chunked = mp4(700_000);
    JsonObject second = uploadChunked(token, "video/mp4", chunked).json(201);
    assertEquals(700_000, second.getLong("size"));
    assertEquals(chunked, get("/media/" + second.getLong("id"), token).body());
  }

  @Test
  @DisplayName("ranges answer 206 with Content-Range; a range past the end is 416 with bytes */size")
  void ranges() {
    String token = register();
    Buffer video = mp4(600_000);
    long id = upload(token, "video/mp4", video).json(201).getLong("id");

    Reply part = get("/media/" + id, token, "Range", "bytes=261110-261139");
    assertEquals(206, part.status(), part.text());
    assertEquals(video.getBuffer(261_110, 261_140), part.body());
    assertEquals("bytes 261110-261139/600000", part.headers().get("Content-Range"));
    assertEquals("30", part.headers().get("Content-Length"));
    assertEquals("video/mp4", part.headers().get("Content-Type"));

    Reply suffix = get("/media/" + id, token, "Range", "bytes=-10");
    assertEquals(206, suffix.status());
    assertEquals(video.getBuffer(599_990, 600_000), suffix.body());
    assertEquals("bytes 599990-599999/600000", suffix.headers().get("Content-Range"));

    Reply beyond = get("/media/" + id, token, "Range", "bytes=600000-");
    beyond.problem(416, "range_not_satisfiable");
    assertEquals("bytes */600000", beyond.headers().get("Content-Range"));

    Reply multi = get("/media/" + id, token, "Range", "bytes=0-1,5-6");
    assertEquals(200, multi.status());
    assertEquals(video, multi.body());
  }

  @Test
  @DisplayName("content that is not an accepted format is 415 whatever the declared type; so is a non-media type")
  void unsupported() {
    String token = register();
    upload(token, "image/png", Buffer.buffer("GIF? no: just text, " + "x".repeat(200))).problem(415,
        "unsupported_media");
    upload(token, "image/png", mp4(5_000)).problem(415, "unsupported_media");
    upload(token, "text/plain", png(5_000)).problem(415, "unsupported_media");
    upload(token, null, png(5_000)).problem(415, "unsupported_media");
  }

  @Test
  @DisplayName("an image over its limit is 413, with a Content-Length and without one")
  void tooLarge() {
    String token = register();
    JsonObject problem = upload(token, "image/png", png(IMAGE_MAX + 1)).problem(413, "media_too_large");
    assertEquals(IMAGE_MAX, problem.getLong("max_bytes"));
    uploadChunked(token, "image/png", png(IMAGE_MAX + 100_000)).problem(413, "media_too_large");
    // the connection was closed after the refusal; the next request works
    assertEquals(201, upload(token, "image/png", png(IMAGE_MAX)).status());
  }

  private Reply publish(String token, JsonObject post) {
    return reply(web.post(API + "/posts").putHeader("Authorization", "Bearer " + token).sendJsonObject(post));
  }

  @Test
  @DisplayName("attached media are readable by whoever may see a post using them, and by nobody else")
  void readableThroughPosts() {
    String owner = register();
    String other = register();
    long open = upload(owner, "image/png", realPng()).json(201).getLong("id");
    long closed = upload(owner, "image/png", realPng()).json(201).getLong("id");
    publish(owner, new JsonObject().put("text", "public").put("media", new JsonArray().add(open))).json(201);
    publish(owner, new JsonObject().put("text", "friends").put("visibility", "friends")
        .put("media", new JsonArray().add(closed))).json(201);

    Reply byOther = get("/media/" + open, other);
    assertEquals(200, byOther.status(), byOther.text());
    assertEquals("image/png", byOther.headers().get("Content-Type"));
    assertEquals(200, get("/media/" + open, null).status(), "anonymous reader of a public post");
    get("/media/" + closed, other).problem(404, "media_not_found");
    get("/media/" + closed, null).problem(404, "media_not_found");
    assertEquals(200, get("/media/" + closed, owner).status());
    // another user's upload cannot be attached
    publish(other, new JsonObject().put("text", "stolen").put("media", new JsonArray().add(open)))
        .problem(400, "invalid_media");
  }

  @Test
  @DisplayName("a media id repeated in a post is 400 invalid_media naming it, and no post is made")
  void repeatedMediaId() {
    String owner = register();
    long id = upload(owner, "image/png", realPng()).json(201).getLong("id");
    JsonObject problem = publish(owner, new JsonObject().put("text", "twice")
        .put("media", new JsonArray().add(id).add(id))).problem(400, "invalid_media");
    assertEquals(new JsonArray().add(id), problem.getJsonArray("media"), problem.encode());
    get("/media/" + id, register()).problem(404, "media_not_found");
  }

  @Test
  @DisplayName("an image that failed processing (bytes that decode as nothing) is 400 invalid_media naming it, and "
      + "nothing is attached")
  void failedMediaRefused() {
    String owner = register();
    JsonObject garbage = upload(owner, "image/png", png(2_000)).json(201);
    assertEquals("failed", garbage.getString("state"));
    assertEquals("undecodable", garbage.getString("reason"));
    long good = upload(owner, "image/png", realPng()).json(201).getLong("id");
    JsonObject problem = publish(owner, new JsonObject().put("text", "broken")
        .put("media", new JsonArray().add(good).add(garbage.getLong("id")))).problem(400, "invalid_media");
    assertEquals(new JsonArray().add(garbage.getLong("id")), problem.getJsonArray("media"), problem.encode());
    get("/media/" + good, null).problem(404, "media_not_found");
    // the good image alone is fine
    publish(owner, new JsonObject().put("text", "fine").put("media", new JsonArray().add(good))).json(201);
    assertEquals(200, get("/media/" + good, null).status());
  }

  @Test
  @DisplayName("uploading needs a valid token; reading unattached media is 404 for other users and anonymous callers")
  void access() {
    String owner = register();
    String other = register();
    upload(null, "image/png", png(1_000)).problem(401, "unauthenticated");
    upload("not-a-token", "image/png", png(1_000)).problem(401, "token_invalid");
    long id = upload(owner, "image/png", png(1_000)).json(201).getLong("id");

    JsonObject byOther = get("/media/" + id, other).problem(404, "media_not_found");
    JsonObject anonymous = get("/media/" + id, null).problem(404, "media_not_found");
    JsonObject missing = get("/media/" + (id + 1_000_000), owner).problem(404, "media_not_found");
    assertEquals(missing.getString("detail"), byOther.getString("detail"));
    assertEquals(missing.getString("detail"), anonymous.getString("detail"));
    // a token that is present must be valid, even where anonymous callers are served
    get("/media/" + id, null, "Authorization", "Bearer not-a-token").problem(401, "token_invalid");
    get("/media/0", owner).problem(400, "validation_failed");
    assertEquals(200, get("/media/" + id, owner).status());
  }

  @Test
  @DisplayName("other operations still get the general body limit")
  void otherBodiesStillLimited() {
    String token = register();
    Reply r = reply(web.post(API + "/relationships").putHeader("Authorization", "Bearer " + token)
        .putHeader("Content-Type", "application/json").sendBuffer(Buffer.buffer("[" + "1,".repeat(600_000) + "1]")));
    r.problem(413, "payload_too_large");
  }
}
