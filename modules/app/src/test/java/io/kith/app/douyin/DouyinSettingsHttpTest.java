package io.kith.app.douyin;

import io.kith.app.support.Reply;
import io.kith.app.support.TestKith;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@DisplayName("The douyin settings: the adapter off, the publish size limit, the public URL")
class DouyinSettingsHttpTest {

  @Test
  @DisplayName("with douyin.enabled false the douyin routes do not exist (404 problem+json)")
  void disabled() {
    JsonObject config = TestKith.config("accounts", "relations", "feeds", "messaging", "gateway")
        .put("douyin", new JsonObject().put("enabled", false));
    try (TestKith kith = new TestKith(config, "o") { }) {
      Reply reply = Await.result(kith.send(HttpMethod.GET, "/douyin/feed/", null, null));
      assertEquals(404, reply.status());
      assertTrue(reply.header("Content-Type").startsWith("application/problem+json"));
    }
  }

  @Test
  @DisplayName("a publish larger than douyin.upload-max-bytes is refused as payload_too_large; URLs start with "
      + "douyin.public-url")
  void limits() {
    // the limit is on the whole multipart request: the real test video (made-up bytes would fail the media pipeline)
    // with room for the token and title fields, and a file of the limit's size is over it
    int max = DouyinKith.mp4().length + 2_000;
    JsonObject douyin = new JsonObject().put("upload-max-bytes", max).put("public-url", "https://video.example/");
    try (DouyinKith kith = DouyinKith.start(douyin)) {
      DouyinKith.DUser user = kith.user();
      DouyinKith.refused(kith.publish(user.token(), "too big", DouyinKith.mp4(max + 1)), "payload_too_large");
      JsonObject video = kith.video(user, "small enough", DouyinKith.mp4());
      assertTrue(video.getString("play_url").startsWith("https://video.example/api/v1/media/"), video.encode());
      assertTrue(video.getString("cover_url").startsWith("https://video.example/douyin/cover/"), video.encode());
      String frame = kith.awaitFetch(video.getString("cover_url"), r -> r.status() == 302).header("Location");
      assertTrue(frame.startsWith("https://video.example/api/v1/media/"), frame);
    }
  }
}
