package io.kith.accounts.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Finding people: by username, by address book (emails and phones), by nickname prefix. */
class FindPeopleTest extends AccountsTestBase {

  @Test
  @DisplayName("a user is found by exact username in any case, with the public view; an unknown name is not found")
  void findByUsername() throws Exception {
    String name = newUsername();
    long target = idOf(register(new JsonObject().put("username", name).put("email", name + "@example.org")
        .put("phone", newPhone())));
    long viewer = newUser();

    for (String spelling : List.of(name, name.toUpperCase(Locale.ROOT), " " + name + " ")) {
      JsonObject found = await(accounts.findByUsername(viewer, spelling));
      assertEquals(target, found.getLong("id"), spelling);
      assertEquals(name, found.getString("username"));
      assertFalse(found.containsKey("email"), "public view leaks email");
      assertFalse(found.containsKey("phone"), "public view leaks phone");
      assertFalse(found.containsKey("settings"));
    }
    // the owner finding themself gets the own view
    assertEquals(name + "@example.org", await(accounts.findByUsername(target, name)).getString("email"));

    failsWith("user_not_found", accounts.findByUsername(viewer, newUsername()));
    failsWith("user_not_found", accounts.findByUsername(viewer, name.substring(0, name.length() - 1)));
    failsWith("user_not_found", accounts.findByUsername(viewer, ""));
    failsWith("user_not_found", accounts.findByUsername(viewer, "x".repeat(31)));
  }

  @Test
  @DisplayName("address-book lookup returns only accounts whose settings allow it, with the entry as given")
  void contactsRespectSettings() throws Exception {
    List<JsonObject> users = new ArrayList<>();
    List<String> emails = new ArrayList<>();
    List<String> phones = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      String name = newUsername();
      String phone = newPhone();
      users.add(registerVerified(new JsonObject().put("username", name).put("email", name + "@example.org")
          .put("phone", phone)));
      emails.add(name + "@example.org");
      phones.add(phone);
    }
    long open = idOf(users.get(0));
    long noEmail = idOf(users.get(1));
    long friendsPhone = idOf(users.get(2));
    long friendsEmailNoPhone = idOf(users.get(3));
    patch(noEmail, new JsonObject().put("settings", new JsonObject().put("find_by_email", "nobody")));
    patch(friendsPhone, new JsonObject().put("settings", new JsonObject().put("find_by_phone", "friends")));
    patch(friendsEmailNoPhone, new JsonObject().put("settings", new JsonObject()
        .put("find_by_email", "friends").put("find_by_phone", "nobody")));
    long viewer = newUser();

    String openEmailAsGiven = emails.get(0).toUpperCase(Locale.ROOT);
    String openPhoneAsGiven = phones.get(0).substring(0, 3) + " " + phones.get(0).substring(3, 6) + "-"
        + phones.get(0).substring(6);
    JsonObject result = await(accounts.findByContacts(viewer, new JsonObject()
        .put("emails", new JsonArray().add(openEmailAsGiven).add(emails.get(1)).add(emails.get(2)).add(emails.get(3))
            .add(newUsername() + "@example.org"))
        .put("phones", new JsonArray().add(openPhoneAsGiven).add(phones.get(1)).add(phones.get(2)).add(phones.get(3))
            .add(newPhone()))));

