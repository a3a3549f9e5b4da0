package io.kith.accounts.service;

import io.kith.accounts.api.AccountsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Own and public profile views, PATCH validation, privacy settings and the profile cache. */
class ProfileTest extends AccountsTestBase {

  private static final List<String> SERVER_OWNED = List.of("id", "username", "email_verified", "phone_verified",
      "created", "role", "follower_count", "last_active", "zodiac");

  @Test
  @DisplayName("the owner's view has everything: email, phone, birthday, zodiac, settings with their defaults")
  void ownViewHasEverything() throws Exception {
    String name = newUsername();
    String phone = newPhone();
    long id = idOf(register(new JsonObject().put("username", name).put("email", name + "@example.org")
        .put("phone", phone)));
    patch(id, new JsonObject().put("birthday", "1990-04-25").put("signature", "hello").put("gender", "female")
        .put("interests", new JsonArray().add("chess")).put("school", "MIT").put("job", "pilot"));

    JsonObject own = await(accounts.profile(id, id));
    assertEquals(id, own.getLong("id"));
    assertEquals(name, own.getString("username"));
    assertEquals(name, own.getString("nickname"));
    assertEquals(name + "@example.org", own.getString("email"));
    assertEquals(phone, own.getString("phone"));
    assertEquals("1990-04-25", own.getString("birthday"));
    assertEquals("taurus", own.getString("zodiac"));
    assertEquals("hello", own.getString("signature"));
    assertEquals("female", own.getString("gender"));
    assertEquals("MIT", own.getString("school"));
    assertEquals("pilot", own.getString("job"));
    assertEquals(new JsonArray().add("chess"), own.getJsonArray("interests"));
    assertEquals("user", own.getString("role"));
    assertNotNull(own.getLong("created"));
    assertNotNull(own.getLong("last_active"));
    JsonObject settings = own.getJsonObject("settings");
    assertEquals("everyone", settings.getString("find_by_email"));
    assertEquals("everyone", settings.getString("find_by_phone"));
    assertEquals("friends", settings.getString("birthday_visibility"));
    assertEquals("nobody", settings.getString("phone_visibility"));
    assertEquals(false, settings.getBoolean("follow_approval"));
    assertEquals(false, settings.getBoolean("nearby_visible"));
    assertEquals("online", settings.getString("presence"));
    assertFalse(own.containsKey("password"));
    assertFalse(own.containsKey("_id"));
  }

  @Test
  @DisplayName("by default another user sees neither birthday nor phone (friends-only / nobody), nor email or settings")
  void publicViewHidesByDefault() throws Exception {
    String name = newUsername();
    long owner = idOf(register(new JsonObject().put("username", name).put("email", name + "@example.org")
        .put("phone", newPhone())));
    long viewer = newUser();
    patch(owner, new JsonObject().put("birthday", "1990-03-21").put("signature", "visible to all"));

    JsonObject seen = await(accounts.profile(viewer, owner));
    assertEquals(owner, seen.getLong("id"));
    assertEquals(name, seen.getString("username"));
    assertEquals("visible to all", seen.getString("signature"));
    for (String hidden : List.of("birthday", "zodiac", "phone", "email", "settings", "password", "role")) {
      assertFalse(seen.containsKey(hidden), hidden + " leaked: " + seen);
    }
  }

  @Test
  @DisplayName("birthday and phone appear to others once the owner sets their visibility to everyone")
  void publicViewShowsWhenEveryone() throws Exception {
    String phone = newPhone();
    long owner = idOf(registerVerified(new JsonObject().put("phone", phone)));
    long viewer = newUser();
    patch(owner, new JsonObject().put("birthday", "1990-03-21").put("settings", new JsonObject()
        .put("birthday_visibility", "everyone").put("phone_visibility", "everyone")));

    JsonObject seen = await(accounts.profile(viewer, owner));
    assertEquals("1990-03-21", seen.getString("birthday"));
    assertEquals("aries", seen.getString("zodiac"));
    assertEquals(phone, seen.getString("phone"));
    assertFalse(seen.containsKey("email"));
    assertFalse(seen.containsKey("settings"));

    // and "friends" hides them again from a non-friend
    patch(owner, new JsonObject().put("settings", new JsonObject()
        .put("birthday_visibility", "friends").put("phone_visibility", "friends")));
    JsonObject again = await(accounts.profile(viewer, owner));
    assertFalse(again.containsKey("birthday"));
    assertFalse(again.containsKey("zodiac"));
    assertFalse(again.containsKey("phone"));
  }

