package io.kith.bench.scenario.relations;

import io.kith.relations.service.RelationsSeeder;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * The graph the {@code relations-batch} scenario seeds around one viewer and the users it asks about: a realistic
 * mix of everything the batch relationship query reports, written as documents of the relations domain's collections
 * (made by the relations test-jar's {@link RelationsSeeder}), and the answer the HTTP operation must give for it.
 *
 * <p>Over the asked-about users, by position: the viewer follows 30 %, 30 % follow the viewer (half of those overlap,
 * so 15 % are friends, with their two friendship edges), 3 % have a pending request from the viewer, 2 % are blocked
 * by the viewer and 1 % block the viewer, 3 % are muted, 2 % hide their posts from the viewer and 1 % are hidden from
 * by the viewer; the viewer tagged 20 % (5 tags, and a sixth on 4 %) and put 11 % of them, all friends, in two
 * groups. Blocks, requests and follows never overlap, as the domain's rules ensure. The other users have no edges
 * among themselves unless {@code otherEdges} asks for some (follows between users the query does not involve, so
 * the collection holds more than the viewer's edges).
 *
 * @param edges   edge documents
 * @param tags    contact tag documents
 * @param groups  friend group documents
 * @param members friend group membership documents
 * @param expect  what the HTTP operation must count in its reply
 */
record RelationsMix(List<JsonObject> edges, List<JsonObject> tags, List<JsonObject> groups, List<JsonObject> members,
                    Counts expect) {

  /** Per mille of the users in each role, by position (see the class comment). */
  private static final int FOLLOWING_END = 300;
  private static final int FOLLOWED_BY_START = 150;
  private static final int FOLLOWED_BY_END = 450;
  private static final int REQUESTED_END = 480;
  private static final int BLOCKING_END = 500;
  private static final int BLOCKED_BY_END = 510;
  private static final int MUTING_END = 540;
  private static final int HIDDEN_FROM_END = 560;
  private static final int HIDING_END = 570;
  private static final int TAGGED_END = 200;
  private static final int SECOND_TAG_END = 40;
  private static final int FAMILY_END = 200;
  private static final int COLLEAGUES_END = 260;

  /**
   * The counts over a relationships reply: how many users have each flag set, and how many tag and group entries
   * there are in all.
   */
  record Counts(int users, int following, int followedBy, int friend, int requested, int blocking, int muting,
                int tags, int groups) {

    /** Counts a reply {@code {"<id>": {following, followed_by, ...}, ...}}. */
    static Counts of(JsonObject reply) {
      int following = 0;
      int followedBy = 0;
      int friend = 0;
      int requested = 0;
      int blocking = 0;
      int muting = 0;
      int tags = 0;
      int groups = 0;
      for (Map.Entry<String, Object> entry : reply) {
        if (!(entry.getValue() instanceof JsonObject r)) {
          throw new IllegalStateException("relationship of " + entry.getKey() + " is not an object");
        }
        if (r.containsKey("blocked_by") || r.containsKey("hidden_from")) {
          throw new IllegalStateException("the HTTP reply reveals blocked_by or hidden_from");
        }
        following += flag(r, "following");
        followedBy += flag(r, "followed_by");
        friend += flag(r, "friend");
        requested += flag(r, "requested");
        blocking += flag(r, "blocking");
        muting += flag(r, "muting");
        tags += list(r, "tags");
        groups += list(r, "circles");
      }
      return new Counts(reply.size(), following, followedBy, friend, requested, blocking, muting, tags, groups);
    }

    private static int flag(JsonObject r, String name) {
      Object v = r.getValue(name);
      if (!(v instanceof Boolean)) {
        throw new IllegalStateException("relationship has no boolean " + name);
      }
      return (Boolean) v ? 1 : 0;
    }

    private static int list(JsonObject r, String name) {
      Object v = r.getValue(name);
      if (!(v instanceof JsonArray)) {
        throw new IllegalStateException("relationship has no array " + name);
      }
      return ((JsonArray) v).size();
    }

    /** "300 following, 300 followed_by, ..." for notes. */
    String describe() {
      return String.format(Locale.ROOT, "%d following, %d followed_by, %d friends, %d requested, %d blocking, "
          + "%d muting, %d tags, %d group memberships", following, followedBy, friend, requested, blocking, muting,
          tags, groups);
    }
  }

  /**
   * Builds the mix for {@code viewer} and {@code others} (1,000 users in the scenario; any multiple of 1,000 keeps
   * the shares exact). Why one long method: one loop gives every user its share of edges, tags and group places by
   * the same index, and the counts the scenario expects come from those same shares, so they stay together.
   *
   * @param ids        makes document ids (a Kith id generator)
   * @param otherEdges follow edges to add between users the query does not involve
   * @param strangers  user ids for those edges: distinct from the viewer and {@code others}
   * @param now        timestamp for {@code at} and {@code created}
   */
  static RelationsMix build(long viewer, List<Long> others, LongSupplier ids, int otherEdges, LongSupplier strangers,
                            long now) {
    int n = others.size();
    List<JsonObject> edges = new ArrayList<>();
    List<JsonObject> tags = new ArrayList<>();
    List<JsonObject> groups = new ArrayList<>();
    List<JsonObject> members = new ArrayList<>();
    long family = ids.getAsLong();
    long colleagues = ids.getAsLong();
    int familySize = 0;
    int colleaguesSize = 0;
    for (int i = 0; i < n; i++) {
      long other = others.get(i);
      int p = (int) ((long) i * 1000 / n); // position per mille
      boolean following = p < FOLLOWING_END;
      boolean followedBy = p >= FOLLOWED_BY_START && p < FOLLOWED_BY_END;
      if (following) {
        edges.add(RelationsSeeder.edge(ids.getAsLong(), RelationsSeeder.FOLLOW, viewer, other, now));
      }
      if (followedBy) {
        edges.add(RelationsSeeder.edge(ids.getAsLong(), RelationsSeeder.FOLLOW, other, viewer, now));
      }
      if (following && followedBy) {
        edges.add(RelationsSeeder.edge(ids.getAsLong(), RelationsSeeder.FRIEND, viewer, other, now));
        edges.add(RelationsSeeder.edge(ids.getAsLong(), RelationsSeeder.FRIEND, other, viewer, now));
      }
      if (p >= FOLLOWED_BY_END && p < REQUESTED_END) {
        edges.add(RelationsSeeder.edge(ids.getAsLong(), RelationsSeeder.REQUEST, viewer, other, now));
      } else if (p >= REQUESTED_END && p < BLOCKING_END) {
        edges.add(RelationsSeeder.edge(ids.getAsLong(), RelationsSeeder.BLOCK, viewer, other, now));
      } else if (p >= BLOCKING_END && p < BLOCKED_BY_END) {
        edges.add(RelationsSeeder.edge(ids.getAsLong(), RelationsSeeder.BLOCK, other, viewer, now));
      } else if (p >= BLOCKED_BY_END && p < MUTING_END) {
        edges.add(RelationsSeeder.edge(ids.getAsLong(), RelationsSeeder.MUTE, viewer, other, now));
      } else if (p >= MUTING_END && p < HIDDEN_FROM_END) {
        edges.add(RelationsSeeder.edge(ids.getAsLong(), RelationsSeeder.HIDE, other, viewer, now));
      } else if (p >= HIDDEN_FROM_END && p < HIDING_END) {
        edges.add(RelationsSeeder.edge(ids.getAsLong(), RelationsSeeder.HIDE, viewer, other, now));
      }
      if (p < TAGGED_END) {
        tags.add(RelationsSeeder.tag(ids.getAsLong(), viewer, "t" + (i % 5), other, now));
        if (p < SECOND_TAG_END) {
          tags.add(RelationsSeeder.tag(ids.getAsLong(), viewer, "Close", other, now));
        }
      }
      boolean friend = following && followedBy;
      if (friend && p < FAMILY_END) {
        members.add(RelationsSeeder.member(ids.getAsLong(), family, viewer, other, now));
        familySize++;
      } else if (friend && p < COLLEAGUES_END) {
        members.add(RelationsSeeder.member(ids.getAsLong(), colleagues, viewer, other, now));
        colleaguesSize++;
      }
    }
    groups.add(RelationsSeeder.group(family, viewer, "Family", familySize, now));
    groups.add(RelationsSeeder.group(colleagues, viewer, "Colleagues", colleaguesSize, now));
    for (int k = 0; k < otherEdges; k++) {
      edges.add(RelationsSeeder.edge(ids.getAsLong(), RelationsSeeder.FOLLOW, strangers.getAsLong(),
          strangers.getAsLong(), now));
    }
    Counts expect = new Counts(n, share(n, 0, FOLLOWING_END), share(n, FOLLOWED_BY_START, FOLLOWED_BY_END),
        share(n, FOLLOWED_BY_START, FOLLOWING_END), share(n, FOLLOWED_BY_END, REQUESTED_END),
        share(n, REQUESTED_END, BLOCKING_END), share(n, BLOCKED_BY_END, MUTING_END),
        share(n, 0, TAGGED_END) + share(n, 0, SECOND_TAG_END), familySize + colleaguesSize);
    return new RelationsMix(edges, tags, groups, members, expect);
  }

  /** How many of {@code n} positions fall in per-mille range {@code [from, to)}. */
  private static int share(int n, int from, int to) {
    int count = 0;
    for (int i = 0; i < n; i++) {
      int p = (int) ((long) i * 1000 / n);
      if (p >= from && p < to) {
        count++;
      }
    }
    return count;
  }
}
