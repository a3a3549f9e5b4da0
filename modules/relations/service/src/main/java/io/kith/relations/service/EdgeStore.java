package io.kith.relations.service;

import io.kith.platform.id.IdGenerator;
import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.Collection;
import java.util.List;

/**
 * Directed edges between users in the {@value #EDGES} collection: {@code {_id: <Kith id, the paging key>, t: <type>,
 * a: <from>, b: <to>, at: <ms>}}, unique on (t, a, b). Types: {@link #FOLLOW}, {@link #REQUEST}, {@link #FRIEND} (one
 * edge each way while two users follow each other), {@link #BLOCK}, {@link #MUTE}, {@link #HIDE}.
 *
 * <p>Exact counts live in {@value #COUNTS} ({@code {user, following, followers, friends, fv}}), changed with
 * {@code $inc} only when an insert or delete actually changed an edge, so concurrent duplicates never double-count;
 * {@code fv} counts the changes of the user's followers (the version of {@link FollowerLists}).
 */
final class EdgeStore {

  static final String EDGES = "edges";
  static final String COUNTS = "relation_counts";
  static final String FOLLOW = "f";
  static final String REQUEST = "r";
  static final String FRIEND = "F";
  static final String BLOCK = "b";
  static final String MUTE = "m";
  static final String HIDE = "h";
  /** Field of {@value #COUNTS}: moved by every change of the user's followers. */
  static final String FOLLOWER_VERSION = "fv";

  private final MongoClient mongo;
  private final IdGenerator ids;

  EdgeStore(MongoClient mongo, IdGenerator ids) {
    this.mongo = mongo;
    this.ids = ids;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(EDGES, new JsonObject().put("t", 1).put("a", 1).put("b", 1),
            new IndexOptions().name("edge_unique").unique(true))
        .compose(v -> mongo.createIndexWithOptions(EDGES, new JsonObject().put("t", 1).put("b", 1).put("a", 1),
            new IndexOptions().name("edge_inbound")))
        .compose(v -> mongo.createIndexWithOptions(EDGES, new JsonObject().put("t", 1).put("a", 1).put("_id", -1),
            new IndexOptions().name("out_newest")))
        .compose(v -> mongo.createIndexWithOptions(EDGES, new JsonObject().put("t", 1).put("b", 1).put("_id", -1),
            new IndexOptions().name("in_newest")))
        .compose(v -> mongo.createIndexWithOptions(COUNTS, new JsonObject().put("user", 1),
            new IndexOptions().name("user_unique").unique(true)));
  }

  static JsonObject key(String type, long a, long b) {
    return new JsonObject().put("t", type).put("a", a).put("b", b);
  }

  /** Inserts an edge; true when it was new, false when it already existed. */
  Future<Boolean> insert(String type, long a, long b) {
    JsonObject doc = key(type, a, b).put("_id", ids.next()).put("at", System.currentTimeMillis());
    return mongo.insert(EDGES, doc).map(x -> true)
        .recover(e -> MongoErrors.isDuplicateKey(e) ? Future.succeededFuture(false) : Future.failedFuture(e));
  }

  /** Deletes an edge; true when it existed. */
  Future<Boolean> delete(String type, long a, long b) {
    return mongo.removeDocument(EDGES, key(type, a, b)).map(r -> r != null && r.getRemovedCount() > 0);
  }

  Future<Boolean> exists(String type, long a, long b) {
    return mongo.count(EDGES, key(type, a, b)).map(n -> n > 0);
  }

  /**
   * A page of edges of {@code type} whose {@code side} ("a" for outgoing, "b" for incoming) is {@code user}, newest
   * first, older than {@code before} (null for the first page).
   */
  Future<List<JsonObject>> page(String type, String side, long user, Long before, int limit) {
    JsonObject query = new JsonObject().put("t", type).put(side, user);
    if (before != null) {
      query.put("_id", new JsonObject().put("$lt", before));
    }
    return mongo.findWithOptions(EDGES, query,
        new FindOptions().setSort(new JsonObject().put("_id", -1)).setLimit(limit));
  }

  /**
   * The same page as {@link #page} with only {@code _id} and {@code field} of each edge: what an id list needs, less to
   * encode and decode per edge.
   */
  Future<List<JsonObject>> ends(String type, String side, long user, Long before, int limit, String field) {
    JsonObject query = new JsonObject().put("t", type).put(side, user);
    if (before != null) {
      query.put("_id", new JsonObject().put("$lt", before));
    }
    return mongo.findWithOptions(EDGES, query, new FindOptions().setSort(new JsonObject().put("_id", -1))
        .setLimit(limit).setFields(new JsonObject().put("_id", 1).put(field, 1)));
  }

