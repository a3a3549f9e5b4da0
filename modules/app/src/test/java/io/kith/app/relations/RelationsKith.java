package io.kith.app.relations;

import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.vertx.core.json.JsonObject;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * One Kith node (accounts, relations and gateway, real wiring, in-process) for one test class, and an HTTP client
 * that talks to it as an app does. Tests make their own users, so they neither see nor depend on each other.
 */
final class RelationsKith extends TestKith {

  private RelationsKith(JsonObject overrides) {
    super(overrides, "r");
  }

  /** Starts a node running accounts, relations and the gateway. */
  static RelationsKith start() {
    return start(new JsonObject());
  }

  /** Starts a node running accounts, relations and the gateway with these {@code relations} settings. */
  static RelationsKith start(JsonObject relations) {
    return new RelationsKith(config("accounts", "relations", "gateway").put("relations", relations));
  }

  // ------------------------------------------------------------------ users and relations

  /** Makes {@code user} approve followers (settings.follow_approval). */
  void requireApproval(User user) {
    JsonObject me = patch("/me", user, new JsonObject().put("settings", new JsonObject().put("follow_approval", true)))
        .expect(200);
    assertEquals(true, me.getJsonObject("settings").getBoolean("follow_approval"), me.encode());
  }

  /** The ids of the users of a page, in order (relations lists are lists of users, so this hides {@link TestKith#ids}). */
  public static List<Long> ids(JsonObject page) {
    return userIds(page);
  }

  /** The ids of every user of a paged list, following {@code next_cursor} with pages of {@code limit}. */
  @Override
  public List<Long> allIds(String path, User as, int limit) {
    return allIds(path, as, limit, "cursor", "next_cursor", RelationsKith::ids);
  }

  /** {@code GET /users/{id}/counts}. */
  JsonObject counts(User of, User as) {
    return get("/users/" + of.path() + "/counts", as).expect(200);
  }
}
