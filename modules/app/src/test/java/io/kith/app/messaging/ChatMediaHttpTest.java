package io.kith.app.messaging;

import io.kith.app.support.Conformance;
import io.kith.app.support.Reply;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.TestImages;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Chat images over HTTP (accounts, relations, feeds for media, messaging, gateway): a message's media is an upload of
 * the sender's, attached to the conversation, and readable by its members only.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Chat images over HTTP")
class ChatMediaHttpTest {

  private final Conformance contract = Conformance.load();
  private TestKith kith;

  @BeforeAll
  void start() {
    // one node with what a chat image needs: media from feeds, conversations from messaging.
    kith = TestKith.node("cm", "accounts", "relations", "feeds", "messaging", "gateway");
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  private Reply sendDirect(User from, User to, Object media) {
    return kith.post("/direct/" + to.path() + "/messages", from, new JsonObject()
        .put("client_id", UUID.randomUUID().toString()).put("media", media));
  }

  private int read(long media, User as) {
    return kith.get("/media/" + media, as).status();
  }

  @Test
  @DisplayName("a direct message's image is readable by both members, and 404 to anyone else")
  void directImage() {
    User alice = kith.register();
    User bob = kith.register();
    User stranger = kith.register();
    long image = kith.uploadImage(alice);
    assertEquals(404, read(image, bob), "not attached yet: the uploader's only");

    JsonObject m = sendDirect(alice, bob, image).expect(201).getJsonObject("message");
    assertEquals(image, m.getJsonObject("media").getLong("id"));
    assertEquals("image", m.getJsonObject("media").getString("kind"));
    assertEquals(200, read(image, bob));
    assertEquals(200, read(image, alice));
    kith.get("/media/" + image, stranger).problem(404, "media_not_found");
    kith.get("/media/" + image, null).problem(404, "media_not_found");

    JsonObject inHistory = kith.get("/conversations/" + m.getLong("conversation") + "/messages", bob).expect(200)
        .getJsonArray("items").getJsonObject(0);
    assertEquals(image, inHistory.getJsonObject("media").getLong("id"));
  }

  @Test
  @DisplayName("a chat image carries its state and variants, as documented, and the other member fetches a "
      + "thumbnail by its url")
  void imageVariants() {
    User alice = kith.register();
    User bob = kith.register();
    long image = kith.upload(alice, "image/png", TestImages.png(600, 400)).expect(201).getLong("id");
    JsonObject sent = sendDirect(alice, bob, image).expect(201).getJsonObject("message");
    JsonObject page = kith.get("/conversations/" + sent.getLong("conversation") + "/messages", bob).expect(200);
    assertEquals(List.of(), contract.problems("listMessages", 200, page), "the history is as documented");
    JsonObject media = page.getJsonArray("items").getJsonObject(0).getJsonObject("media");
    assertEquals(sent.getJsonObject("media"), media);
    assertEquals("ready", media.getString("state"), media.encode());
    assertEquals(600, media.getInteger("width"));
    assertEquals(List.of("w160", "w480"), media.getJsonArray("variants").stream()
        .map(v -> ((JsonObject) v).getString("name")).toList());
    assertEquals(List.of(), contract.problems("getMediaInfo", 200, media), "the same view as the media's own");
    Reply thumb = kith.get(media.getJsonArray("variants").getJsonObject(0).getString("url")
        .substring(TestKith.API.length()), bob);
    assertEquals(200, thumb.status(), thumb.text());
    assertEquals(160, TestImages.decode(thumb.body().getBytes()).getWidth());
  }

  @Test
  @DisplayName("a group message's image is readable by the group's members, not by a non-member")
  void groupImage() {
    User alice = kith.register();
    User bob = kith.register();
    User outsider = kith.register();
    JsonObject spec = new JsonObject().put("kind", "topic").put("name", TestKith.unique("Pics "))
        .put("topic", "pictures");
    long group = kith.post("/groups", alice, spec).expect(201).getLong("id");
    kith.post("/groups/" + group + "/join", bob, null).expect(200);
    long image = kith.uploadImage(alice);
    kith.post("/groups/" + group + "/messages", alice, new JsonObject().put("client_id", UUID.randomUUID().toString())
        .put("media", image)).expect(201);
    assertEquals(200, read(image, bob));
    kith.get("/media/" + image, outsider).problem(404, "media_not_found");
  }

  @Test
  @DisplayName("a chat media that is another user's upload, failed processing (bytes that decode as nothing), unknown, "
      + "or not an id is 400, and nothing is sent")
  void badMedia() {
    User alice = kith.register();
    User bob = kith.register();
    long bobs = kith.uploadImage(bob);
    JsonObject problem = sendDirect(alice, bob, bobs).problem(400, "invalid_media");
    assertEquals(bobs, problem.getJsonArray("media").getLong(0), problem.encode());
    sendDirect(alice, bob, bobs + 987_654_321L).problem(400, "invalid_media");
    sendDirect(alice, bob, "https://example.test/cat.png").problem(400, "validation_failed");
    sendDirect(alice, bob, 0).problem(400, "validation_failed");
    assertEquals(404, read(bobs, alice), "a refused send attaches nothing");
    long garbage = kith.uploadGarbageImage(alice);
    JsonObject failed = sendDirect(alice, bob, garbage).problem(400, "invalid_media");
    assertEquals(garbage, failed.getJsonArray("media").getLong(0), failed.encode());
    assertEquals(404, read(garbage, bob), "a refused send attaches nothing");
  }
}