  @Test
  @DisplayName("the zodiac sign is derived from the birthday, including on the first and last day of a sign")
  void zodiacFromBirthday() throws Exception {
    long id = newUser();
    Map<String, String> cases = Map.of(
        "1990-03-21", "aries", "1990-03-20", "pisces", "1990-01-19", "capricorn", "1990-01-20", "aquarius",
        "1990-12-22", "capricorn", "1990-12-21", "sagittarius", "2000-02-29", "pisces", "1985-07-23", "leo",
        "1985-07-22", "cancer", "1970-11-22", "sagittarius");
    for (Map.Entry<String, String> c : cases.entrySet()) {
      JsonObject own = patch(id, new JsonObject().put("birthday", c.getKey()));
      assertEquals(c.getValue(), own.getString("zodiac"), c.getKey());
      assertEquals(c.getValue(), await(accounts.profile(id, id)).getString("zodiac"), c.getKey());
    }
  }

  @Test
  @DisplayName("PATCH refuses an unknown field naming it")
  void unknownField() throws Exception {
    long id = newUser();
    failsWithField("unknown_field", "favourite_colour",
        accounts.updateProfile(id, new JsonObject().put("favourite_colour", "blue")));
    failsWithField("unknown_field", "favourite_colour",
        accounts.updateProfile(id, new JsonObject().put("nickname", "fine").put("favourite_colour", "blue")));
    // nothing of a refused PATCH is applied
    assertEquals(await(accounts.profile(id, id)).getString("username"),
        await(accounts.profile(id, id)).getString("nickname"));
  }

  @Test
  @DisplayName("PATCH refuses every server-owned field naming it, and changes nothing")
  void serverOwnedFields() throws Exception {
    long id = newUser();
    JsonObject before = await(accounts.profile(id, id));
    for (String field : SERVER_OWNED) {
      Object value = switch (field) {
        case "id", "created", "follower_count", "last_active" -> 42L;
        case "role" -> "admin";
        default -> "aries";
      };
      failsWithField("read_only_field", field,
          accounts.updateProfile(id, new JsonObject().put(field, value).put("signature", "sneaky")));
    }
    JsonObject after = await(accounts.profile(id, id));
    assertEquals(before, after);
    assertEquals("user", after.getString("role"));
  }

  @Test
  @DisplayName("a birthday in the future, before 1900 or malformed is refused naming birthday")
  void birthdayValidation() throws Exception {
    long id = newUser();
    String future = LocalDate.now(ZoneOffset.UTC).plusDays(3).toString();
    for (Object bad : List.of(future, "2999-01-01", "1899-12-31", "1990-13-01", "1990-02-30", "21/04/1990",
        "yesterday", "", 19900421L)) {
      failsWithField("validation_failed", "birthday", accounts.updateProfile(id, new JsonObject().put("birthday", bad)));
    }
    assertFalse(await(accounts.profile(id, id)).containsKey("birthday"));
    assertEquals("1900-01-01", patch(id, new JsonObject().put("birthday", "1900-01-01")).getString("birthday"));
    String today = LocalDate.now(ZoneOffset.UTC).toString();
    assertEquals(today, patch(id, new JsonObject().put("birthday", today)).getString("birthday"));
  }

