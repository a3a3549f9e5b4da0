package io.kith.feeds.service;

import io.kith.platform.store.LuaScripts;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * The feeds domain's storage as a seeder sees it: the post collection and document shape, the timeline keys and
 * their marker, and the fan-out script, which the bench writes or runs straight on a running Kith's stores,
 * bypassing the service.
 *
 * <p>It lives in this module's test-jar, built on the stores' own constants, so no other module copies the feeds
 * domain's collection names or key formats. Timelines are the lists {@code feed:{u:<id>}:tl:home|moments} (post ids,
 * newest first), which exist only when they hold the marker element {@link #MARKER}, their last (the fan-out worker
 * adds only to existing timelines, so a user "is active" when the marker is there).
 */
public final class FeedsSeeder {

  /** The post collection. */
  public static final String POSTS = PostStore.POSTS;
  /** Timeline kinds, as in the keys. */
  public static final String HOME = Timelines.HOME;
  public static final String MOMENTS = Timelines.MOMENTS;
  /** The marker element of an existing timeline, its last ({@code Timelines}' own, private there). */
  public static final String MARKER = "m";
  /** Posts a timeline may hold beyond the cap before the fan-out script cuts it back. */
  public static final int TRIM_SLACK = Timelines.TRIM_SLACK;
  /** The fan-out script the service runs ({@code timeline-push.lua}), to measure it on its own. */
  public static final String FAN_OUT = LuaScripts.resource(
      Timelines.class.getPackageName().replace('.', '/') + "/timeline-push.lua");

  private FeedsSeeder() {
  }

  /** {@code feed:{u:<id>}:tl:<kind>}. */
  public static String timelineKey(String kind, long user) {
    return Timelines.key(kind, user);
  }

  /** An audience {@code {users: [...], groups: [], tags: []}}. */
  public static JsonObject audience(List<Long> users) {
    return new JsonObject().put("users", new JsonArray(new ArrayList<>(users))).put("groups", new JsonArray())
        .put("tags", new JsonArray());
  }

  /** A live post document as {@code FeedsServiceImpl.publish} stores it: text only, no media, place or mentions. */
  public static JsonObject post(long id, long author, String visibility, List<Long> audienceUsers, long created) {
    return new JsonObject().put("_id", id).put("author", author).put("text", "bench post " + id)
        .put("place", (Object) null).put("mentions", new JsonArray()).put("vis", visibility)
        .put("aud", audience(audienceUsers)).put("repost_of", 0L).put("created", created).put("likes", 0)
        .put("comments", 0).put("reposts", 0).put("reposts_total", 0).put("media", new JsonArray());
  }

  /**
   * The classic pull query's filter over {@link #POSTS}: the live posts of {@code authors} that {@code viewer} may see
   * by visibility and audience users (the bench's baseline for a moments read; groups and tags are not consulted).
   */
  public static JsonObject visiblePostsFilter(long viewer, List<Long> authors) {
    return new JsonObject()
        .put("author", new JsonObject().put("$in", new JsonArray(new ArrayList<>(authors))))
        .put("deleted", new JsonObject().put("$ne", true))
        .put("$or", new JsonArray()
            .add(new JsonObject().put("vis", new JsonObject().put("$in",
                new JsonArray().add("public").add("followers").add("friends"))))
            .add(new JsonObject().put("vis", "only").put("aud.users", viewer))
            .add(new JsonObject().put("vis", "except").put("aud.users", new JsonObject().put("$ne", viewer))));
  }

  /** Marks a post document deleted, as the service's delete leaves it. */
  public static JsonObject deleted(JsonObject post, long at) {
    return post.put("deleted", true).put("deleted_at", at);
  }
}
