package io.kith.feeds.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicContainer;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Supplier;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicContainer.dynamicContainer;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

/**
 * The visibility rule, table-driven: every visibility x every kind of viewer x every path by which a post can be read
 * or acted on. The expected outcome of each cell is written out below, not computed.
 *
 * <p>One author publishes one post of each visibility to a fixed cast of viewers. The {@code only} post lists a
 * non-friend user, a friend group and a contact tag (on a non-friend), and also the blocked, blocking and hidden-from
 * viewers (to show that blocks and hides win over the audience). The {@code except} post excludes one friend by name,
 * one by an excluded group and one by an excluded tag. Fixture activity on every post: the author likes and comments
 * it; on every post but the private one a friend in the listed group (the "group member") also likes, comments and
 * reposts it publicly.
 */
class VisibilityTableTest extends FeedsTestBase {

  /** The visibilities, in table column order. */
  enum Vis {
    PUBLIC, FOLLOWERS, FRIENDS, PRIVATE, ONLY, EXCEPT;

    String wire() {
      return name().toLowerCase();
    }
  }

  /** The kinds of viewer, in table row order. */
  enum Viewer {
    AUTHOR("the author"),
    FRIEND("a friend"),
    FOLLOWER("a follower who is not a friend"),
    STRANGER("a stranger"),
    LISTED("a non-friend listed by name in the only-audience"),
    GROUP_MEMBER("a friend in the only-audience's friend group"),
    TAGGED("a non-friend under the only-audience's contact tag"),
    EXCLUDED_USER("a friend excluded by name"),
    EXCLUDED_GROUP("a friend in an excluded friend group"),
    EXCLUDED_TAG("a friend under an excluded contact tag"),
    BLOCKED("a former friend the author blocked (listed in the only-audience)"),
    BLOCKER("a former friend who blocked the author (listed in the only-audience)"),
    HIDDEN("a friend the author hides from (listed in the only-audience)"),
    MUTER("a friend who muted the author"),
    ANONYMOUS("an anonymous reader");

    final String description;

    Viewer(String description) {
      this.description = description;
    }
  }

  /** The paths by which a viewer meets a post. */
  enum Path {
    POST("post(viewer, id)"),
    HOME("home timeline"),
    MOMENTS("moments"),
    LATEST("latest (public) timeline"),
    USER_POSTS("the author's userPosts"),
    COMMENTS("comments list"),
    LIKERS("likers"),
    REPOSTS("reposts list"),
    COUNTS("counts in the post view and in a repost's embedded view"),
    VISIBLE_POSTS("visiblePosts"),
    LIKE("liking it"),
    COMMENT("commenting on it");

    final String description;

    Path(String description) {
      this.description = description;
    }
  }

  // Y: the viewer sees the post (or may act on it); n: post_not_found / absent; -: not applicable.

  /** Direct paths: post, userPosts, comments, likers, reposts, counts, visiblePosts, like, comment. */
  private static final String SEES = """
      viewer          public followers friends private only except
      AUTHOR          Y      Y         Y       Y       Y    Y
      FRIEND          Y      Y         Y       n       n    Y
      FOLLOWER        Y      Y         n       n       n    n
      STRANGER        Y      n         n       n       n    n
      LISTED          Y      n         n       n       Y    n
      GROUP_MEMBER    Y      Y         Y       n       Y    Y
      TAGGED          Y      n         n       n       Y    n
      EXCLUDED_USER   Y      Y         Y       n       n    n
      EXCLUDED_GROUP  Y      Y         Y       n       n    n
      EXCLUDED_TAG    Y      Y         Y       n       n    n
      BLOCKED         n      n         n       n       n    n
      BLOCKER         n      n         n       n       n    n
      HIDDEN          n      n         n       n       n    n
      MUTER           Y      Y         Y       n       n    Y
      ANONYMOUS       Y      n         n       n       n    n
      """;

