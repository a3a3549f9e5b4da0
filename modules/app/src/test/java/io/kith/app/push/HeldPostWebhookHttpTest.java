package io.kith.app.push;

import io.kith.app.moderation.AddedFilters;
import io.kith.app.support.User;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Webhooks of a held post: post.published goes out when a moderator releases it, never while it is held")
class HeldPostWebhookHttpTest extends HooksTest {

  private AddedFilters filters;

  @AfterAll
  void removeFilters() {
    if (filters != null) {
      filters.removeAll();
    }
  }

  @Test
  @DisplayName("a post a hold filter holds sends no post.published while held; dismissing its report sends one, with "
      + "the visibility the author asked for; a post the filter does not match is announced at once")
  void releasedPostIsPublished() {
    filters = new AddedFilters(kith, kith.admin);
    String word = AddedFilters.word("hookheld");
    filters.add(new JsonObject().put("kind", "word").put("value", word).put("action", "hold").put("category", "spam")
        .put("contexts", new JsonArray().add("post").add("nickname")));
    User probe = kith.register();
    kith.await("the hold filter applied (a nickname with the word is refused)", () -> kith.patch("/me", probe,
        new JsonObject().put("nickname", "probe " + word)).status() == 422);
    String url = receiver.url("heldPost");
    JsonObject endpoint = kith.register(url, "post.published");
    User author = kith.register();

    JsonObject held = kith.publish(author, "cheap deals " + word, "followers");
    long post = held.getLong("id");
    assertTrue(held.getBoolean("held", false), held.encode());
    long clean = kith.publish(author, "nothing to hold");
    kith.await("the clean post's delivery", () -> !receiver.about(url, "post", clean).isEmpty());

    JsonObject report = kith.awaitPage("/admin/reports?state=open&target_type=post&target_id=" + post, kith.admin,
        "the system's report on the held post", p -> !p.getJsonArray("items").isEmpty())
        .getJsonArray("items").getJsonObject(0);
    kith.post("/admin/reports/" + report.getLong("id") + "/decision", kith.admin, new JsonObject()
        .put("decision", "dismiss").put("reason", "reviewed")).expect(200);
    kith.await("the released post's delivery", () -> !receiver.about(url, "post", post).isEmpty());
    // every delivery about one post goes out in event order, so a delivery for the held publication would be first
    List<Receiver.Hit> hits = receiver.about(url, "post", post);
    assertEquals(1, hits.size(), "one post.published for the held post: " + hits);
    JsonObject data = hits.get(0).json().getJsonObject("data");
    assertEquals("post.published", hits.get(0).event());
    assertEquals("followers", data.getString("visibility"), data.encode());
    assertEquals(author.id(), data.getLong("author"));
    assertEquals(0L, data.getLong("repost_of"));
    kith.admin(HttpMethod.DELETE, "/webhooks/" + endpoint.getLong("id"), null).expectNoContent();
  }
}
