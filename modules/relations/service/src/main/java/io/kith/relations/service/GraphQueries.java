package io.kith.relations.service;

import io.kith.platform.error.Failures;
import io.vertx.core.CompositeFuture;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import static io.kith.relations.service.Paging.MAX_IDS;
import static io.kith.relations.service.Paging.before;
import static io.kith.relations.service.Paging.idList;
import static io.kith.relations.service.Paging.nextCursor;

/**
 * The graph as other domains ask it, in batches: what users are to a viewer (relationships, ties), who may see an
 * author's posts (eligible followers), id streams of follows and friends, and where a viewer is tagged or grouped.
 */
final class GraphQueries {

  static final int MAX_STREAM_PAGE = 1_000;
  /**
   * Page of {@link #eligibleFollowers}: the whole follower list of an author who is fanned out (the feeds' default
   * celebrity threshold) fits one page, one query instead of ten.
   */
  static final int MAX_FOLLOWER_PAGE = 10_000;
  /** The author's sets an eligible-follower page asks: the first three exclude a follower, the last flags a friend. */
  private static final List<String> ELIGIBILITY_SETS = List.of(HotSets.HIDES, HotSets.BLOCKS, HotSets.BLOCKED_BY,
      HotSets.FRIENDS);
  private static final int EXCLUDED = 0b0111;
  private static final int FRIEND = 0b1000;
  static final int MAX_PLACEMENTS = 5_000;

  private final EdgeStore edges;
  private final HotSets sets;
  private final FollowerLists followerLists;
  private final GroupStore groups;
  private final TagStore tags;

  GraphQueries(EdgeStore edges, HotSets sets, FollowerLists followerLists, GroupStore groups, TagStore tags) {
    this.edges = edges;
    this.sets = sets;
    this.followerLists = followerLists;
    this.groups = groups;
    this.tags = tags;
  }

  Future<JsonObject> relationships(long viewer, List<Long> userIds) {
    return Failures.guard(() -> {
      List<Long> ids = idList(userIds, MAX_IDS, "ids");
      List<String> types = List.of(EdgeStore.FOLLOW, EdgeStore.REQUEST, EdgeStore.BLOCK, EdgeStore.MUTE,
          EdgeStore.HIDE);
      return Future.all(edges.between(viewer, ids, types), tags.on(viewer, ids), groups.membershipsOf(viewer, ids))
          .map(all -> relationshipsOf(viewer, ids, all));
    });
  }

  /** The {@link #relationships} answer from the edges, tags and group memberships found between viewer and ids. */
  private static JsonObject relationshipsOf(long viewer, List<Long> ids, CompositeFuture all) {
    JsonObject out = new JsonObject();
    for (Long id : ids) {
      out.put(Long.toString(id), new JsonObject().put("following", false).put("followed_by", false)
          .put("friend", false).put("requested", false).put("blocking", false).put("blocked_by", false)
          .put("muting", false).put("hidden_from", false).put("tags", new JsonArray())
          .put("groups", new JsonArray()));
    }
    List<JsonObject> found = all.resultAt(0);
    for (JsonObject e : found) {
      boolean outgoing = e.getLong("a") == viewer;
      long other = outgoing ? e.getLong("b") : e.getLong("a");
      JsonObject r = out.getJsonObject(Long.toString(other));
      if (r == null) {
        continue;
      }
      String flag = switch (e.getString("t")) {
        case EdgeStore.FOLLOW -> outgoing ? "following" : "followed_by";
        case EdgeStore.REQUEST -> outgoing ? "requested" : null;
        case EdgeStore.BLOCK -> outgoing ? "blocking" : "blocked_by";
        case EdgeStore.MUTE -> outgoing ? "muting" : null;
        case EdgeStore.HIDE -> outgoing ? null : "hidden_from";
        default -> null;
      };
      if (flag != null) {
        r.put(flag, true);
      }
    }
    out.forEach(entry -> {
      JsonObject r = (JsonObject) entry.getValue();
      r.put("friend", r.getBoolean("following") && r.getBoolean("followed_by"));
    });
    List<JsonObject> tagRows = all.resultAt(1);
    tagRows.forEach(t -> {
      JsonObject r = out.getJsonObject(Long.toString(t.getLong("target")));
      if (r != null) {
        r.getJsonArray("tags").add(t.getString("tag"));
      }
    });
    List<JsonObject> memberRows = all.resultAt(2);
    memberRows.forEach(m -> {
      JsonObject r = out.getJsonObject(Long.toString(m.getLong("member")));
      if (r != null) {
        r.getJsonArray("groups").add(m.getLong("g"));
      }
    });
    return out;
  }

  Future<JsonObject> eligibleFollowers(long author, int limit, String cursor) {
    return Failures.guard(() -> {
      int n = Math.max(1, Math.min(MAX_FOLLOWER_PAGE, limit));
      // a warm page (copy current, the four sets present) is one script call answering the sets with the list
      return followerLists.page(author, before(cursor), n, ELIGIBILITY_SETS)
          .compose(read -> eligibilityMasks(author, read).map(masks -> eligible(read, masks)));
    });
  }