  /** Home: posts of people the viewer follows, and the viewer's own; a mute removes the author's posts. */
  private static final String HOME = """
      viewer          public followers friends private only except
      AUTHOR          Y      Y         Y       Y       Y    Y
      FRIEND          Y      Y         Y       n       n    Y
      FOLLOWER        Y      Y         n       n       n    n
      STRANGER        n      n         n       n       n    n
      LISTED          n      n         n       n       n    n
      GROUP_MEMBER    Y      Y         Y       n       Y    Y
      TAGGED          n      n         n       n       n    n
      EXCLUDED_USER   Y      Y         Y       n       n    n
      EXCLUDED_GROUP  Y      Y         Y       n       n    n
      EXCLUDED_TAG    Y      Y         Y       n       n    n
      BLOCKED         n      n         n       n       n    n
      BLOCKER         n      n         n       n       n    n
      HIDDEN          n      n         n       n       n    n
      MUTER           n      n         n       n       n    n
      ANONYMOUS       -      -         -       -       -    -
      """;

  /** Moments: posts of the viewer's friends, and the viewer's own; a mute removes the author's posts. */
  private static final String MOMENTS = """
      viewer          public followers friends private only except
      AUTHOR          Y      Y         Y       Y       Y    Y
      FRIEND          Y      Y         Y       n       n    Y
      FOLLOWER        n      n         n       n       n    n
      STRANGER        n      n         n       n       n    n
      LISTED          n      n         n       n       n    n
      GROUP_MEMBER    Y      Y         Y       n       Y    Y
      TAGGED          n      n         n       n       n    n
      EXCLUDED_USER   Y      Y         Y       n       n    n
      EXCLUDED_GROUP  Y      Y         Y       n       n    n
      EXCLUDED_TAG    Y      Y         Y       n       n    n
      BLOCKED         n      n         n       n       n    n
      BLOCKER         n      n         n       n       n    n
      HIDDEN          n      n         n       n       n    n
      MUTER           n      n         n       n       n    n
      ANONYMOUS       -      -         -       -       -    -
      """;

  /** Latest: public posts only (even for their author); a mute, block or hide removes the author's posts. */
  private static final String LATEST = """
      viewer          public followers friends private only except
      AUTHOR          Y      n         n       n       n    n
      FRIEND          Y      n         n       n       n    n
      FOLLOWER        Y      n         n       n       n    n
      STRANGER        Y      n         n       n       n    n
      LISTED          Y      n         n       n       n    n
      GROUP_MEMBER    Y      n         n       n       n    n
      TAGGED          Y      n         n       n       n    n
      EXCLUDED_USER   Y      n         n       n       n    n
      EXCLUDED_GROUP  Y      n         n       n       n    n
      EXCLUDED_TAG    Y      n         n       n       n    n
      BLOCKED         n      n         n       n       n    n
      BLOCKER         n      n         n       n       n    n
      HIDDEN          n      n         n       n       n    n
      MUTER           n      n         n       n       n    n
      ANONYMOUS       Y      n         n       n       n    n
      """;

  private static final Map<Viewer, Map<Vis, Boolean>> SEES_TABLE = parse(SEES);
  private static final Map<Viewer, Map<Vis, Boolean>> HOME_TABLE = parse(HOME);
  private static final Map<Viewer, Map<Vis, Boolean>> MOMENTS_TABLE = parse(MOMENTS);
  private static final Map<Viewer, Map<Vis, Boolean>> LATEST_TABLE = parse(LATEST);

  private final Map<Viewer, Long> cast = new EnumMap<>(Viewer.class);
  private final Map<Vis, Long> posts = new EnumMap<>(Vis.class);
  private final Map<Vis, Long> reposts = new EnumMap<>(Vis.class);
  private final Map<Vis, List<Long>> comments = new EnumMap<>(Vis.class);
  private final Map<Vis, List<Long>> likers = new EnumMap<>(Vis.class);
  private final Map<String, Boolean> settled = new HashMap<>();
  private long author;
  private long groupMember;
  private long authorMarker;
  private long controlMarker;

