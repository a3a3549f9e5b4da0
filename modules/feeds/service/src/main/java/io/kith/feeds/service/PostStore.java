package io.kith.feeds.service;

import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The record of posts, comments and likes in MongoDB.
 *
 * <p>A post is {@code {_id, author, text, media: [descriptor], place, mentions, vis, aud: {users, groups, tags},
 * repost_of (0 if none), created, edited, likes, comments, reposts, reposts_total}}; a deleted post keeps its id,
 * author and {@code repost_of} with {@code deleted: true} and loses its content. Counters change by {@code $inc} only
 * when a like, comment or repost was really added or removed, so they stay exact under concurrency; after a write
 * that stopped between the two, {@link CounterRecount} sets them from the records ({@link #setCounters}).
 */
final class PostStore {

  static final String POSTS = "posts";
  static final String COMMENTS = "comments";
  static final String LIKES = "likes";
  private static final JsonObject NEWEST = new JsonObject().put("_id", -1);
  private static final JsonObject LIVE = new JsonObject().put("$ne", true);
  // a comment a moderator removed keeps its record (for review) with a removed field; lists and counts skip it
  private static final JsonObject SHOWN = new JsonObject().put("$exists", false);

  private final MongoClient mongo;

  PostStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(POSTS, new JsonObject().put("author", 1).put("_id", -1),
            new IndexOptions().name("author_newest"))
        .compose(v -> mongo.createIndexWithOptions(POSTS, new JsonObject().put("vis", 1).put("_id", -1),
            new IndexOptions().name("vis_newest")))
        .compose(v -> mongo.createIndexWithOptions(POSTS, new JsonObject().put("repost_of", 1).put("_id", -1),
            new IndexOptions().name("reposts_newest")))
        .compose(v -> mongo.createIndexWithOptions(POSTS, new JsonObject().put("author", 1).put("repost_of", 1),
            new IndexOptions().name("author_reposts")))
        // a client's retry of a post (same client_id) meets the stored one; posts without a client id are not in it
        .compose(v -> mongo.createIndexWithOptions(POSTS, new JsonObject().put(CLIENT_KEY, 1),
            new IndexOptions().name("client_key_unique").unique(true).sparse(true)))
        .compose(v -> mongo.createIndexWithOptions(COMMENTS, new JsonObject().put("post", 1).put("_id", -1),
            new IndexOptions().name("post_newest")))
        // an account's erasure and export read a user's comments
        .compose(v -> mongo.createIndexWithOptions(COMMENTS, new JsonObject().put("author", 1).put("_id", 1),
            new IndexOptions().name("author_oldest")))
        .compose(v -> mongo.createIndexWithOptions(LIKES, new JsonObject().put("p", 1).put("u", 1),
            new IndexOptions().name("like_unique").unique(true)))
        .compose(v -> mongo.createIndexWithOptions(LIKES, new JsonObject().put("u", 1).put("_id", -1),
            new IndexOptions().name("user_newest")))
        .compose(v -> mongo.createIndexWithOptions(LIKES, new JsonObject().put("p", 1).put("_id", -1),
            new IndexOptions().name("post_newest")));
  }

  // ---------------------------------------------------------------- posts

  /** Puts {@code view} in place of media {@code mediaId}'s copy in these posts. */
  Future<Void> replaceMedia(List<Long> postIds, long mediaId, JsonObject view) {
    JsonObject query = new JsonObject().put("_id", new JsonObject().put("$in", new JsonArray(List.copyOf(postIds))))
        .put("media.id", mediaId);
    return mongo.updateCollectionWithOptions(POSTS, query, new JsonObject().put("$set",
        new JsonObject().put("media.$", view)), new UpdateOptions().setMulti(true)).mapEmpty();
  }

  Future<Void> insert(JsonObject post) {
    return mongo.insert(POSTS, post).mapEmpty();
  }

  /** The member of a post document holding {@link #clientKey}, when the client gave its post an id. */
  static final String CLIENT_KEY = "cid";

  /** One author's client id as stored: unique across posts, so that a retry cannot store the post twice. */
  static String clientKey(long author, String clientId) {
    return author + ":" + clientId;
  }

  /** The post {@code author} published with {@code clientId}, deleted or not; null when there is none. */
  Future<JsonObject> findByClientId(long author, String clientId) {
    return mongo.findOne(POSTS, new JsonObject().put(CLIENT_KEY, clientKey(author, clientId)), null);
  }

  /** A post, deleted or not; null when it never existed. */
  Future<JsonObject> find(long id) {
    return mongo.findOne(POSTS, new JsonObject().put("_id", id), null);
  }

  /** Posts by id (deleted ones included), keyed by id. */
  Future<Map<Long, JsonObject>> findAll(Collection<Long> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    return mongo.find(POSTS, new JsonObject().put("_id", new JsonObject().put("$in", new JsonArray(List.copyOf(ids)))))
        .map(list -> {
          Map<Long, JsonObject> out = new HashMap<>();
          list.forEach(p -> out.put(p.getLong("_id"), p));
          return out;
        });
  }

  /** Live posts of the given authors, newest first, below {@code before} and above {@code after} (0: no bound). */
  Future<List<JsonObject>> byAuthors(Collection<Long> authors, long before, long after, int limit) {
    if (authors.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    JsonObject query = new JsonObject().put("deleted", LIVE);
    query.put("author", authors.size() == 1 ? authors.iterator().next()
        : new JsonObject().put("$in", new JsonArray(List.copyOf(authors))));
    return page(query, before, after, limit);
  }

  /** Live posts of one author matching any of the visibility clauses ({@code $or}), newest first. */
  Future<List<JsonObject>> byAuthorVisible(long author, JsonArray visibility, long before, long after, int limit) {
    return page(new JsonObject().put("author", author).put("deleted", LIVE).put("$or", visibility), before, after,
        limit);
  }

  /** Live public posts, newest first. */
  Future<List<JsonObject>> latestPublic(long before, long after, int limit) {
    return page(new JsonObject().put("vis", Visibility.PUBLIC).put("deleted", LIVE), before, after, limit);
  }

  /** Live reposts of a post, newest first. */
  Future<List<JsonObject>> repostsOf(long original, long before, int limit) {
    return page(new JsonObject().put("repost_of", original).put("deleted", LIVE), before, 0, limit);
  }

  /** The user's live reposts, newest first: (original id, repost id) pairs. */
  Future<List<long[]>> repostsBy(long user, int limit) {
    JsonObject query = new JsonObject().put("author", user).put("deleted", LIVE)
        .put("repost_of", new JsonObject().put("$gt", 0));
    return mongo.findWithOptions(POSTS, query, new FindOptions().setSort(NEWEST).setLimit(limit)
        .setFields(new JsonObject().put("repost_of", 1))).map(list -> {
          List<long[]> out = new ArrayList<>();
          list.forEach(p -> out.add(new long[] {p.getLong("repost_of"), p.getLong("_id")}));
          return out;
        });
  }

  /** The user's likes, newest first: (post id, like id) pairs. */
  Future<List<long[]>> likePairs(long user, int limit) {
    return likesBy(user, 0, limit).map(list -> {
      List<long[]> out = new ArrayList<>();
      list.forEach(l -> out.add(new long[] {l.getLong("p"), l.getLong("_id")}));
      return out;
    });
  }

  /** Which of the given originals {@code user} has a live repost of. */
  Future<Set<Long>> repostedAmong(long user, Collection<Long> originals) {
    if (originals.isEmpty() || user == 0) {
      return Future.succeededFuture(Set.of());
    }
    JsonObject query = new JsonObject().put("author", user).put("deleted", LIVE)
        .put("repost_of", new JsonObject().put("$in", new JsonArray(List.copyOf(originals))));
    return mongo.findWithOptions(POSTS, query, new FindOptions().setFields(new JsonObject().put("repost_of", 1)))
        .map(list -> {
          Set<Long> out = new HashSet<>();
          list.forEach(p -> out.add(p.getLong("repost_of")));
          return out;
        });
  }

  private Future<List<JsonObject>> page(JsonObject query, long before, long after, int limit) {
    return mongo.findWithOptions(POSTS, idRange(query, before, after),
        new FindOptions().setSort(NEWEST).setLimit(limit));
  }

  /** Adds {@code _id < before} and {@code _id > after} (each when positive) to a query; returns it. */
  private static JsonObject idRange(JsonObject query, long before, long after) {
    JsonObject range = new JsonObject();
    if (before > 0) {
      range.put("$lt", before);
    }
    if (after > 0) {
      range.put("$gt", after);
    }
    if (!range.isEmpty()) {
      query.put("_id", range);
    }
    return query;
  }

  /** Applies changes to the author's live post; the updated post, or null when there is none. */
  Future<JsonObject> update(long id, long author, JsonObject set) {
    return mongo.findOneAndUpdateWithOptions(POSTS,
        new JsonObject().put("_id", id).put("author", author).put("deleted", LIVE),
        new JsonObject().put("$set", set), new FindOptions(), new UpdateOptions().setReturningNewDocument(true));
  }

  /**
   * Marks the author's live post deleted and drops its content; the post as it was, or null when it was not live (so
   * only one concurrent delete adjusts counters).
   */
  Future<JsonObject> markDeleted(long id, long author, long now) {
    JsonObject unset = new JsonObject();
    for (String f : List.of("text", "media", "place", "mentions", "aud")) {
      unset.put(f, "");
    }
    return mongo.findOneAndUpdateWithOptions(POSTS,
        new JsonObject().put("_id", id).put("author", author).put("deleted", LIVE),
        new JsonObject().put("$set", new JsonObject().put("deleted", true).put("deleted_at", now)).put("$unset", unset),
        new FindOptions(), new UpdateOptions().setReturningNewDocument(false));
  }

  /**
   * Marks a live post removed by a moderator ({@code deleted: true} with the {@code removed} record; its content stays
   * for review); the post as it was, or null when it was not live.
   */
  Future<JsonObject> markRemoved(long id, JsonObject removal) {
    return mongo.findOneAndUpdateWithOptions(POSTS, new JsonObject().put("_id", id).put("deleted", LIVE),
        new JsonObject().put("$set", new JsonObject().put("deleted", true).put("deleted_at", removal.getLong("at"))
            .put("removed", removal)), new FindOptions(), new UpdateOptions().setReturningNewDocument(false));
  }

  /** Gives a held post the visibility it was published with; the post as it is now, or null when it was not held. */
  Future<JsonObject> release(long id, String visibility) {
    return mongo.findOneAndUpdateWithOptions(POSTS, new JsonObject().put("_id", id)
            .put("held", new JsonObject().put("$exists", true)),
        new JsonObject().put("$set", new JsonObject().put("vis", visibility))
            .put("$unset", new JsonObject().put("held", "")),
        new FindOptions(), new UpdateOptions().setReturningNewDocument(true));
  }

  /** Adds to counters of a post ({@code {likes: 1}} ...). */
  Future<Void> inc(long id, JsonObject inc) {
    return mongo.updateCollectionWithOptions(POSTS, new JsonObject().put("_id", id),
        new JsonObject().put("$inc", inc), new UpdateOptions()).mapEmpty();
  }

  /** The counters a post shows. */
  static final List<String> COUNTERS = List.of("likes", "comments", "reposts", "reposts_total");

  /** A post's counters as stored ({@code {likes, comments, reposts, reposts_total}}, 0 when missing). */
  static JsonObject counters(JsonObject post) {
    JsonObject out = new JsonObject();
    COUNTERS.forEach(c -> out.put(c, post.getLong(c, 0L)));
    return out;
  }

  /**
   * What a post's counters are by its records: its likes, its comments, its reposts not deleted, and all its reposts
   * ever ({@code reposts_total}: a deleted repost keeps its {@code repost_of}).
   */
  Future<JsonObject> countInteractions(long post) {
    Future<Long> likes = mongo.count(LIKES, new JsonObject().put("p", post));
    // a comment held for review is not counted until it is released
    Future<Long> comments = mongo.count(COMMENTS, new JsonObject().put("post", post).put("removed", SHOWN)
        .put("held", SHOWN));
    Future<Long> reposts = mongo.count(POSTS, new JsonObject().put("repost_of", post).put("deleted", LIVE));
    Future<Long> total = mongo.count(POSTS, new JsonObject().put("repost_of", post));
    return Future.all(likes, comments, reposts, total).map(v -> new JsonObject().put("likes", likes.result())
        .put("comments", comments.result()).put("reposts", reposts.result()).put("reposts_total", total.result()));
  }

  /**
   * Sets a post's counters to {@code counted} if they still are {@code seen} (a missing counter is seen as 0); true
   * when they were set.
   */
  Future<Boolean> setCounters(long post, JsonObject seen, JsonObject counted) {
    JsonObject filter = new JsonObject().put("_id", post);
    JsonArray each = new JsonArray();
    for (String c : COUNTERS) {
      long value = seen.getLong(c, 0L);
      each.add(value != 0 ? new JsonObject().put(c, value) : new JsonObject().put("$or", new JsonArray()
          .add(new JsonObject().put(c, 0L)).add(new JsonObject().put(c, new JsonObject().put("$exists", false)))));
    }
    filter.put("$and", each);
    return mongo.updateCollection(POSTS, filter, new JsonObject().put("$set", counted))
        .map(r -> r != null && r.getDocMatched() > 0);
  }

  /**
   * The author counters of these users from the records, keyed by user id: {@code works} (their live original posts),
   * {@code likes_received} (the sum of those posts' like counters, themselves recounted by {@link CounterRecount}) and
   * {@code likes_given} (their like records). Users with none are absent.
   */
  Future<Map<Long, JsonObject>> authorCounts(Collection<Long> users) {
    JsonArray ids = new JsonArray(new ArrayList<>(users));
    JsonArray works = new JsonArray()
        .add(new JsonObject().put("$match", new JsonObject().put("author", new JsonObject().put("$in", ids))
            .put("repost_of", 0L).put("deleted", LIVE)))
        .add(new JsonObject().put("$group", new JsonObject().put("_id", "$author")
            .put("works", new JsonObject().put("$sum", 1))
            .put("likes_received", new JsonObject().put("$sum", "$likes"))));
    JsonArray given = new JsonArray()
        .add(new JsonObject().put("$match", new JsonObject().put("u", new JsonObject().put("$in", ids))))
        .add(new JsonObject().put("$group", new JsonObject().put("_id", "$u")
            .put("likes_given", new JsonObject().put("$sum", 1))));
    Future<List<JsonObject>> byAuthor = aggregate(POSTS, works);
    Future<List<JsonObject>> byLiker = aggregate(LIKES, given);
    return Future.all(byAuthor, byLiker).map(v -> {
      Map<Long, JsonObject> out = new HashMap<>();
      for (JsonObject row : byAuthor.result()) {
        out.computeIfAbsent(row.getLong("_id"), k -> new JsonObject()).put("works", row.getLong("works"))
            .put("likes_received", row.getLong("likes_received"));
      }
      for (JsonObject row : byLiker.result()) {
        out.computeIfAbsent(row.getLong("_id"), k -> new JsonObject()).put("likes_given", row.getLong("likes_given"));
      }
      return out;
    });
  }

  private Future<List<JsonObject>> aggregate(String collection, JsonArray pipeline) {
    List<JsonObject> out = new ArrayList<>();
    io.vertx.core.Promise<List<JsonObject>> done = io.vertx.core.Promise.promise();
    mongo.aggregate(collection, pipeline).handler(out::add).exceptionHandler(done::tryFail)
        .endHandler(v -> done.tryComplete(out));
    return done.future();
  }

  // ---------------------------------------------------------------- comments

  Future<Void> insertComment(JsonObject comment) {
    return mongo.insert(COMMENTS, comment).mapEmpty();
  }

  Future<JsonObject> findComment(long id) {
    return mongo.findOne(COMMENTS, new JsonObject().put("_id", id), null);
  }

  /** Takes the hold off a comment; the comment as it is now, or null when it was not held (or is removed). */
  Future<JsonObject> releaseComment(long id) {
    return mongo.findOneAndUpdateWithOptions(COMMENTS, new JsonObject().put("_id", id).put("removed", SHOWN)
            .put("held", new JsonObject().put("$exists", true)),
        new JsonObject().put("$unset", new JsonObject().put("held", "")), new FindOptions(),
        new UpdateOptions().setReturningNewDocument(true));
  }

  /** Removes a comment; true when this call removed it. */
  Future<Boolean> removeComment(long id) {
    return mongo.removeDocument(COMMENTS, new JsonObject().put("_id", id))
        .map(r -> r != null && r.getRemovedCount() > 0);
  }

  /**
   * Marks a shown comment removed by a moderator and its replies' parent as removed; the comment as it was, or null
   * when it was removed already.
   */
  Future<JsonObject> markCommentRemoved(long id, JsonObject removal) {
    return mongo.findOneAndUpdateWithOptions(COMMENTS, new JsonObject().put("_id", id).put("removed", SHOWN),
            new JsonObject().put("$set", new JsonObject().put("removed", removal)), new FindOptions(),
            new UpdateOptions().setReturningNewDocument(false))
        .compose(before -> before == null ? Future.succeededFuture((JsonObject) null)
            : mongo.updateCollectionWithOptions(COMMENTS, new JsonObject().put("reply_to", id),
                new JsonObject().put("$set", new JsonObject().put("reply_to_removed", true)),
                new UpdateOptions().setMulti(true)).map(before));
  }

  /** Live comments of a post (not removed), newest first. */
  Future<List<JsonObject>> comments(long post, long before, long after, int limit) {
    return mongo.findWithOptions(COMMENTS,
        idRange(new JsonObject().put("post", post).put("removed", SHOWN), before, after),
        new FindOptions().setSort(NEWEST).setLimit(limit));
  }

  // ---------------------------------------------------------------- likes

  /** Records a like; true when it is new. */
  Future<Boolean> like(long likeId, long post, long user, long author) {
    return mongo.insert(LIKES, new JsonObject().put("_id", likeId).put("p", post).put("u", user).put("a", author))
        .map(id -> true)
        .recover(e -> MongoErrors.isDuplicateKey(e) ? Future.succeededFuture(false) : Future.failedFuture(e));
  }

  /** Removes a like; true when it existed. */
  Future<Boolean> unlike(long post, long user) {
    return mongo.removeDocument(LIKES, new JsonObject().put("p", post).put("u", user))
        .map(r -> r != null && r.getRemovedCount() > 0);
  }

  /** Likes of a post, newest first: {@code {_id, p, u}}. */
  Future<List<JsonObject>> likers(long post, long before, int limit) {
    return mongo.findWithOptions(LIKES, idRange(new JsonObject().put("p", post), before, 0),
        new FindOptions().setSort(NEWEST).setLimit(limit));
  }

  /** Likes by a user, newest first. */
  Future<List<JsonObject>> likesBy(long user, long before, int limit) {
    return mongo.findWithOptions(LIKES, idRange(new JsonObject().put("u", user), before, 0),
        new FindOptions().setSort(NEWEST).setLimit(limit));
  }

  /** Which of the posts {@code user} likes. */
  Future<Set<Long>> likedAmong(long user, Collection<Long> posts) {
    if (posts.isEmpty() || user == 0) {
      return Future.succeededFuture(Set.of());
    }
    JsonObject query = new JsonObject().put("u", user)
        .put("p", new JsonObject().put("$in", new JsonArray(List.copyOf(posts))));
    return mongo.findWithOptions(LIKES, query, new FindOptions().setFields(new JsonObject().put("p", 1)))
        .map(list -> {
          Set<Long> out = new HashSet<>();
          list.forEach(l -> out.add(l.getLong("p")));
          return out;
        });
  }

  /** Removes the comments and likes of a deleted post. */
  Future<Void> purgeInteractions(long post) {
    return mongo.removeDocuments(COMMENTS, new JsonObject().put("post", post))
        .compose(r -> mongo.removeDocuments(LIKES, new JsonObject().put("p", post))).mapEmpty();
  }

  static List<Long> ids(List<JsonObject> docs) {
    List<Long> out = new ArrayList<>(docs.size());
    docs.forEach(d -> out.add(d.getLong("_id")));
    return out;
  }
}
