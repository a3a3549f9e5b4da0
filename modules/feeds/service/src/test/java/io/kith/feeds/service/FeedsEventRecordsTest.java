package io.kith.feeds.service;

import io.kith.feeds.api.FeedsEvents;
import io.kith.feeds.api.events.CommentAdded;
import io.kith.feeds.api.events.CommentDeleted;
import io.kith.feeds.api.events.FeedsEvent;
import io.kith.feeds.api.events.MediaProcessed;
import io.kith.feeds.api.events.PostDeleted;
import io.kith.feeds.api.events.PostEdited;
import io.kith.feeds.api.events.PostLiked;
import io.kith.feeds.api.events.PostPublished;
import io.kith.feeds.api.events.PostReposted;
import io.kith.feeds.api.events.PostUnliked;
import io.kith.feeds.api.events.UserMentioned;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The typed feeds events write and read the payloads the stream has always held. */
class FeedsEventRecordsTest {

  @Test
  @DisplayName("every feeds event writes its payload byte for byte as the emitters wrote it and reads back equal")
  void roundTrip() {
    // each expected payload is built as the emitter built it before the records (keys in the same order)
    Map<FeedsEvent, JsonObject> before = Map.of(
        new PostPublished(10, 1, "public", 0, List.of(2L, 3L)), new JsonObject().put("post", 10L).put("author", 1L)
            .put("visibility", "public").put("repost_of", 0L).put("mentions", new JsonArray(List.of(2L, 3L))),
        new PostDeleted(10, 1, 9), new JsonObject().put("post", 10L).put("author", 1L).put("repost_of", 9L),
        new PostEdited(10, 1, "friends"), new JsonObject().put("post", 10L).put("author", 1L)
            .put("visibility", "friends"),
        new CommentAdded(20, 10, 1, 2, 0, 0), new JsonObject().put("comment", 20L).put("post", 10L)
            .put("post_author", 1L).put("from", 2L).put("reply_to", 0L).put("reply_to_author", 0L),
        new CommentDeleted(20, 10, 1, 2, 1), new JsonObject().put("comment", 20L).put("post", 10L)
            .put("post_author", 1L).put("from", 2L).put("by", 1L),
        new PostLiked(10, 1, 2), new JsonObject().put("post", 10L).put("post_author", 1L).put("from", 2L),
        new PostUnliked(10, 1, 2), new JsonObject().put("post", 10L).put("post_author", 1L).put("from", 2L),
        new PostReposted(11, 10, 1, 2), new JsonObject().put("post", 11L).put("original", 10L)
            .put("original_author", 1L).put("from", 2L),
        new UserMentioned(10, 1, 3), new JsonObject().put("post", 10L).put("from", 1L).put("to", 3L));
    before.forEach((event, json) -> {
      assertEquals(json.encode(), event.toJson().encode(), event.eventType());
      assertEquals(event, FeedsEvent.fromJson(event.eventType(), new JsonObject(json.encode())));
    });
    assertEquals(9, before.size());
  }

  @Test
  @DisplayName("stored feeds payloads read as consumers read them: missing numbers are 0, an unknown type is skipped")
  void readsStoredPayloads() {
    assertEquals(new PostPublished(7, 2, "public", 0, List.of()), FeedsEvent.fromJson(FeedsEvents.POST_PUBLISHED,
        new JsonObject("{\"post\":7,\"author\":2,\"visibility\":\"public\",\"repost_of\":0,\"mentions\":[]}")));
    assertEquals(new CommentAdded(5, 7, 0, 2, 0, 0),
        CommentAdded.fromJson(new JsonObject("{\"comment\":5,\"post\":7,\"from\":2}")));
    assertNull(FeedsEvent.fromJson("PostPinned", new JsonObject("{\"post\":7}")));
  }

  @Test
  @DisplayName("a held post's publication says held and a moderator's release says released with its repost, and "
      + "both read back equal; an ordinary publication and an author's edit carry neither member")
  void heldAndReleased() {
    PostPublished held = new PostPublished(10, 1, "private", 9, List.of(), true);
    assertEquals(true, held.toJson().getBoolean("held"));
    assertEquals(held, FeedsEvent.fromJson(FeedsEvents.POST_PUBLISHED, held.toJson()));
    PostEdited released = new PostEdited(10, 1, "public", true, 9);
    assertEquals("{\"post\":10,\"author\":1,\"visibility\":\"public\",\"released\":true,\"repost_of\":9}",
        released.toJson().encode());
    assertEquals(released, FeedsEvent.fromJson(FeedsEvents.POST_EDITED, released.toJson()));
    assertNull(new PostPublished(10, 1, "public", 0, List.of()).toJson().getValue("held"));
    assertNull(new PostEdited(10, 1, "friends").toJson().getValue("released"));
  }

  @Test
  @DisplayName("a settled media's event writes its payload, reads back equal, names the objects of one domain, and is "
      + "skipped by the post events' reader")
  void mediaProcessed() {
    MediaProcessed processed = new MediaProcessed(30, 1, "ready", List.of("messaging:7", "accounts:1", "messaging:9"));
    assertEquals("{\"media\":30,\"owner\":1,\"state\":\"ready\",\"attached\":[\"messaging:7\",\"accounts:1\","
        + "\"messaging:9\"]}", processed.toJson().encode());
    assertEquals(FeedsEvents.MEDIA_PROCESSED, processed.eventType());
    assertEquals(processed, MediaProcessed.fromJson(new JsonObject(processed.toJson().encode())));
    assertEquals(List.of(7L, 9L), processed.objectsOf("messaging"));
    assertEquals(List.of(1L), processed.objectsOf("accounts"));
    assertEquals(List.of(), processed.objectsOf("activities"));
    assertEquals(List.of(), new MediaProcessed(30, 1, "failed", List.of("messaging:x")).objectsOf("messaging"));
    assertNull(FeedsEvent.fromJson(FeedsEvents.MEDIA_PROCESSED, processed.toJson()));
  }
}