  @BeforeAll
  void buildWorld() throws Exception {
    List<Long> users = newUsers(Viewer.values().length);
    long control = users.get(users.size() - 1); // the anonymous viewer's slot: a friend of everyone but the author
    for (Viewer v : Viewer.values()) {
      cast.put(v, v == Viewer.ANONYMOUS ? 0L : users.get(v.ordinal()));
    }
    author = cast.get(Viewer.AUTHOR);
    groupMember = cast.get(Viewer.GROUP_MEMBER);

    befriend(author, cast.get(Viewer.FRIEND));
    follow(cast.get(Viewer.FOLLOWER), author);
    for (Viewer v : List.of(Viewer.GROUP_MEMBER, Viewer.EXCLUDED_USER, Viewer.EXCLUDED_GROUP, Viewer.EXCLUDED_TAG,
        Viewer.BLOCKED, Viewer.BLOCKER, Viewer.HIDDEN, Viewer.MUTER)) {
      befriend(author, cast.get(v));
    }
    long onlyGroup = group(author, groupMember);
    long exceptGroup = group(author, cast.get(Viewer.EXCLUDED_GROUP));
    tag(author, "inner", cast.get(Viewer.TAGGED));
    tag(author, "outer", cast.get(Viewer.EXCLUDED_TAG));
    block(author, cast.get(Viewer.BLOCKED));
    block(cast.get(Viewer.BLOCKER), author);
    hide(author, cast.get(Viewer.HIDDEN));
    mute(cast.get(Viewer.MUTER), author);
    // the control user's marker post tells when each viewer's timelines have caught up
    for (Viewer v : Viewer.values()) {
      if (v != Viewer.ANONYMOUS) {
        befriend(control, cast.get(v));
      }
    }

    JsonObject only = audience(
        List.of(cast.get(Viewer.LISTED), cast.get(Viewer.BLOCKED), cast.get(Viewer.BLOCKER), cast.get(Viewer.HIDDEN)),
        List.of(onlyGroup), List.of("inner"));
    JsonObject except = audience(List.of(cast.get(Viewer.EXCLUDED_USER)), List.of(exceptGroup), List.of("outer"));
    for (Vis vis : Vis.values()) {
      JsonObject body = body(vis.wire());
      if (vis == Vis.ONLY) {
        body.put("audience", only);
      } else if (vis == Vis.EXCEPT) {
        body.put("audience", except);
      }
      JsonObject view = await(feeds.publish(author, body));
      assertEquals(vis.wire(), view.getString("visibility"), "published " + view.encode());
      posts.put(vis, view.getLong("id"));
    }

    for (Vis vis : Vis.values()) {
      long post = posts.get(vis);
      List<Long> postLikers = new ArrayList<>();
      List<Long> postComments = new ArrayList<>();
      await(feeds.like(author, post));
      postLikers.add(0, author);
      postComments.add(0, await(feeds.comment(author, post, new JsonObject().put("text", "mine"))).getLong("id"));
      if (vis != Vis.PRIVATE) {
        await(feeds.like(groupMember, post));
        postLikers.add(0, groupMember);
        postComments.add(0, await(feeds.comment(groupMember, post, new JsonObject().put("text", "nice")))
            .getLong("id"));
        reposts.put(vis, await(feeds.repost(groupMember, post, body("public"))).getLong("id"));
      }
      likers.put(vis, postLikers);
      comments.put(vis, postComments);
    }
    authorMarker = publishPublic(author);
    controlMarker = publishPublic(control);

    for (Vis vis : Vis.values()) {
      long expectedReposts = reposts.containsKey(vis) ? 1 : 0;
      awaitView(author, posts.get(vis), "fixture counts of the " + vis.wire() + " post", v -> {
        JsonObject counts = v.getJsonObject("counts");
        return counts != null && counts.getLong("likes") == likers.get(vis).size()
            && counts.getLong("comments") == comments.get(vis).size()
            && counts.getLong("reposts") == expectedReposts;
      });
    }
  }

  @TestFactory
  @DisplayName("who sees a post: every visibility x viewer x path, as written in the tables")
  Stream<DynamicContainer> visibilityTable() {
    return Arrays.stream(Vis.values()).map(vis -> dynamicContainer("a " + vis.wire() + " post",
        Arrays.stream(Viewer.values()).map(viewer -> dynamicContainer("seen by " + viewer.description,
            Arrays.stream(Path.values())
                .filter(path -> expected(path, viewer, vis) != null)
                .map(path -> {
                  boolean sees = expected(path, viewer, vis);
                  return dynamicTest(path.description + (sees ? ": shown" : ": not shown"),
                      () -> check(path, viewer, vis, sees));
                })))));
  }

