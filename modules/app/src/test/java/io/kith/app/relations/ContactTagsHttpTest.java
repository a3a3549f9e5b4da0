package io.kith.app.relations;

import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static io.kith.app.relations.RelationsKith.ids;
import static org.junit.jupiter.api.Assertions.assertEquals;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Contact tags over HTTP: /api/v1/me/tags and /api/v1/users/{userId}/tags")
class ContactTagsHttpTest {

  private RelationsKith kith;

  @BeforeAll
  void start() {
    kith = RelationsKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  private void tag(User tagger, String tag, User target) {
    kith.put("/me/tags/" + tag + "/users/" + target.path(), tagger).expectNoContent();
  }

  @Test
  @DisplayName("a user tags contacts (idempotent), lists tags with counts, the users under a tag and the tags on a user")
  void tagAndList() {
    User me = kith.register();
    User ann = kith.register();
    User bob = kith.register();

    tag(me, "school", ann);
    tag(me, "school", ann);
    tag(me, "school", bob);
    tag(me, "climbing", ann);

    assertEquals(new JsonArray()
            .add(new JsonObject().put("tag", "climbing").put("count", 1))
            .add(new JsonObject().put("tag", "school").put("count", 2)),
        kith.get("/me/tags", me).expect(200).getJsonArray("items"));
    assertEquals(List.of(bob.id(), ann.id()), ids(kith.get("/me/tags/school/users", me).expect(200)));
    assertEquals(List.of(bob.id()), ids(kith.get("/me/tags/SCHOOL/users?limit=1", me).expect(200)));
    JsonArray onAnn = kith.get("/users/" + ann.path() + "/tags", me).expect(200).getJsonArray("items");
    assertEquals(2, onAnn.size(), onAnn.encode());
    assertEquals(java.util.Set.of("school", "climbing"), java.util.Set.copyOf(onAnn.getList()));

    kith.delete("/me/tags/school/users/" + ann.path(), me).expectNoContent();
    kith.delete("/me/tags/school/users/" + ann.path(), me).expectNoContent();
    assertEquals(List.of(bob.id()), ids(kith.get("/me/tags/school/users", me).expect(200)));
    assertEquals(new JsonArray().add("climbing"),
        kith.get("/users/" + ann.path() + "/tags", me).expect(200).getJsonArray("items"));
  }

  @Test
  @DisplayName("tags are private to the tagger: nobody else sees them, not even the tagged user")
  void tagsArePrivate() {
    User tagger = kith.register();
    User tagged = kith.register();
    User other = kith.register();
    tag(tagger, "rivals", tagged);

    assertEquals(List.of(), kith.get("/me/tags", tagged).expect(200).getJsonArray("items").getList());
    assertEquals(List.of(), kith.get("/me/tags", other).expect(200).getJsonArray("items").getList());
    assertEquals(List.of(), ids(kith.get("/me/tags/rivals/users", other).expect(200)));
    assertEquals(List.of(), kith.get("/users/" + tagged.path() + "/tags", other).expect(200)
        .getJsonArray("items").getList());
    assertEquals(List.of(), kith.get("/users/" + tagged.path() + "/tags", tagged).expect(200)
        .getJsonArray("items").getList());
    JsonObject rel = kith.post("/relationships", other, new JsonObject().put("ids", new JsonArray().add(tagged.id())))
        .expect(200).getJsonObject(tagged.path());
    assertEquals(new JsonArray(), rel.getJsonArray("tags"), rel.encode());
    assertEquals(new JsonArray().add("rivals"),
        kith.get("/users/" + tagged.path() + "/tags", tagger).expect(200).getJsonArray("items"));
  }

  @Test
  @DisplayName("a tag with spaces and non-ASCII letters travels percent-encoded in the path")
  void encodedTag() {
    User me = kith.register();
    User friend = kith.register();

    kith.put("/me/tags/close%20friends/users/" + friend.path(), me).expectNoContent();
    kith.put("/me/tags/%C3%A9quipe/users/" + friend.path(), me).expectNoContent();

    assertEquals(List.of(friend.id()), ids(kith.get("/me/tags/close%20friends/users", me).expect(200)));
    assertEquals(java.util.Set.of("close friends", "équipe"), java.util.Set.copyOf(
        kith.get("/users/" + friend.path() + "/tags", me).expect(200).getJsonArray("items").getList()));
  }

  @Test
  @DisplayName("tag refusals: yourself (400 self_relation), a missing user (404), a tag over 30 characters (400 tag)")
  void refusals() {
    User me = kith.register();
    User friend = kith.register();

    kith.put("/me/tags/me/users/" + me.path(), me).problem(400, "self_relation");
    kith.put("/me/tags/ghost/users/" + (RelationsKith.MAX_ID - 11), me).problem(404, "user_not_found");
    String longTag = "t".repeat(31);
    kith.put("/me/tags/" + longTag + "/users/" + friend.path(), me).problem(400, "validation_failed", "tag");
    kith.get("/me/tags/" + longTag + "/users", me).problem(400, "validation_failed", "tag");
    kith.put("/me/tags/%20%20/users/" + friend.path(), me).problem(400, "validation_failed", "tag");
    // NUL and other control characters (percent-encoded in the path)
    for (String control : List.of("a%00b", "esc%1B", "two%0Alines")) {
      kith.put("/me/tags/" + control + "/users/" + friend.path(), me).problem(400, "validation_failed", "tag");
    }
    assertEquals(0, kith.get("/me/tags", me).expect(200).getJsonArray("items").size());
    kith.put("/me/tags/" + "t".repeat(30) + "/users/" + friend.path(), me).expectNoContent();
    assertEquals(List.of(), kith.get("/users/" + me.path() + "/tags", me).expect(200)
        .getJsonArray("items").getList());
  }
}
