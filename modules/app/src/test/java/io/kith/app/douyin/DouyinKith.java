package io.kith.app.douyin;

import io.kith.app.support.Reply;
import io.kith.app.support.TestKith;
import io.kith.feeds.service.media.TestVideos;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.Poll;
import io.vertx.core.MultiMap;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One Kith node (accounts, relations, feeds, messaging and the gateway) for one test class, and a client that talks
 * to its douyin routes as those apps do: GET with query parameters, POST with form bodies or multipart, every answer
 * HTTP 200 with {@code status_code}.
 */
final class DouyinKith extends TestKith {

  /** A douyin user: its id and token. */
  record DUser(long id, String token) {
  }

  private DouyinKith(JsonObject douyin) {
    super(config("accounts", "relations", "feeds", "messaging", "gateway").put("douyin", douyin), "d");
  }

  static DouyinKith start() {
    return new DouyinKith(new JsonObject());
  }

  /** A node with these {@code douyin} settings. */
  static DouyinKith start(JsonObject douyin) {
    return new DouyinKith(douyin);
  }

  private static String form(Map<String, ?> params) {
    StringBuilder b = new StringBuilder();
    params.forEach((k, v) -> {
      if (b.length() > 0) {
        b.append('&');
      }
      b.append(URLEncoder.encode(k, StandardCharsets.UTF_8)).append('=')
          .append(URLEncoder.encode(String.valueOf(v), StandardCharsets.UTF_8));
    });
    return b.toString();
  }

  /** GET {@code /douyin<path>} with these query parameters; the reply, asserted HTTP 200. */
  JsonObject get(String path, Map<String, ?> query) {
    Reply reply = Await.result(send(HttpMethod.GET, "/douyin" + path + "?" + form(query), null, null));
    assertEquals(200, reply.status(), reply.text());
    return reply.json();
  }

  /** POST {@code /douyin<path>} with these parameters as a form body; the reply, asserted HTTP 200. */
  JsonObject post(String path, Map<String, ?> params) {
    MultiMap headers = MultiMap.caseInsensitiveMultiMap().add("Content-Type", "application/x-www-form-urlencoded");
    Reply reply = Await.result(send(HttpMethod.POST, "/douyin" + path, null, headers, Buffer.buffer(form(params))));
    assertEquals(200, reply.status(), reply.text());
    return reply.json();
  }

  /** POST with the parameters in the query string and no body (as some clients send register and login). */
  JsonObject postQuery(String path, Map<String, ?> query) {
    Reply reply = Await.result(send(HttpMethod.POST, "/douyin" + path + "?" + form(query), null, null));
    assertEquals(200, reply.status(), reply.text());
    return reply.json();
  }

  /** The reply of a call that must succeed ({@code status_code} 0). */
  static JsonObject ok(JsonObject reply) {
    assertEquals(0, reply.getInteger("status_code"), reply.encode());
    return reply;
  }

  /** Asserts a refusal ({@code status_code} non-zero) whose {@code status_msg} starts with {@code code}. */
  static void refused(JsonObject reply, String code) {
    assertEquals(1, reply.getInteger("status_code"), reply.encode());
    String message = reply.getString("status_msg");
    assertEquals(code, message.substring(0, Math.max(0, message.indexOf(':'))), message);
  }

  /** Registers a fresh douyin user. */
  DUser user() {
    JsonObject r = ok(postQuery("/user/register/", Map.of("username", unique("d"), "password", "Sunny-pass-42!")));
    return new DUser(r.getLong("user_id"), r.getString("token"));
  }

  private static byte[] video;

  /**
   * A real few-frame MP4 the media pipeline decodes, encoded once per test JVM (made-up bytes fail the pipeline, and
   * a video that failed cannot be attached to a post).
   */
  static synchronized byte[] mp4() {
    if (video == null) {
      try {
        video = TestVideos.mp4(64, 48, 3);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return video.clone();
  }

  /**
   * {@code size} bytes (at least 16) that open as an MP4 (an ISO base media header with a video brand) and decode as
   * nothing: for refusals that come before the pipeline, such as a size limit.
   */
  static byte[] mp4(int size) {
    byte[] b = new byte[size];
    ThreadLocalRandom.current().nextBytes(b);
    byte[] head = {0, 0, 0, 0x18, 'f', 't', 'y', 'p', 'i', 's', 'o', 'm', 0, 0, 2, 0};
    System.arraycopy(head, 0, b, 0, head.length);
    return b;
  }

  /** POST /douyin/publish/action/ as multipart: the token and title fields, and {@code data} as a file. */
  JsonObject publish(String token, String title, byte[] data) {
    String boundary = "kith" + unique("b");
    Buffer body = Buffer.buffer();
    if (token != null) {
      field(body, boundary, "token", token);
    }
    field(body, boundary, "title", title);
    body.appendString("--" + boundary + "\r\nContent-Disposition: form-data; name=\"data\"; filename=\"v.mp4\"\r\n"
        + "Content-Type: video/mp4\r\n\r\n").appendBytes(data).appendString("\r\n--" + boundary + "--\r\n");
    MultiMap headers = MultiMap.caseInsensitiveMultiMap()
        .add("Content-Type", "multipart/form-data; boundary=" + boundary);
    Reply reply = Await.result(send(HttpMethod.POST, "/douyin/publish/action/", null, headers, body));
    assertEquals(200, reply.status(), reply.text());
    return reply.json();
  }

  private static void field(Buffer body, String boundary, String name, String value) {
    body.appendString("--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + name + "\"\r\n\r\n")
        .appendString(value, "UTF-8").appendString("\r\n");
  }

  /** Publishes a video as {@code user} and answers it from the user's publish list. */
  JsonObject video(DUser user, String title) {
    return video(user, title, mp4());
  }

  /** Publishes {@code data} as a video as {@code user} and answers it from the user's publish list. */
  JsonObject video(DUser user, String title, byte[] data) {
    ok(publish(user.token(), title, data));
    JsonArray list = ok(get("/publish/list/", Map.of("token", user.token(), "user_id", user.id())))
        .getJsonArray("video_list");
    return list.stream().map(JsonObject.class::cast).filter(v -> title.equals(v.getString("title"))).findFirst()
        .orElseThrow();
  }

  /** GET of an absolute URL an answer gave (play_url, cover_url): the raw reply. */
  Reply fetch(String url) {
    String path = url.substring(url.indexOf('/', url.indexOf("//") + 2));
    return Await.result(send(HttpMethod.GET, path, null, null));
  }

  /** Fetches {@code url} until {@code condition} accepts the reply (media processing has a generous deadline). */
  Reply awaitFetch(String url, Predicate<Reply> condition) {
    AtomicReference<Reply> last = new AtomicReference<>();
    String path = url.substring(url.indexOf('/', url.indexOf("//") + 2));
    Await.result(Poll.until(client(), Duration.ofSeconds(90), "GET " + url + " to answer as expected",
        () -> send(HttpMethod.GET, path, null, null).map(r -> {
          last.set(r);
          return condition.test(r);
        })));
    return last.get();
  }

  /** The last path segment of a URL (a cover_url's media id), without its query. */
  static String lastSegment(String url) {
    String path = url.contains("?") ? url.substring(0, url.indexOf('?')) : url;
    return path.substring(path.lastIndexOf('/') + 1);
  }
}