  private static Boolean expected(Path path, Viewer viewer, Vis vis) {
    if (viewer == Viewer.ANONYMOUS && (path == Path.LIKE || path == Path.COMMENT)) {
      return null; // no actor: the gateway never calls a write for an anonymous reader
    }
    return switch (path) {
      case HOME -> HOME_TABLE.get(viewer).get(vis);
      case MOMENTS -> MOMENTS_TABLE.get(viewer).get(vis);
      case LATEST -> LATEST_TABLE.get(viewer).get(vis);
      default -> SEES_TABLE.get(viewer).get(vis);
    };
  }

  private void check(Path path, Viewer viewer, Vis vis, boolean sees) throws Exception {
    long v = cast.get(viewer);
    long post = posts.get(vis);
    switch (path) {
      case POST -> {
        if (sees) {
          JsonObject view = await(feeds.post(v, post));
          assertEquals(post, view.getLong("id"));
          assertEquals(author, view.getJsonObject("author").getLong("id"));
          assertEquals(vis.wire(), view.getString("visibility"));
          if (viewer != Viewer.AUTHOR) {
            assertNull(view.getValue("audience"), "the audience is shown to the author only: " + view.encode());
          }
        } else {
          failsWith("post_not_found", feeds.post(v, post));
        }
      }
      case HOME -> timeline("home", viewer, HOME_TABLE, () -> feeds.home(v, PageRequest.ids(0, 0, 100))
          .map(Page::toJson), post, sees);
      case MOMENTS -> timeline("moments", viewer, MOMENTS_TABLE, () -> feeds.moments(v, PageRequest.ids(0, 0, 100))
          .map(Page::toJson), post, sees);
      case LATEST -> timeline("latest", viewer, LATEST_TABLE, () -> feeds.latest(v, PageRequest.ids(0, 0, 100))
          .map(Page::toJson), post, sees);
      case USER_POSTS -> {
        Future<JsonObject> page = feeds.userPosts(v, author, PageRequest.ids(0, 0, 100)).map(Page::toJson);
        if (sees) {
          assertTrue(ids(await(page)).contains(post), "userPosts lacks the post");
        } else {
          assertAbsentOr404(page, post);
        }
      }
      case COMMENTS -> {
        if (sees) {
          assertEquals(comments.get(vis), ids(await(feeds.comments(v, post, PageRequest.ids(0, 0, 100))
              .map(Page::toJson))));
        } else {
          failsWith("post_not_found", feeds.comments(v, post, PageRequest.ids(0, 0, 100)).map(Page::toJson));
        }
      }
      case LIKERS -> {
        if (sees) {
          assertEquals(likers.get(vis), likerIds(await(feeds.likers(v, post, PageRequest.ids(0, 0, 100))
              .map(Page::toJson))));
        } else {
          failsWith("post_not_found", feeds.likers(v, post, PageRequest.ids(0, 0, 100)).map(Page::toJson));
        }
      }
      case REPOSTS -> {
        if (sees) {
          List<Long> expected = reposts.containsKey(vis) ? List.of(reposts.get(vis)) : List.of();
          assertEquals(expected, ids(await(feeds.reposts(v, post, PageRequest.ids(0, 0, 100)).map(Page::toJson))));
        } else {
          failsWith("post_not_found", feeds.reposts(v, post, PageRequest.ids(0, 0, 100)).map(Page::toJson));
        }
      }
      case COUNTS -> checkCounts(v, vis, sees);
      case VISIBLE_POSTS -> assertEquals(sees ? List.of(post) : List.of(),
          visibleIds(await(feedsInternal.visiblePosts(v, List.of(post)))));
      case LIKE -> {
        if (sees) {
          boolean fixtureLiker = likers.get(vis).contains(v);
          int base = likers.get(vis).size();
          JsonObject liked = await(feeds.like(v, post));
          assertEquals(true, liked.getBoolean("liked"));
          assertEquals(fixtureLiker ? base : base + 1, liked.getLong("like_count"));
          if (!fixtureLiker) {
            assertEquals(base, await(feeds.unlike(v, post)).getLong("like_count"));
          }
        } else {
          failsWith("post_not_found", feeds.like(v, post));
        }
      }
      case COMMENT -> {
        if (sees) {
          JsonObject comment = await(feeds.comment(v, post, new JsonObject().put("text", "table")));
          assertEquals(post, comment.getLong("post"));
          assertEquals(v, comment.getJsonObject("author").getLong("id"));
          await(feeds.deleteComment(v, comment.getLong("id")));
        } else {
          failsWith("post_not_found", feeds.comment(v, post, new JsonObject().put("text", "table")));
        }
      }
      default -> throw new IllegalStateException(path.name());
    }
  }

