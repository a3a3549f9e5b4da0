package io.kith.app.moderation;

import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The content filters one test class added, removed again when it ends: filters are shared by every node on the test
 * database, so a class leaves none behind for the others.
 */
public final class AddedFilters {

  private final TestKith kith;
  private final User admin;
  private final List<Long> ids = new ArrayList<>();

  public AddedFilters(TestKith kith, User admin) {
    this.kith = kith;
    this.admin = admin;
  }

  /** A word no other test writes, starting with {@code stem}: letters only, so it is one word. */
  public static String word(String stem) {
    StringBuilder w = new StringBuilder(stem);
    ThreadLocalRandom.current().ints(8, 'a', 'z' + 1).forEach(w::appendCodePoint);
    return w.toString();
  }

  /** Adds a filter as the admin (201 expected) and remembers it; returns it as stored. */
  public JsonObject add(JsonObject filter) {
    JsonObject stored = kith.post("/admin/filters", admin, filter).expect(201);
    ids.add(stored.getLong("id"));
    return stored;
  }

  /** Removes every filter this class added. */
  public void removeAll() {
    ids.forEach(id -> kith.delete("/admin/filters/" + id, admin));
  }
}