  @Test
  @DisplayName("photo_url must be http or https: javascript:, ftp: and data: are refused")
  void photoUrlScheme() throws Exception {
    long id = newUser();
    for (String bad : List.of("javascript:alert(1)", "JavaScript:alert(document.cookie)", "ftp://example.org/me.png",
        "data:image/png;base64,AAAA", "//example.org/me.png", "not a url", "https://")) {
      failsWithField("validation_failed", "photo_url", accounts.updateProfile(id, new JsonObject().put("photo_url", bad)));
    }
    assertFalse(await(accounts.profile(id, id)).containsKey("photo_url"));
    assertEquals("https://cdn.example.org/me.png",
        patch(id, new JsonObject().put("photo_url", "https://cdn.example.org/me.png")).getString("photo_url"));
    assertEquals("http://example.org/me.png",
        patch(id, new JsonObject().put("photo_url", "http://example.org/me.png")).getString("photo_url"));
  }

  @Test
  @DisplayName("text fields are length-checked: a nickname of 41 characters is refused, 40 accepted")
  void nicknameLength() throws Exception {
    long id = newUser();
    failsWithField("validation_failed", "nickname", accounts.updateProfile(id, new JsonObject()
        .put("nickname", "n".repeat(41))));
    failsWithField("validation_failed", "nickname", accounts.updateProfile(id, new JsonObject().put("nickname", "  ")));
    failsWithField("validation_failed", "nickname", accounts.updateProfile(id, new JsonObject().put("nickname", 12)));
    failsWithField("validation_failed", "signature", accounts.updateProfile(id, new JsonObject()
        .put("signature", "s".repeat(201))));
    assertEquals("n".repeat(40), patch(id, new JsonObject().put("nickname", "n".repeat(40))).getString("nickname"));
    assertEquals("Trimmed", patch(id, new JsonObject().put("nickname", "  Trimmed ")).getString("nickname"));
  }

  @Test
  @DisplayName("at most 20 interests; duplicates are dropped case-insensitively keeping the first spelling")
  void interests() throws Exception {
    long id = newUser();
    JsonArray tooMany = new JsonArray();
    for (int i = 0; i < 21; i++) {
      tooMany.add("tag" + i);
    }
    failsWithField("validation_failed", "interests", accounts.updateProfile(id, new JsonObject()
        .put("interests", tooMany)));
    failsWithField("validation_failed", "interests", accounts.updateProfile(id, new JsonObject()
        .put("interests", new JsonArray().add("ok").add(7))));
    failsWithField("validation_failed", "interests", accounts.updateProfile(id, new JsonObject()
        .put("interests", new JsonArray().add("x".repeat(31)))));
    failsWithField("validation_failed", "interests", accounts.updateProfile(id, new JsonObject()
        .put("interests", "chess")));

    JsonArray twenty = new JsonArray(tooMany.getList().subList(0, 20));
    assertEquals(20, patch(id, new JsonObject().put("interests", twenty)).getJsonArray("interests").size());
    JsonObject own = patch(id, new JsonObject().put("interests", new JsonArray()
        .add("Chess").add("chess").add(" CHESS ").add("Go").add("hiking").add("GO")));
    assertEquals(new JsonArray().add("Chess").add("Go").add("hiking"), own.getJsonArray("interests"));
  }

  @Test
  @DisplayName("gender must be one of the documented values")
  void genderEnum() throws Exception {
    long id = newUser();
    failsWithField("validation_failed", "gender", accounts.updateProfile(id, new JsonObject().put("gender", "robot")));
    failsWithField("validation_failed", "gender", accounts.updateProfile(id, new JsonObject().put("gender", "Male")));
    for (String g : List.of("male", "female", "other", "unspecified")) {
      assertEquals(g, patch(id, new JsonObject().put("gender", g)).getString("gender"));
    }
  }