  /** The page's followers not excluded by their masks, the friends among them, and the next cursor. */
  private static JsonObject eligible(FollowerLists.Page read, int[] masks) {
    long[] followers = read.followers();
    List<Object> items = new ArrayList<>(followers.length);
    List<Object> friendItems = new ArrayList<>();
    for (int i = 0; i < followers.length; i++) {
      if ((masks[i] & EXCLUDED) == 0) {
        items.add(followers[i]);
        if ((masks[i] & FRIEND) != 0) {
          friendItems.add(followers[i]);
        }
      }
    }
    return new JsonObject().put("items", new JsonArray(items)).put("friends", new JsonArray(friendItems))
        .put("next", read.next() == null ? null : Long.toString(read.next()));
  }

  /**
   * The page's masks over {@link #ELIGIBILITY_SETS}, completed with the sets the page did not answer (missing from
   * Redis, or all of them for a page read from MongoDB): asked through the hot sets, which rebuild missing ones.
   */
  private Future<int[]> eligibilityMasks(long author, FollowerLists.Page page) {
    if (page.unanswered() == 0 || page.followers().length == 0) {
      return Future.succeededFuture(page.masks());
    }
    List<Integer> bits = new ArrayList<>();
    for (int i = 0; i < ELIGIBILITY_SETS.size(); i++) {
      if ((page.unanswered() & (1 << i)) != 0) {
        bits.add(i);
      }
    }
    List<Long> ids = new ArrayList<>(page.followers().length);
    for (long follower : page.followers()) {
      ids.add(follower);
    }
    return sets.memberships(author, bits.stream().map(ELIGIBILITY_SETS::get).toList(), ids).map(asked -> {
      int[] masks = page.masks();
      for (int j = 0; j < masks.length; j++) {
        for (int k = 0; k < bits.size(); k++) {
          if ((asked[j] & (1 << k)) != 0) {
            masks[j] |= 1 << bits.get(k);
          }
        }
      }
      return masks;
    });
  }

  /** The flags {@link #ties} answers, and the viewer's hot set behind each, in the same order. */
  private static final List<String> TIE_NAMES = List.of("following", "friend", "blocking", "blocked_by", "muting",
      "hidden_from");
  private static final List<String> TIE_SETS = List.of(HotSets.FOLLOWING, HotSets.FRIENDS, HotSets.BLOCKS,
      HotSets.BLOCKED_BY, HotSets.MUTES, HotSets.HIDDEN_BY);

  Future<JsonObject> ties(long viewer, List<Long> userIds) {
    return Failures.guard(() -> {
      List<Long> ids = idList(userIds, MAX_IDS, "ids");
      // the six sets share the viewer's hash tag: one script call answers them all when present
      return sets.memberships(viewer, TIE_SETS, ids).map(masks -> {
        JsonObject out = new JsonObject();
        for (int j = 0; j < ids.size(); j++) {
          JsonObject flags = new JsonObject();
          for (int i = 0; i < TIE_NAMES.size(); i++) {
            flags.put(TIE_NAMES.get(i), (masks[j] & (1 << i)) != 0);
          }
          out.put(Long.toString(ids.get(j)), flags);
        }
        return out;
      });
    });
  }

  Future<JsonObject> followingIds(long userId, int limit, String cursor) {
    return idPage(EdgeStore.FOLLOW, userId, limit, cursor);
  }

  Future<JsonObject> friendIds(long userId, int limit, String cursor) {
    return idPage(EdgeStore.FRIEND, userId, limit, cursor);
  }

  private Future<JsonObject> idPage(String type, long userId, int limit, String cursor) {
    return Failures.guard(() -> {
      int n = Math.max(1, Math.min(MAX_STREAM_PAGE, limit));
      return edges.page(type, "a", userId, before(cursor), n).map(page -> {
        JsonArray items = new JsonArray();
        page.forEach(e -> items.add(e.getLong("b")));
        return new JsonObject().put("items", items).put("next", nextCursor(page, n));
      });
    });
  }

  Future<JsonObject> placements(long viewer) {
    return placementsFrom(tags.placing(viewer, MAX_PLACEMENTS), groups.holding(viewer, MAX_PLACEMENTS));
  }

  Future<JsonObject> placementsBy(long viewer, List<Long> owners) {
    return Failures.guard(() -> {
      List<Long> ids = idList(owners, MAX_IDS, "owners");
      return placementsFrom(tags.placingBy(viewer, ids), groups.holdingBy(viewer, ids));
    });
  }

  private static Future<JsonObject> placementsFrom(Future<List<JsonObject>> tagsFound,
                                                   Future<List<JsonObject>> groupsFound) {
    return Future.all(tagsFound, groupsFound).map(all -> {
      JsonObject out = new JsonObject();
      Function<Long, JsonObject> entry = owner -> {
        JsonObject e = out.getJsonObject(Long.toString(owner));
        if (e == null) {
          e = new JsonObject().put("tags", new JsonArray()).put("groups", new JsonArray());
          out.put(Long.toString(owner), e);
        }
        return e;
      };
      List<JsonObject> tagRows = all.resultAt(0);
      tagRows.forEach(t -> entry.apply(t.getLong("owner")).getJsonArray("tags").add(t.getString("tag_lc")));
      List<JsonObject> groupRows = all.resultAt(1);
      groupRows.forEach(g -> entry.apply(g.getLong("owner")).getJsonArray("groups").add(g.getLong("g")));
      return out;
    });
  }
}
