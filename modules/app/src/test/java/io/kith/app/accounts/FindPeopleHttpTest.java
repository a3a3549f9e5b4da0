package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.app.support.Reply;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static io.kith.app.accounts.AccountsKith.unique;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Finding people over HTTP: by username, by address book, by nickname prefix")
class FindPeopleHttpTest {

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

  private static String q(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName("a user is found by exact username in any case; an unknown username is 404 user_not_found")
  void byUsername() {
    User wanted = kith.register();
    User viewer = kith.register();

    JsonObject found = kith.get("/users/by-username/" + wanted.username().toUpperCase(Locale.ROOT), viewer.access())
        .expect(200);
    assertEquals(wanted.id(), found.getLong("id"));
    assertEquals(wanted.username(), found.getString("username"));
    assertFalse(found.containsKey("email"), "a public view: " + found.encode());
    assertFalse(found.containsKey("phone"), "a public view: " + found.encode());

    kith.get("/users/by-username/" + wanted.username().substring(0, wanted.username().length() - 1), viewer.access())
        .problem(404, "user_not_found");
    kith.get("/users/by-username/" + unique("nobody"), viewer.access()).problem(404, "user_not_found");
    kith.get("/users/by-username/" + wanted.username(), null).problem(401, "unauthenticated");
  }

  @Test
  @DisplayName("an address-book lookup finds findable accounts by email and phone as the entries were written")
  void lookupFinds() {
    User friend = kith.registerVerified();
    User viewer = kith.register();
    String digits = friend.phone().substring(3);
    String writtenPhone = "0044 " + digits.substring(0, 4) + " " + digits.substring(4);
    String writtenEmail = friend.email().toUpperCase(Locale.ROOT);

    JsonObject result = kith.post("/people/lookup", viewer.access(), new JsonObject()
        .put("emails", new JsonArray().add(writtenEmail).add("nobody-" + unique("x") + "@example.test").add("junk"))
        .put("phones", new JsonArray().add(writtenPhone).add("+4400000"))).expect(200);

    JsonArray items = result.getJsonArray("items");
    assertEquals(2, items.size(), result.encode());
    JsonObject byEmail = items.stream().map(o -> (JsonObject) o).filter(i -> i.containsKey("email")).findFirst()
        .orElseThrow();
    JsonObject byPhone = items.stream().map(o -> (JsonObject) o).filter(i -> i.containsKey("phone")).findFirst()
        .orElseThrow();
    assertEquals(writtenEmail, byEmail.getString("email"), "the entry comes back as it was written");
    assertEquals(friend.id(), byEmail.getJsonObject("user").getLong("id"));
    assertEquals(writtenPhone, byPhone.getString("phone"));
    assertEquals(friend.id(), byPhone.getJsonObject("user").getLong("id"));
    assertFalse(byEmail.getJsonObject("user").containsKey("email"), "a summary only: " + result.encode());
  }

  @Test
  @DisplayName("an address-book lookup answers the same for a hidden account as for one that does not exist")
  void lookupHidesHidden() {
    User hidden = kith.registerVerified();
    User viewer = kith.register();
    kith.updateProfile(hidden, new JsonObject().put("settings", new JsonObject()
        .put("find_by_email", "nobody").put("find_by_phone", "friends")));
    String absentEmail = "nobody-" + unique("x") + "@example.test";
    String absentPhone = AccountsKith.newPhone();

    Reply forHidden = kith.post("/people/lookup", viewer.access(), new JsonObject()
        .put("emails", new JsonArray().add(hidden.email())).put("phones", new JsonArray().add(hidden.phone())));
    Reply forAbsent = kith.post("/people/lookup", viewer.access(), new JsonObject()
        .put("emails", new JsonArray().add(absentEmail)).put("phones", new JsonArray().add(absentPhone)));

    assertEquals(200, forHidden.status(), forHidden.text());
    assertEquals(forAbsent.status(), forHidden.status());
    assertEquals(new JsonObject().put("items", new JsonArray()), forHidden.json());
    assertEquals(forAbsent.text(), forHidden.text(), "byte for byte the same answer");
    assertEquals(forAbsent.header("Content-Type"), forHidden.header("Content-Type"));
    assertEquals(forAbsent.header("Content-Length"), forHidden.header("Content-Length"));

    // the owner may switch back: then the same entries find the account
    kith.updateProfile(hidden, new JsonObject().put("settings", new JsonObject().put("find_by_email", "everyone")));
    JsonArray items = kith.post("/people/lookup", viewer.access(), new JsonObject()
        .put("emails", new JsonArray().add(hidden.email())).put("phones", new JsonArray().add(hidden.phone())))
        .expect(200).getJsonArray("items");
    assertEquals(1, items.size(), items.encode());
    assertEquals(hidden.id(), items.getJsonObject(0).getJsonObject("user").getLong("id"));
  }

  @Test
  @DisplayName("an address-book lookup of more than 500 entries is 400 validation_failed naming the field")
  void lookupLimit() {
    User viewer = kith.register();
    JsonArray emails = new JsonArray();
    for (int i = 0; i < 501; i++) {
      emails.add("someone" + i + "@example.test");
    }
    kith.post("/people/lookup", viewer.access(), new JsonObject().put("emails", emails))
        .problem(400, "validation_failed", "emails");

    JsonArray phones = new JsonArray();
    for (int i = 0; i < 260; i++) {
      phones.add("+4411100" + (10000 + i));
    }
    JsonArray fewerEmails = new JsonArray(emails.getList().subList(0, 250));
    kith.post("/people/lookup", viewer.access(), new JsonObject().put("emails", fewerEmails).put("phones", phones))
        .problem(400, "validation_failed", "phones");
    kith.post("/people/lookup", viewer.access(), new JsonObject().put("emails", new JsonArray().add("a@b.c"))
        .put("contacts", new JsonArray())).problem(400, "validation_failed", "contacts");
  }

  @Test
  @DisplayName("a nickname prefix search pages through every match in nickname order")
  void nicknamePaging() {
    User viewer = kith.register();
    String stem = unique("Nick").toLowerCase(Locale.ROOT);
    List<String> nicknames = List.of(stem + " Echo", stem + " alpha", stem + " Delta", stem + " bravo",
        stem + " charlie");
    List<Long> ids = new ArrayList<>();
    for (String nickname : nicknames) {
      User user = kith.register();
      kith.updateProfile(user, new JsonObject().put("nickname", nickname));
      ids.add(user.id());
    }
    // an unrelated user whose nickname merely contains the stem
    kith.updateProfile(kith.register(), new JsonObject().put("nickname", "x" + stem));

    List<String> seen = new ArrayList<>();
    String after = null;
    int pages = 0;
    do {
      String path = "/people/search?prefix=" + q(stem.toUpperCase(Locale.ROOT)) + "&limit=2"
          + (after == null ? "" : "&cursor=" + q(after));
      JsonObject page = kith.get(path, viewer.access()).expect(200);
      JsonArray items = page.getJsonArray("items");
      items.forEach(i -> seen.add(((JsonObject) i).getString("nickname")));
      after = page.getString("next_cursor");
      pages++;
      if (after != null) {
        assertEquals(2, items.size(), "a full page before the last: " + page.encode());
      }
    } while (after != null && pages < 10);

    assertEquals(List.of(stem + " alpha", stem + " bravo", stem + " charlie", stem + " Delta", stem + " Echo"), seen,
        "every match once, ordered case-insensitively by nickname");
    assertEquals(3, pages);
  }

  @Test
  @DisplayName("a nickname search with no prefix, a bad limit or a bad cursor is 400 naming the parameter")
  void nicknameRefusals() {
    User viewer = kith.register();

    kith.get("/people/search", viewer.access()).problem(400, "validation_failed", "prefix");
    kith.get("/people/search?prefix=abc&limit=51", viewer.access()).problem(400, "validation_failed", "limit");
    kith.get("/people/search?prefix=abc&limit=0", viewer.access()).problem(400, "validation_failed", "limit");
    kith.get("/people/search?prefix=abc&cursor=not-a-cursor", viewer.access())
        .problem(400, "validation_failed", "cursor");
    kith.get("/people/search?prefix=abc", null).problem(401, "unauthenticated");
    JsonObject empty = kith.get("/people/search?prefix=" + unique("zz"), viewer.access()).expect(200);
    assertEquals(0, empty.getJsonArray("items").size());
    assertNull(empty.getValue("next_cursor"));
    assertNotNull(empty.getJsonArray("items"));
  }

  @Test
  @DisplayName("a nickname prefix the contract cannot decode (a lone backslash) is 400 validation_failed naming "
      + "prefix, not a complaint about a request body the request does not have")
  void undecodablePrefix() {
    User viewer = kith.register();

    for (String prefix : List.of("\\", "a\\")) {
      JsonObject problem = kith.get("/people/search?prefix=" + q(prefix), viewer.access())
          .problem(400, "validation_failed", "prefix");
      assertTrue(problem.getString("detail").contains("prefix"), problem.encode());
      assertFalse(problem.getString("detail").contains("body"), problem.encode());
    }
  }
}