  @Test
  @DisplayName("settings refuse unknown keys (settings.x) and wrong types, and a partial change keeps the rest")
  void settingsValidation() throws Exception {
    long id = newUser();
    failsWithField("unknown_field", "settings.x",
        accounts.updateProfile(id, new JsonObject().put("settings", new JsonObject().put("x", true))));
    failsWithField("validation_failed", "settings.nearby_visible",
        accounts.updateProfile(id, new JsonObject().put("settings", new JsonObject().put("nearby_visible", "yes"))));
    failsWithField("validation_failed", "settings.follow_approval",
        accounts.updateProfile(id, new JsonObject().put("settings", new JsonObject().put("follow_approval", 1))));
    failsWithField("validation_failed", "settings.find_by_email",
        accounts.updateProfile(id, new JsonObject().put("settings", new JsonObject().put("find_by_email", "public"))));
    failsWithField("validation_failed", "settings.presence",
        accounts.updateProfile(id, new JsonObject().put("settings", new JsonObject().put("presence", "away"))));
    failsWithField("validation_failed", "settings",
        accounts.updateProfile(id, new JsonObject().put("settings", "everyone")));

    patch(id, new JsonObject().put("settings", new JsonObject().put("find_by_email", "nobody")));
    JsonObject settings = patch(id, new JsonObject().put("settings", new JsonObject().put("follow_approval", true)))
        .getJsonObject("settings");
    assertEquals("nobody", settings.getString("find_by_email"));
    assertEquals(true, settings.getBoolean("follow_approval"));
    assertEquals("nobody", settings.getString("phone_visibility"));
    assertEquals("online", settings.getString("presence"));
  }

  @Test
  @DisplayName("setting a field to null clears it (a cleared birthday also clears the zodiac)")
  void nullClears() throws Exception {
    long id = idOf(register(new JsonObject().put("phone", newPhone())));
    patch(id, new JsonObject().put("signature", "to be removed").put("birthday", "1991-05-05")
        .put("photo_url", "https://example.org/a.png").put("interests", new JsonArray().add("chess")));
    JsonObject own = patch(id, new JsonObject().putNull("signature").putNull("birthday").putNull("photo_url")
        .putNull("phone").putNull("interests"));
    for (String cleared : List.of("signature", "birthday", "zodiac", "photo_url", "phone", "interests")) {
      assertFalse(own.containsKey(cleared), cleared + " still there: " + own);
    }
    JsonObject reread = await(accounts.profile(id, id));
    assertFalse(reread.containsKey("birthday"));
    assertFalse(reread.containsKey("phone"));
    failsWithField("validation_failed", "nickname", accounts.updateProfile(id, new JsonObject().putNull("nickname")));
  }

  @Test
  @DisplayName("a phone another account holds unverified is accepted as a free one would be, and waits unverified")
  void phoneHeldUnverified() throws Exception {
    String phone = newPhone();
    long holder = idOf(register(new JsonObject().put("phone", phone)));
    long other = newUser();
    String formatted = phone.substring(0, 3) + " " + phone.substring(3, 6) + " " + phone.substring(6);
    JsonObject changed = patch(other, new JsonObject().put("phone", formatted));
    assertEquals(phone, changed.getString("phone"));
    assertFalse(changed.getBoolean("phone_verified"));
    failsWithField("validation_failed", "phone", accounts.updateProfile(other, new JsonObject().put("phone", "12")));
    assertEquals(phone, await(accounts.profile(holder, holder)).getString("phone"), "the holder's claim stays");

    patch(other, new JsonObject().putNull("phone"));
    assertFalse(await(accounts.profile(other, other)).containsKey("phone"));
  }

  @Test
  @DisplayName("concurrent PATCHes of different settings all take effect: none reverts another")
  void concurrentSettingsPatches() throws Exception {
    JsonObject changed = new JsonObject().put("find_by_email", "nobody").put("find_by_phone", "friends")
        .put("birthday_visibility", "everyone").put("phone_visibility", "everyone").put("follow_approval", true)
        .put("nearby_visible", true).put("presence", "friends").put("hide_filtered", true);
    for (JsonObject registered : registerMany(3)) {
      long id = idOf(registered);
      List<Future<JsonObject>> all = new ArrayList<>();
      for (String key : changed.fieldNames()) {
        all.add(accounts.updateProfile(id, new JsonObject().put("settings",
            new JsonObject().put(key, changed.getValue(key)))));
      }
      await(Future.all(all));

      List<String> keys = List.copyOf(changed.fieldNames());
      for (int i = 0; i < keys.size(); i++) {
        // each answer shows at least its own change, as stored
        assertEquals(changed.getValue(keys.get(i)), all.get(i).result().getJsonObject("settings").getValue(keys.get(i)));
      }
      assertEquals(changed, await(accounts.profile(id, id)).getJsonObject("settings"));
    }
  }

