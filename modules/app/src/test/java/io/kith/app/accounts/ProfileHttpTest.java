package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.app.support.Reply;
import io.kith.gateway.GatewayVerticle;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Future;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.contract.Location;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static io.kith.app.accounts.AccountsKith.API;
import static io.kith.app.accounts.AccountsKith.newAddress;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Profiles over HTTP: GET/PATCH /api/v1/me and GET /api/v1/users/{userId}")
class ProfileHttpTest {

  /** Tags of the accounts domain's operations in the contract. */
  private static final Set<String> ACCOUNTS_TAGS = Set.of("accounts", "people", "presence", "nearby");
  private AccountsKith kith;

  @BeforeAll
  void start() {
    kith = AccountsKith.start();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("GET /me returns the whole own profile with email, phone, role and default settings")
  void ownProfile() {
    User user = kith.register();

    JsonObject me = kith.get("/me", user.access()).expect(200);

    assertEquals(user.id(), me.getLong("id"));
    assertEquals(user.username(), me.getString("username"));
    assertEquals(user.email(), me.getString("email"));
    assertEquals(user.phone(), me.getString("phone"));
    assertEquals("user", me.getString("role"));
    assertTrue(me.getLong("created") > 0 && me.getLong("last_active") > 0, me.encode());
    assertEquals(new JsonObject().put("find_by_email", "everyone").put("find_by_phone", "everyone")
        .put("birthday_visibility", "friends").put("phone_visibility", "nobody").put("follow_approval", false)
        .put("nearby_visible", false).put("presence", "online").put("hide_filtered", false),
        me.getJsonObject("settings"));
    assertFalse(me.containsKey("password"), me.encode());
    kith.get("/me", null).problem(401, "unauthenticated");
  }

  @Test
  @DisplayName("PATCH /me changes the editable fields, derives the zodiac sign, and a null clears a field")
  void updateProfile() {
    User user = kith.register();
    JsonObject changes = new JsonObject()
        .put("nickname", "  Ada L.  ")
        .put("gender", "female")
        .put("birthday", "1990-04-21")
        .put("signature", "Counting machines")
        .put("photo_url", "https://img.example.test/ada.png")
        .put("school", "Home schooled")
        .put("job", "Analyst")
        .put("interests", new JsonArray().add("Chess").add("chess").add("Poetry"))
        .put("location", "London")
        .put("settings", new JsonObject().put("follow_approval", true));

    JsonObject updated = kith.updateProfile(user, changes);

    assertEquals("Ada L.", updated.getString("nickname"), "text is trimmed");
    assertEquals("female", updated.getString("gender"));
    assertEquals("1990-04-21", updated.getString("birthday"));
    assertEquals("taurus", updated.getString("zodiac"));
    assertEquals("Counting machines", updated.getString("signature"));
    assertEquals("https://img.example.test/ada.png", updated.getString("photo_url"));
    assertEquals("Home schooled", updated.getString("school"));
    assertEquals("Analyst", updated.getString("job"));
    assertEquals(new JsonArray().add("Chess").add("Poetry"), updated.getJsonArray("interests"),
        "interests are deduplicated whatever their case");
    assertEquals("London", updated.getString("location"));
    assertTrue(updated.getJsonObject("settings").getBoolean("follow_approval"));
    assertEquals("friends", updated.getJsonObject("settings").getString("birthday_visibility"),
        "settings not named keep their values");
    assertEquals(updated, kith.get("/me", user.access()).expect(200), "GET /me shows the change");

    JsonObject cleared = kith.updateProfile(user, new JsonObject().putNull("birthday").putNull("school"));
    assertNull(cleared.getValue("birthday"), cleared.encode());
    assertNull(cleared.getValue("zodiac"), "the zodiac sign goes with the birthday: " + cleared.encode());
    assertNull(cleared.getValue("school"), cleared.encode());
    assertEquals("Analyst", cleared.getString("job"));
  }

  @Test
  @DisplayName("PATCH /me with another account's phone, however written, is accepted unverified like any phone")
  void phoneHeldElsewhere() {
    User holder = kith.register();
    User user = kith.register();
    String digits = holder.phone().substring(3);

    JsonObject changed = kith.updateProfile(user, new JsonObject().put("phone", "0044 " + digits));
    assertEquals(holder.phone(), changed.getString("phone"));
    assertEquals(false, changed.getBoolean("phone_verified"));
    assertEquals(holder.phone(), kith.get("/me", holder.access()).expect(200).getString("phone"),
        "the other claim stays until one of them verifies it");
  }

  @Test
  @DisplayName("changes of different settings made at the same time are all kept")
  void concurrentSettingsKept() {
    User user = kith.register();
    JsonObject expected = new JsonObject().put("find_by_email", "nobody").put("find_by_phone", "nobody")
        .put("birthday_visibility", "everyone").put("phone_visibility", "everyone").put("follow_approval", true)
        .put("nearby_visible", true).put("hide_filtered", true);
    List<Future<Reply>> writes = new ArrayList<>();
    expected.forEach(e -> writes.add(kith.send(HttpMethod.PATCH, API + "/me", user.access(), newAddress(),
        new JsonObject().put("settings", new JsonObject().put(e.getKey(), e.getValue())))));
    writes.add(kith.send(HttpMethod.PUT, API + "/me/presence", user.access(), newAddress(),
        new JsonObject().put("mode", "invisible")));
    Await.result(Future.join(new ArrayList<>(writes)));
    writes.forEach(w -> w.result().expect(200));

    JsonObject settings = kith.get("/me", user.access()).expect(200).getJsonObject("settings");
    assertEquals(expected.copy().put("presence", "invisible"), settings);
  }

  @Test
  @DisplayName("PATCH /me refuses server-owned fields with 400 read_only_field naming the field, changing nothing")
  void readOnlyFields() {
    User user = kith.register();
    User other = kith.register();
    JsonObject before = kith.get("/me", user.access()).expect(200);
    Map<String, Object> attempts = Map.of(
        "id", other.id(),
        "username", "taken_over",
        "email_verified", true,
        "created", 1L,
        "role", "admin",
        "last_active", 1L,
        "zodiac", "leo");

    attempts.forEach((field, value) -> kith.patch("/me", user.access(),
        new JsonObject().put("nickname", "changed").put(field, value)).problem(400, "read_only_field", field));

    assertEquals(before, kith.get("/me", user.access()).expect(200), "nothing changed, not even the nickname");
  }

  @Test
  @DisplayName("PATCH /me refuses unknown fields and settings with 400 unknown_field naming them")
  void unknownFields() {
    User user = kith.register();

    kith.patch("/me", user.access(), new JsonObject().put("favourite_colour", "blue"))
        .problem(400, "unknown_field", "favourite_colour");
    kith.patch("/me", user.access(), new JsonObject().put("settings", new JsonObject().put("is_admin", true)))
        .problem(400, "unknown_field", "settings.is_admin");
    kith.patch("/me", user.access(), new JsonObject()).problem(400, "validation_failed");
  }

  @Test
  @DisplayName("PATCH /me refuses invalid values with 400 validation_failed naming the field")
  void invalidValues() {
    User user = kith.register();
    LocalDate nextYear = LocalDate.now(ZoneOffset.UTC).plusYears(1);
    Map<String, Object> attempts = Map.of(
        "birthday", nextYear.toString(),
        "photo_url", "javascript:alert(1)",
        "gender", "robot",
        "nickname", "x".repeat(41),
        "interests", new JsonArray(List.of("a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o",
            "p", "q", "r", "s", "t", "u")));
    attempts.forEach((field, value) ->
        kith.patch("/me", user.access(), new JsonObject().put(field, value)).problem(400, "validation_failed", field));
    kith.patch("/me", user.access(), new JsonObject().put("birthday", "1899-12-31"))
        .problem(400, "validation_failed", "birthday");
    kith.patch("/me", user.access(), new JsonObject().put("photo_url", "data:text/html,hi"))
        .problem(400, "validation_failed", "photo_url");
    kith.patch("/me", user.access(), new JsonObject().put("settings", new JsonObject().put("presence", "hiding")))
        .problem(400, "validation_failed", "settings.presence");

    JsonObject me = kith.get("/me", user.access()).expect(200);
    assertNull(me.getValue("birthday"), me.encode());
    assertNull(me.getValue("photo_url"), me.encode());
  }

  @Test
  @DisplayName("PATCH /me refuses profile text holding NUL or an unpaired surrogate (sent as a JSON escape) with 400 "
      + "validation_failed naming the field, and stores nothing")
  void controlsAndLoneSurrogatesRefused() {
    User user = kith.register();
    JsonObject before = kith.get("/me", user.access()).expect(200);

    for (String field : List.of("nickname", "signature", "school", "job", "location")) {
      for (String escaped : List.of("a\\u0000b", "a\\uD800b", "\\uDC00", "bell\\u0007")) {
        patchRaw(user, "{\"" + field + "\": \"" + escaped + "\"}").problem(400, "validation_failed", field);
      }
    }
    patchRaw(user, "{\"interests\": [\"chess\", \"go\\u0000\"]}").problem(400, "validation_failed", "interests");
    patchRaw(user, "{\"interests\": [\"\\uD83D\"]}").problem(400, "validation_failed", "interests");
    assertEquals(before, kith.get("/me", user.access()).expect(200), "nothing was stored");

    // a surrogate pair sent as two escapes is one character (an emoji), and is kept
    JsonObject kept = patchRaw(user, "{\"signature\": \"party \\uD83C\\uDF89\"}").expect(200);
    assertEquals("party \uD83C\uDF89", kept.getString("signature"), kept.encode());
  }

  @Test
  @DisplayName("profile updates past accounts.profile-updates-per-minute are 429 rate_limited with Retry-After and "
      + "change nothing; another user is not affected")
  void profileUpdatesLimited() {
    try (AccountsKith limited = AccountsKith.start(new JsonObject()
        .put("accounts", new JsonObject().put("profile-updates-per-minute", 3)))) {
      User user = limited.register();
      User other = limited.register();
      for (int i = 0; i < 3; i++) {
        limited.updateProfile(user, new JsonObject().put("signature", "take " + i));
      }

      limited.patch("/me", user.access(), new JsonObject().put("signature", "one too many"))
          .throttled("rate_limited", 60);
      limited.put("/me/presence", user.access(), new JsonObject().put("mode", "invisible"))
          .throttled("rate_limited", 60);

      JsonObject me = limited.get("/me", user.access()).expect(200);
      assertEquals("take 2", me.getString("signature"), me.encode());
      assertEquals("online", me.getJsonObject("settings").getString("presence"), me.encode());
      assertEquals("hello", limited.updateProfile(other, new JsonObject().put("signature", "hello"))
          .getString("signature"));
    }
  }

  private Reply patchRaw(User user, String json) {
    return kith.call(HttpMethod.PATCH, API + "/me", user.access(), newAddress(), json);
  }

  @Test
  @DisplayName("another user's profile hides birthday and phone by default and shows them when the owner allows")
  void publicView() {
    // only a verified phone is shown to others
    User owner = kith.registerVerified();
    User viewer = kith.register();
    kith.updateProfile(owner, new JsonObject().put("birthday", "1988-08-08").put("signature", "hello"));

    JsonObject hidden = kith.get("/users/" + owner.id(), viewer.access()).expect(200);
    assertEquals(owner.username(), hidden.getString("username"));
    assertEquals("hello", hidden.getString("signature"));
    for (String secret : List.of("birthday", "zodiac", "phone", "email", "settings", "role")) {
      assertFalse(hidden.containsKey(secret), secret + " is not shown by default: " + hidden.encode());
    }
    assertTrue(hidden.containsKey("last_active"), "presence 'online' shows the last active time: " + hidden.encode());

    kith.updateProfile(owner, new JsonObject().put("settings", new JsonObject()
        .put("birthday_visibility", "everyone").put("phone_visibility", "everyone")));
    JsonObject shown = kith.get("/users/" + owner.id(), viewer.access()).expect(200);
    assertEquals("1988-08-08", shown.getString("birthday"), shown.encode());
    assertEquals("leo", shown.getString("zodiac"), shown.encode());
    assertEquals(owner.phone(), shown.getString("phone"), shown.encode());
    assertFalse(shown.containsKey("email"), "the email is never public: " + shown.encode());

    kith.updateProfile(owner, new JsonObject().put("settings", new JsonObject()
        .put("birthday_visibility", "friends").put("presence", "invisible")));
    JsonObject again = kith.get("/users/" + owner.id(), viewer.access()).expect(200);
    assertFalse(again.containsKey("birthday"), "'friends' hides it from a non-friend: " + again.encode());
    assertFalse(again.containsKey("last_active"), "an invisible user hides the last active time: " + again.encode());

    JsonObject own = kith.get("/users/" + owner.id(), owner.access()).expect(200);
    assertEquals(owner.email(), own.getString("email"), "the owner gets the own view: " + own.encode());
    kith.get("/users/" + (owner.id() + 987_654_321L), viewer.access()).problem(404, "user_not_found");
    kith.get("/users/not-a-number", viewer.access()).problem(400, "validation_failed", "userId");
    kith.get("/users/" + owner.id(), null).problem(401, "unauthenticated");
  }

  @Test
  @DisplayName("no request lets a user edit another user's profile")
  void cannotEditOthers() {
    User victim = kith.register();
    User attacker = kith.register();
    JsonObject before = kith.get("/me", victim.access()).expect(200);

    kith.patch("/me", attacker.access(), new JsonObject().put("id", victim.id()).put("nickname", "pwned"))
        .problem(400, "read_only_field", "id");
    kith.patch("/me", attacker.access(), new JsonObject().put("user_id", victim.id()).put("nickname", "pwned"))
        .problem(400, "unknown_field", "user_id");
    for (HttpMethod method : List.of(HttpMethod.PATCH, HttpMethod.PUT, HttpMethod.POST, HttpMethod.DELETE)) {
      Reply reply = kith.call(method, API + "/users/" + victim.id(), attacker.access(), newAddress(),
          new JsonObject().put("nickname", "pwned"));
      reply.problem(405, "method_not_allowed");
    }
    // PATCH /me acts on the token's user only: the attacker's own profile changes, the victim's does not
    kith.updateProfile(attacker, new JsonObject().put("nickname", "pwned"));
    assertEquals(before, kith.get("/me", victim.access()).expect(200));
    assertEquals(before.getString("nickname"),
        kith.get("/users/" + victim.id(), attacker.access()).expect(200).getString("nickname"));

    // and no write operation of the accounts domain takes a user (or anything else) in its path, nor does any write
    // operation live under /api/v1/users
    OpenAPIContract contract = Await.result(GatewayVerticle.loadContract(kith.client())).contract();
    List<String> writes = new ArrayList<>();
    for (Operation op : contract.operations()) {
      boolean write = op.getHttpMethod() != HttpMethod.GET && op.getHttpMethod() != HttpMethod.HEAD;
      boolean accounts = op.getTags().stream().anyMatch(ACCOUNTS_TAGS::contains);
      boolean pathInput = op.getParameters().stream().anyMatch(p -> p.getIn() == Location.PATH);
      if (write && ((accounts && pathInput) || op.getOpenAPIPath().startsWith(API + "/users"))) {
        writes.add(op.getHttpMethod() + " " + op.getOpenAPIPath());
      }
    }
    assertTrue(writes.isEmpty(), "write operations naming a user: " + writes);
    assertTrue(contract.operations().stream().anyMatch(op -> op.getOpenAPIPath().equals(API + "/me")
        && op.getHttpMethod() == HttpMethod.PATCH), "the contract was read");
  }
}
