package io.kith.feeds.service;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Set;

/**
 * The one rule that decides whether a viewer may see a post, used by every path (post, timelines, comments, likes,
 * reposts, media, events for notifications).
 *
 * <p>The author always sees their own post. Anyone else is refused when a block stands between the two (either way)
 * or the author hides their posts from them; otherwise the post's visibility decides: {@code public} everyone
 * (anonymous readers included), {@code followers} those who follow the author (friends follow too), {@code friends}
 * friends, {@code private} nobody, {@code only} the users, members of the author's friend groups and users under the
 * author's contact tags listed in the audience, {@code except} friends who are none of those. Muting ("don't see his
 * posts") is a filter of timelines only, applied by the caller.
 */
final class Visibility {

  static final String PUBLIC = "public";
  static final String FOLLOWERS = "followers";
  static final String FRIENDS = "friends";
  static final String PRIVATE = "private";
  static final String ONLY = "only";
  static final String EXCEPT = "except";
  static final List<String> ALL = List.of(PUBLIC, FOLLOWERS, FRIENDS, PRIVATE, ONLY, EXCEPT);

  /**
   * What the viewer is to an author.
   *
   * @param following   the viewer follows the author
   * @param friend      the two are friends
   * @param blocked     a block stands between them, either way
   * @param hiddenFrom  the author hides their posts from the viewer
   * @param muting      the viewer mutes the author (timelines only)
   * @param groups      the author's friend groups the viewer is in
   * @param tags        the author's contact tags on the viewer (lower case)
   */
  record Tie(boolean following, boolean friend, boolean blocked, boolean hiddenFrom, boolean muting,
             Set<Long> groups, Set<String> tags) {
    static final Tie NONE = new Tie(false, false, false, false, false, Set.of(), Set.of());
  }

  private Visibility() {
  }

  /** Whether the visibility uses the author's groups or tags (and so needs the viewer's placements). */
  static boolean needsPlacements(JsonObject post) {
    String vis = post.getString("vis");
    if (!ONLY.equals(vis) && !EXCEPT.equals(vis)) {
      return false;
    }
    JsonObject aud = post.getJsonObject("aud", new JsonObject());
    return !aud.getJsonArray("groups", new JsonArray()).isEmpty() || !aud.getJsonArray("tags", new JsonArray()).isEmpty();
  }

  /** Whether {@code viewer} (0 = anonymous) may see {@code post} (a stored post document, not deleted). */
  static boolean canSee(long viewer, JsonObject post, Tie tie) {
    long author = post.getLong("author");
    if (viewer != 0 && viewer == author) {
      return true;
    }
    String vis = post.getString("vis", PUBLIC);
    if (viewer == 0) {
      return PUBLIC.equals(vis);
    }
    if (tie.blocked() || tie.hiddenFrom()) {
      return false;
    }
    return switch (vis) {
      case PUBLIC -> true;
      case FOLLOWERS -> tie.following() || tie.friend();
      case FRIENDS -> tie.friend();
      case ONLY -> inAudience(viewer, post, tie);
      case EXCEPT -> tie.friend() && !inAudience(viewer, post, tie);
      default -> false;
    };
  }

  /**
   * The rule as MongoDB query clauses ({@code $or} members) over one author's posts, for a viewer who is not the author
   * and is not blocked or hidden from: the same answer as {@link #canSee}, so that lists can read only visible posts.
   */
  static JsonArray visibleTo(long viewer, Tie tie) {
    JsonArray or = new JsonArray().add(new JsonObject().put("vis", PUBLIC));
    if (viewer == 0) {
      return or;
    }
    JsonArray groups = new JsonArray(List.copyOf(tie.groups()));
    JsonArray tags = new JsonArray(List.copyOf(tie.tags()));
    if (tie.following() || tie.friend()) {
      or.add(new JsonObject().put("vis", FOLLOWERS));
    }
    if (tie.friend()) {
      or.add(new JsonObject().put("vis", FRIENDS));
      or.add(new JsonObject().put("vis", EXCEPT)
          .put("aud.users", new JsonObject().put("$ne", viewer))
          .put("aud.groups", new JsonObject().put("$nin", groups))
          .put("aud.tags", new JsonObject().put("$nin", tags)));
    }
    or.add(new JsonObject().put("vis", ONLY).put("$or", new JsonArray()
        .add(new JsonObject().put("aud.users", viewer))
        .add(new JsonObject().put("aud.groups", new JsonObject().put("$in", groups)))
        .add(new JsonObject().put("aud.tags", new JsonObject().put("$in", tags)))));
    return or;
  }

  private static boolean inAudience(long viewer, JsonObject post, Tie tie) {
    JsonObject aud = post.getJsonObject("aud", new JsonObject());
    for (Object u : aud.getJsonArray("users", new JsonArray())) {
      if (((Number) u).longValue() == viewer) {
        return true;
      }
    }
    for (Object g : aud.getJsonArray("groups", new JsonArray())) {
      if (tie.groups().contains(((Number) g).longValue())) {
        return true;
      }
    }
    for (Object t : aud.getJsonArray("tags", new JsonArray())) {
      if (tie.tags().contains(t.toString())) {
        return true;
      }
    }
    return false;
  }
}