  @Test
  @DisplayName("every write to an account raises its version v, which no view shows")
  void writesRaiseVersion() throws Exception {
    String name = newUsername();
    long id = idOf(register(new JsonObject().put("username", name)));
    assertEquals(0L, versionOf(id));

    patch(id, new JsonObject().put("signature", "one"));
    assertEquals(1L, versionOf(id));
    await(accounts.login(new JsonObject().put("login", name).put("password", "correct horse battery"), newAddress()));
    assertEquals(2L, versionOf(id));
    await(accounts.changePassword(id, "correct horse battery", "a brand new passphrase"));
    assertEquals(3L, versionOf(id));

    assertFalse(await(accounts.profile(id, id)).containsKey("v"));
    assertFalse(await(accounts.profile(newUser(), id)).containsKey("v"));
  }

  private long versionOf(long id) throws Exception {
    JsonObject doc = await(platform.mongo().findOne(AccountStore.COLLECTION, new JsonObject().put("_id", id),
        new JsonObject().put("v", 1)));
    return doc.getLong("v", 0L);
  }

  @Test
  @DisplayName("a PATCH is visible at once to the next read, through another proxy, although the profile was cached")
  void cacheUpdatedOnWrite() throws Exception {
    long owner = newUser();
    long viewer = newUser();
    assertEquals(null, await(accounts.profile(viewer, owner)).getString("signature"));
    // the read above filled the cache
    Response cached = await(platform.redisApi().exists(List.of(ProfileCache.key(owner))));
    assertEquals(1, cached.toInteger());

    patch(owner, new JsonObject().put("signature", "changed").put("nickname", "Renamed"));

    AccountsService another = AccountsService.proxy(vertx);
    JsonObject seen = await(another.profile(viewer, owner));
    assertEquals("changed", seen.getString("signature"));
    assertEquals("Renamed", seen.getString("nickname"));
    assertEquals("Renamed", await(another.summaries(viewer, List.of(owner))).getJsonObject(Long.toString(owner))
        .getString("nickname"));
  }

  @Test
  @DisplayName("logging in updates last_active in the profile even when the profile was cached")
  void loginUpdatesLastActive() throws Exception {
    String name = newUsername();
    long id = idOf(register(new JsonObject().put("username", name)));
    long before = await(accounts.profile(id, id)).getLong("last_active");
    long loginAt = System.currentTimeMillis();
    await(accounts.login(new JsonObject().put("login", name).put("password", "correct horse battery"), newAddress()));
    long after = await(accounts.profile(id, id)).getLong("last_active");
    assertTrue(after > before && after >= loginAt, "last_active " + after + " not after login at " + loginAt);
  }

  @Test
  @DisplayName("the profile of a user who does not exist is user_not_found")
  void unknownUser() throws Exception {
    long viewer = newUser();
    failsWith("user_not_found", accounts.profile(viewer, viewer + 987_654_321L));
    failsWith("user_not_found", accounts.profile(viewer, -1));
    failsWith("user_not_found", accounts.updateProfile(viewer + 987_654_321L, new JsonObject().put("nickname", "x")));
  }

  @Test
  @DisplayName("updateProfile changes only the actor: naming another user's id in the body is refused, B stays as is")
  void cannotEditAnotherUser() throws Exception {
    long a = newUser();
    long b = newUser();
    JsonObject bBefore = await(accounts.profile(b, b));

    failsWithField("read_only_field", "id", accounts.updateProfile(a, new JsonObject().put("id", b)
        .put("nickname", "hijacked")));
    failsWithField("read_only_field", "_id", accounts.updateProfile(a, new JsonObject().put("_id", b)
        .put("nickname", "hijacked")));
    JsonObject aAfter = patch(a, new JsonObject().put("nickname", "Only A").put("signature", "mine"));
    assertEquals(a, aAfter.getLong("id"));
    assertEquals("Only A", aAfter.getString("nickname"));

    assertEquals(bBefore, await(accounts.profile(b, b)));
    assertEquals("Only A", await(accounts.profile(b, a)).getString("nickname"));
  }
}