    JsonArray items = result.getJsonArray("items");
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < items.size(); i++) {
      JsonObject item = items.getJsonObject(i);
      long id = item.getJsonObject("user").getLong("id");
      String by = item.containsKey("email") ? "email:" + item.getString("email") : "phone:" + item.getString("phone");
      seen.add(id + " " + by);
      JsonObject user = item.getJsonObject("user");
      assertFalse(user.containsKey("email") || user.containsKey("phone") || user.containsKey("settings"),
          "summary leaks: " + user);
    }
    Set<String> expected = Set.of(
        open + " email:" + openEmailAsGiven, open + " phone:" + openPhoneAsGiven,
        noEmail + " phone:" + phones.get(1),           // hidden by email only
        friendsPhone + " email:" + emails.get(2));     // hidden by phone from non-friends
    assertEquals(expected, seen, "items: " + items.encodePrettily());
    assertEquals(4, items.size());
  }

  @Test
  @DisplayName("a hidden account gets exactly the answer a non-existent address gets")
  void hiddenLooksLikeAbsent() throws Exception {
    String name = newUsername();
    String phone = newPhone();
    long hidden = idOf(registerVerified(new JsonObject().put("username", name).put("email", name + "@example.org")
        .put("phone", phone)));
    long viewer = newUser();
    JsonObject before = await(accounts.findByContacts(viewer, new JsonObject()
        .put("emails", new JsonArray().add(name + "@example.org")).put("phones", new JsonArray().add(phone))));
    assertEquals(2, before.getJsonArray("items").size(), "findable before hiding: " + before);

    patch(hidden, new JsonObject().put("settings", new JsonObject()
        .put("find_by_email", "nobody").put("find_by_phone", "friends")));

    JsonObject hiddenAnswer = await(accounts.findByContacts(viewer, new JsonObject()
        .put("emails", new JsonArray().add(name + "@example.org")).put("phones", new JsonArray().add(phone))));
    JsonObject absentAnswer = await(accounts.findByContacts(viewer, new JsonObject()
        .put("emails", new JsonArray().add(newUsername() + "@example.org")).put("phones", new JsonArray().add(newPhone()))));
    assertEquals(new JsonObject().put("items", new JsonArray()), hiddenAnswer);
    assertEquals(absentAnswer.encode(), hiddenAnswer.encode());
    // the owner still finds themself
    assertEquals(2, await(accounts.findByContacts(hidden, new JsonObject()
        .put("emails", new JsonArray().add(name + "@example.org")).put("phones", new JsonArray().add(phone))))
        .getJsonArray("items").size());
  }

  @Test
  @DisplayName("more than 500 contacts in one call are refused; exactly 500 are accepted")
  void contactsLimit() throws Exception {
    long viewer = newUser();
    JsonArray emails = new JsonArray();
    JsonArray phones = new JsonArray();
    for (int i = 0; i < 300; i++) {
      emails.add("nobody" + i + "." + UUID.randomUUID() + "@example.org");
    }
    for (int i = 0; i < 200; i++) {
      phones.add(newPhone());
    }
    assertEquals(0, await(accounts.findByContacts(viewer, new JsonObject().put("emails", emails).put("phones", phones)))
        .getJsonArray("items").size());
    phones.add(newPhone());
    failsWith("validation_failed", accounts.findByContacts(viewer, new JsonObject().put("emails", emails)
        .put("phones", phones)));
    JsonArray many = new JsonArray();
    for (int i = 0; i < 501; i++) {
      many.add("x" + i + "@example.org");
    }
    failsWithField("validation_failed", "emails", accounts.findByContacts(viewer, new JsonObject().put("emails", many)));
    failsWithField("validation_failed", "emails", accounts.findByContacts(viewer, new JsonObject()
        .put("emails", "someone@example.org")));
  }

  @Test
  @DisplayName("junk entries in an address book are ignored, and the valid ones still match")
  void junkIgnored() throws Exception {
    String name = newUsername();
    String phone = newPhone();
    long target = idOf(registerVerified(new JsonObject().put("username", name).put("email", name + "@example.org")
        .put("phone", phone)));
    long viewer = newUser();
    JsonObject result = await(accounts.findByContacts(viewer, new JsonObject()
        .put("emails", new JsonArray().add(42).addNull().add("").add("no-at-sign").add(new JsonObject().put("a", 1))
            .add("x".repeat(300) + "@example.org").add(true).add(name + "@example.org"))
        .put("phones", new JsonArray().add("12").add("call me").addNull().add(7).add("9".repeat(60)).add(phone))));
    JsonArray items = result.getJsonArray("items");
    assertEquals(2, items.size(), items.encodePrettily());
    for (int i = 0; i < items.size(); i++) {
      assertEquals(target, items.getJsonObject(i).getJsonObject("user").getLong("id"));
    }
    assertEquals(new JsonObject().put("items", new JsonArray()), await(accounts.findByContacts(viewer,
        new JsonObject())));
  }

  @Test
  @DisplayName("nickname prefix search is case-insensitive, ordered, and pages with next until exhausted")
  void nicknamePrefixPaging() throws Exception {
    String prefix = "Qz" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    List<JsonObject> users = registerMany(6);
    List<String> nicknames = List.of(prefix + "delta", prefix.toUpperCase(Locale.ROOT) + "Beta",
        prefix.toLowerCase(Locale.ROOT) + "alpha", prefix + "beta", prefix + "Charlie");
    List<String[]> withIds = new ArrayList<>();
    for (int i = 0; i < nicknames.size(); i++) {
      long id = idOf(users.get(i));
      patch(id, new JsonObject().put("nickname", nicknames.get(i)));
      withIds.add(new String[] {nicknames.get(i).toLowerCase(Locale.ROOT), Long.toString(id)});
    }
    // a near miss that must not match
    patch(idOf(users.get(5)), new JsonObject().put("nickname", prefix.substring(0, prefix.length() - 1) + "x"));
    withIds.sort(Comparator.<String[], String>comparing(a -> a[0]).thenComparing(a -> Long.parseLong(a[1])));
    List<Long> expected = withIds.stream().map(a -> Long.parseLong(a[1])).toList();
    long viewer = idOf(users.get(0));

    for (String asked : List.of(prefix.toLowerCase(Locale.ROOT), prefix.toUpperCase(Locale.ROOT))) {
      List<Long> found = new ArrayList<>();
      String after = null;
      int pages = 0;
      do {
        JsonObject page = await(accounts.searchByNickname(viewer, asked, PageRequest.after(after, 2))
            .map(Page::toJson));
        JsonArray items = page.getJsonArray("items");
        assertTrue(items.size() <= 2);
        for (int i = 0; i < items.size(); i++) {
          JsonObject summary = items.getJsonObject(i);
          assertTrue(summary.getString("nickname").toLowerCase(Locale.ROOT).startsWith(prefix.toLowerCase(Locale.ROOT)));
          assertFalse(summary.containsKey("email"));
          found.add(summary.getLong("id"));
        }
        after = page.getString("next");
        pages++;
        assertTrue(pages <= 10, "paging does not end");
      } while (after != null);
      assertEquals(expected, found, "asked " + asked);
      assertEquals(new HashSet<>(found).size(), found.size(), "duplicates");
      assertTrue(pages >= 3, "pages " + pages);
    }
    JsonObject all = await(accounts.searchByNickname(viewer, prefix, PageRequest.first(50)).map(Page::toJson));
    assertEquals(5, all.getJsonArray("items").size());
    assertNull(all.getString("next"));
  }

  @Test
  @DisplayName("nickname search refuses a bad cursor (field after) and an empty prefix (field prefix)")
  void nicknameSearchRefusals() throws Exception {
    long viewer = newUser();
    String b64 = Base64.getUrlEncoder().withoutPadding().encodeToString("[\"abc\"]".getBytes());
    String notJson = Base64.getUrlEncoder().withoutPadding().encodeToString("hello".getBytes());
    String wrongTypes = Base64.getUrlEncoder().withoutPadding().encodeToString("[1,\"x\"]".getBytes());
    for (String bad : List.of("%%%not-base64%%%", b64, notJson, wrongTypes)) {
      failsWithField("validation_failed", "after", accounts.searchByNickname(viewer, "abc", PageRequest.after(bad,
          10)).map(Page::toJson));
    }
    failsWithField("validation_failed", "prefix", accounts.searchByNickname(viewer, "", PageRequest.first(10))
        .map(Page::toJson));
    failsWithField("validation_failed", "prefix", accounts.searchByNickname(viewer, "   ", PageRequest.first(10))
        .map(Page::toJson));
    failsWithField("validation_failed", "prefix", accounts.searchByNickname(viewer, "p".repeat(41),
        PageRequest.first(10)).map(Page::toJson));
    // a prefix nobody has is an empty page, not an error
    JsonObject none = await(accounts.searchByNickname(viewer, "Zz" + UUID.randomUUID(), PageRequest.first(10))
        .map(Page::toJson));
    assertEquals(0, none.getJsonArray("items").size());
    assertNull(none.getString("next"));
  }
}
