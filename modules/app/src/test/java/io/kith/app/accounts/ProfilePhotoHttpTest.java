package io.kith.app.accounts;

import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** A profile photo from an upload over HTTP (accounts, relations, feeds for media, gateway). */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Profile photos from uploads over HTTP")
class ProfilePhotoHttpTest {

  private TestKith kith;

  @BeforeAll
  void start() {
    // one node with accounts, relations (blocks), feeds (media) and the gateway.
    kith = TestKith.node("pp", "accounts", "relations", "feeds", "gateway");
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("photo_media names an upload that whoever may see the profile reads; a blocked user and anonymous callers get 404")
  void photoReadableWithTheProfile() {
    User alice = kith.register();
    User reader = kith.register();
    User blocked = kith.register();
    kith.put("/me/blocks/" + blocked.path(), alice).expectNoContent();
    long photo = kith.uploadImage(alice);
    assertEquals(404, kith.get("/media/" + photo, reader).status(), "not a photo yet: the uploader's only");

    JsonObject own = kith.patch("/me", alice, new JsonObject().put("photo_media", photo)).expect(200);
    assertEquals(photo, own.getLong("photo_media"));
    assertEquals(photo, kith.get("/users/" + alice.path(), reader).expect(200).getLong("photo_media"));
    assertEquals(photo, kith.get("/users?ids=" + alice.id(), reader).expect(200).getJsonArray("items")
        .getJsonObject(0).getLong("photo_media"));
    assertEquals(200, kith.get("/media/" + photo, reader).status());
    kith.get("/media/" + photo, blocked).problem(404, "media_not_found");
    kith.get("/media/" + photo, null).problem(404, "media_not_found");
  }

  @Test
  @DisplayName("photo_media that is another user's upload or failed processing (bytes that decode as nothing) is 400 "
      + "invalid_media, and not an id 400 validation_failed")
  void photoRefusals() {
    User alice = kith.register();
    User bob = kith.register();
    long bobs = kith.uploadImage(bob);
    kith.patch("/me", alice, new JsonObject().put("photo_media", bobs)).problem(400, "invalid_media");
    kith.patch("/me", alice, new JsonObject().put("photo_media", "https://example.test/me.png"))
        .problem(400, "validation_failed", "photo_media");
    assertNull(kith.get("/me", alice).expect(200).getValue("photo_media"));
    assertEquals(404, kith.get("/media/" + bobs, alice).status(), "a refused change attaches nothing");
    long garbage = kith.uploadGarbageImage(alice);
    JsonObject failed = kith.patch("/me", alice, new JsonObject().put("photo_media", garbage))
        .problem(400, "invalid_media");
    assertEquals(garbage, failed.getJsonArray("media").getLong(0), failed.encode());
    assertNull(kith.get("/me", alice).expect(200).getValue("photo_media"));
    assertEquals(404, kith.get("/media/" + garbage, bob).status(), "a refused change attaches nothing");
  }
}