  /** The counts a viewer reads, on the post itself and embedded in the group member's public repost of it. */
  private void checkCounts(long v, Vis vis, boolean sees) throws Exception {
    long post = posts.get(vis);
    Long repost = reposts.get(vis);
    JsonObject expected = new JsonObject().put("likes", likers.get(vis).size())
        .put("comments", comments.get(vis).size()).put("reposts", repost == null ? 0 : 1)
        .put("reposts_total", repost == null ? 0 : 1);
    if (sees) {
      assertEquals(expected, counts(await(feeds.post(v, post)).getJsonObject("counts")));
      if (repost != null) {
        JsonObject embedded = await(feeds.post(v, repost)).getJsonObject("repost_of");
        assertEquals("visible", embedded.getString("state"), embedded.encode());
        assertEquals(post, embedded.getJsonObject("post").getLong("id"));
        assertEquals(expected, counts(embedded.getJsonObject("post").getJsonObject("counts")));
      }
    } else {
      failsWith("post_not_found", feeds.post(v, post));
      if (repost != null) {
        // the public repost is visible to this viewer but must not leak the original or its counts
        JsonObject embedded = await(feeds.post(v, repost)).getJsonObject("repost_of");
        assertEquals("not_visible", embedded.getString("state"), embedded.encode());
        assertNull(embedded.getValue("post"), "the original leaks: " + embedded.encode());
      }
    }
  }

  private static JsonObject counts(JsonObject counts) {
    return new JsonObject().put("likes", counts.getLong("likes")).put("comments", counts.getLong("comments"))
        .put("reposts", counts.getLong("reposts")).put("reposts_total", counts.getLong("reposts_total"));
  }

  /**
   * A timeline check. Present: wait for it. Absent: first wait until the viewer's timeline shows the later marker
   * posts (the control user's, and the author's own public marker where the viewer gets the author's public posts),
   * then assert the post is not there.
   */
  private void timeline(String name, Viewer viewer, Map<Viewer, Map<Vis, Boolean>> table,
                        Supplier<Future<JsonObject>> page, long post, boolean sees) throws Exception {
    if (sees) {
      awaitListed(name + " of " + viewer.description, page, post);
      return;
    }
    String key = name + "/" + viewer;
    if (!settled.containsKey(key)) {
      awaitListed(name + " of " + viewer.description + " (marker)", page, controlMarker);
      if (table.get(viewer).get(Vis.PUBLIC)) {
        awaitListed(name + " of " + viewer.description + " (author's marker)", page, authorMarker);
      }
      settled.put(key, true);
    }
    List<Long> items = ids(await(page.get()));
    assertFalse(items.contains(post), name + " shows a post it must not: " + items);
  }

  /** The list either succeeds without {@code post}, or refuses the whole list with a 404. */
  private static void assertAbsentOr404(Future<JsonObject> page, long post) throws Exception {
    try {
      assertFalse(ids(await(page)).contains(post), "the list shows a post it must not");
    } catch (ExecutionException e) {
      assertTrue(e.getCause() instanceof ServiceException se && se.failureCode() == 404,
          "expected absence or a 404, got " + e.getCause());
    }
  }

  private static Map<Viewer, Map<Vis, Boolean>> parse(String table) {
    Map<Viewer, Map<Vis, Boolean>> rows = new EnumMap<>(Viewer.class);
    List<String> lines = table.lines().filter(l -> !l.isBlank()).toList();
    for (String line : lines.subList(1, lines.size())) {
      String[] cells = line.trim().split("\\s+");
      Map<Vis, Boolean> row = new EnumMap<>(Vis.class);
      for (Vis vis : Vis.values()) {
        String cell = cells[1 + vis.ordinal()];
        if (!cell.equals("-")) {
          row.put(vis, cell.equals("Y"));
        }
      }
      rows.put(Viewer.valueOf(cells[0]), row);
    }
    if (rows.size() != Viewer.values().length) {
      throw new IllegalStateException("a table misses viewers: " + rows.keySet());
    }
    return rows;
  }
}