  /** Every edge between {@code viewer} and any of {@code others}, in both directions, of the given types. */
  Future<List<JsonObject>> between(long viewer, Collection<Long> others, List<String> types) {
    if (others.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    JsonArray ids = new JsonArray(List.copyOf(others));
    JsonArray t = new JsonArray(types);
    JsonObject query = new JsonObject().put("$or", new JsonArray()
        .add(new JsonObject().put("t", new JsonObject().put("$in", t)).put("a", viewer)
            .put("b", new JsonObject().put("$in", ids)))
        .add(new JsonObject().put("t", new JsonObject().put("$in", t)).put("b", viewer)
            .put("a", new JsonObject().put("$in", ids))));
    return mongo.find(EDGES, query);
  }

  /** The {@code b} ends of a user's outgoing edges of {@code type}, at most {@code max}. */
  Future<List<Long>> targets(String type, long a, int max) {
    return mongo.findWithOptions(EDGES, new JsonObject().put("t", type).put("a", a),
            new FindOptions().setFields(new JsonObject().put("b", 1)).setLimit(max))
        .map(docs -> docs.stream().map(d -> d.getLong("b")).toList());
  }

  /** The {@code a} ends of a user's incoming edges of {@code type}, at most {@code max}. */
  Future<List<Long>> sources(String type, long b, int max) {
    return mongo.findWithOptions(EDGES, new JsonObject().put("t", type).put("b", b),
            new FindOptions().setFields(new JsonObject().put("a", 1)).setLimit(max))
        .map(docs -> docs.stream().map(d -> d.getLong("a")).toList());
  }

  Future<Long> countOut(String type, long a) {
    return mongo.count(EDGES, new JsonObject().put("t", type).put("a", a));
  }

  /**
   * Edges of {@code type} with {@code user} at either end, oldest first, after edge {@code after} (null: from the
   * first), at most {@code limit}: what an erasure deletes in batches and an export pages through.
   */
  Future<List<JsonObject>> involving(String type, long user, Long after, int limit) {
    JsonObject query = new JsonObject().put("t", type)
        .put("$or", new JsonArray().add(new JsonObject().put("a", user)).add(new JsonObject().put("b", user)));
    return mongo.findWithOptions(EDGES, after == null ? query : query.put("_id", new JsonObject().put("$gt", after)),
        new FindOptions().setSort(new JsonObject().put("_id", 1)).setLimit(limit));
  }

  /**
   * Edges of {@code type} whose {@code side} ("a" outgoing, "b" incoming) is {@code user}, oldest first, after edge
   * {@code after} (null: from the first): the export's pages.
   */
  Future<List<JsonObject>> after(String type, String side, long user, Long after, int limit) {
    JsonObject query = new JsonObject().put("t", type).put(side, user);
    return mongo.findWithOptions(EDGES, after == null ? query : query.put("_id", new JsonObject().put("$gt", after)),
        new FindOptions().setSort(new JsonObject().put("_id", 1)).setLimit(limit));
  }

  /** Deletes the edges with these ids; returns how many there were. */
  Future<Long> deleteAll(List<Long> ids) {
    return mongo.removeDocuments(EDGES, new JsonObject().put("_id", new JsonObject().put("$in", new JsonArray(ids))))
        .map(r -> r == null ? 0L : r.getRemovedCount());
  }

  // ---------------------------------------------------------------- counts

  Future<Void> inc(long user, String field, int delta) {
    return inc(user, new JsonObject().put(field, delta));
  }

  /**
   * Changes {@code user}'s follower count by {@code delta} and, in the same update, moves their follower version
   * {@code fv} (see {@link FollowerLists}): called after every follow edge into {@code user} was added or removed.
   */
  Future<Void> incFollowers(long user, int delta) {
    return inc(user, new JsonObject().put("followers", delta).put(FOLLOWER_VERSION, 1));
  }

  private Future<Void> inc(long user, JsonObject increments) {
    return incOnce(user, increments)
        // two first upserts of the same user race on the unique index: the loser retries and finds the document
        .recover(e -> MongoErrors.isDuplicateKey(e) ? incOnce(user, increments) : Future.failedFuture(e));
  }

  private Future<Void> incOnce(long user, JsonObject increments) {
    return mongo.updateCollectionWithOptions(COUNTS, new JsonObject().put("user", user),
        new JsonObject().put("$inc", increments), new UpdateOptions().setUpsert(true))
        .mapEmpty();
  }

  /**
   * Sets {@code user}'s count {@code field} ({@code following}, {@code followers} or {@code friends}) to a recount of
   * their edges of {@code type} on {@code side}, leaving out those with {@code excluded} (whose edges are about to be
   * erased): run before the delete, so a crash after either write leaves the count exact and a repeat sets the same.
   * A follower recount moves the follower version too, so a Redis copy of the list is taken again.
   */
  Future<Void> recount(long user, String field, String type, String side, long excluded) {
    String other = "a".equals(side) ? "b" : "a";
    return mongo.count(EDGES, new JsonObject().put("t", type).put(side, user)
            .put(other, new JsonObject().put("$ne", excluded)))
        .compose(n -> {
          JsonObject update = new JsonObject().put("$set", new JsonObject().put(field, n));
          if ("followers".equals(field)) {
            update.put("$inc", new JsonObject().put(FOLLOWER_VERSION, 1));
          }
          return mongo.updateCollection(COUNTS, new JsonObject().put("user", user), update);
        }).mapEmpty();
  }

  /** Deletes {@code user}'s counts document; returns how many there were (0 or 1). */
  Future<Long> deleteCounts(long user) {
    return mongo.removeDocuments(COUNTS, new JsonObject().put("user", user))
        .map(r -> r == null ? 0L : r.getRemovedCount());
  }

  /** A user's follower count and follower version. */
  record FollowerVersion(long count, long version) {
  }

  /** {@code user}'s follower count and follower version (0 and 0 without a counts document). */
  Future<FollowerVersion> followerVersion(long user) {
    return mongo.findOne(COUNTS, new JsonObject().put("user", user),
            new JsonObject().put("followers", 1).put(FOLLOWER_VERSION, 1))
        .map(doc -> doc == null ? new FollowerVersion(0, 0)
            : new FollowerVersion(doc.getLong("followers", 0L), doc.getLong(FOLLOWER_VERSION, 0L)));
  }

  Future<JsonObject> counts(long user) {
    return mongo.findOne(COUNTS, new JsonObject().put("user", user), null).map(doc -> new JsonObject()
        .put("following_count", Math.max(0, doc == null ? 0 : doc.getLong("following", 0L)))
        .put("follower_count", Math.max(0, doc == null ? 0 : doc.getLong("followers", 0L)))
        .put("friend_count", Math.max(0, doc == null ? 0 : doc.getLong("friends", 0L))));
  }
}
