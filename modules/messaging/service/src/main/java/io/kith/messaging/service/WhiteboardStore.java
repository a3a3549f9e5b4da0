package io.kith.messaging.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.List;

/**
 * Boards in MongoDB ({@value #BOARDS}): {@code {_id, kind: "group" | "adhoc", group? (group boards), owner,
 * members? (ad-hoc boards: ids, the owner first), title, created, cleared_at?, cleared_by?, v (bumped by every
 * change of members)}}. Strokes are not here: they are ephemeral and live in Redis ({@link WhiteboardStrokes}).
 */
final class WhiteboardStore {

  static final String BOARDS = "messaging_boards";

  private final MongoClient mongo;

  WhiteboardStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(BOARDS, new JsonObject().put("members", 1).put("_id", -1),
            new IndexOptions().name("members_recent"))
        .compose(v -> mongo.createIndexWithOptions(BOARDS, new JsonObject().put("group", 1).put("_id", -1),
            new IndexOptions().name("group_recent")))
        .compose(v -> mongo.createIndexWithOptions(BOARDS, new JsonObject().put("owner", 1),
            new IndexOptions().name("owner")));
  }

  Future<Void> insert(JsonObject doc) {
    return mongo.insert(BOARDS, doc).mapEmpty();
  }

  Future<JsonObject> byId(long id) {
    return mongo.findOne(BOARDS, new JsonObject().put("_id", id), null);
  }

  Future<Long> countOwned(long owner) {
    return mongo.count(BOARDS, new JsonObject().put("owner", owner));
  }

  /**
   * A page of the ad-hoc boards {@code user} is a member of and of the boards they own (so that the group boards
   * they made, even of a group they lost, can be found and deleted), newest first, older than {@code before}.
   */
  Future<List<JsonObject>> ofMember(long user, Long before, int limit) {
    return page(new JsonObject().put("$or", new JsonArray().add(new JsonObject().put("members", user))
        .add(new JsonObject().put("owner", user))), before, limit);
  }

  /** A page of a group's boards, newest first, older than {@code before}. */
  Future<List<JsonObject>> ofGroup(long group, Long before, int limit) {
    return page(new JsonObject().put("group", group), before, limit);
  }

  private Future<List<JsonObject>> page(JsonObject query, Long before, int limit) {
    if (before != null) {
      query.put("_id", new JsonObject().put("$lt", before));
    }
    return mongo.findWithOptions(BOARDS, query, new FindOptions().setSort(new JsonObject().put("_id", -1))
        .setLimit(limit));
  }

  /** Boards of a group. */
  Future<Long> countGroup(long group) {
    return mongo.count(BOARDS, new JsonObject().put("group", group));
  }

  /** The ids of a group's boards, the newest {@code limit}. */
  Future<List<Long>> idsOfGroup(long group, int limit) {
    return mongo.findWithOptions(BOARDS, new JsonObject().put("group", group),
            new FindOptions().setFields(new JsonObject().put("_id", 1)).setSort(new JsonObject().put("_id", -1))
                .setLimit(limit))
        .map(docs -> docs.stream().map(d -> d.getLong("_id")).toList());
  }

  /**
   * Replaces an ad-hoc board's members if the board is still at version {@code v} (nobody changed them since it was
   * read); answers whether it was.
   */
  Future<Boolean> replaceMembers(long id, long v, List<Long> members) {
    return mongo.updateCollection(BOARDS, new JsonObject().put("_id", id).put("kind", "adhoc").put("v", v),
            new JsonObject().put("$set", new JsonObject().put("members", new JsonArray(members)))
                .put("$inc", new JsonObject().put("v", 1L)))
        .map(r -> r.getDocMatched() > 0);
  }

  /** Removes a member of an ad-hoc board (never its owner); answers the board after, or null when nothing changed. */
  Future<JsonObject> pullMember(long id, long user) {
    return mongo.findOneAndUpdateWithOptions(BOARDS,
        new JsonObject().put("_id", id).put("kind", "adhoc").put("members", user)
            .put("owner", new JsonObject().put("$ne", user)),
        new JsonObject().put("$pull", new JsonObject().put("members", user)).put("$inc", new JsonObject().put("v", 1L)),
        new FindOptions(), new UpdateOptions().setReturningNewDocument(true));
  }

  /** Records the last clear of a board. */
  Future<Void> cleared(long id, long at, long by) {
    return mongo.updateCollection(BOARDS, new JsonObject().put("_id", id),
        new JsonObject().put("$set", new JsonObject().put("cleared_at", at).put("cleared_by", by))).mapEmpty();
  }

  /** Deletes these boards of a group (whoever owns them); answers how many went. */
  Future<Long> deleteOfGroup(long group, List<Long> ids) {
    return mongo.removeDocuments(BOARDS, new JsonObject().put("group", group)
            .put("_id", new JsonObject().put("$in", new JsonArray(ids))))
        .map(r -> r == null ? 0L : r.getRemovedCount());
  }

  /** Deletes a board of {@code owner}; answers whether it did. */
  Future<Boolean> delete(long id, long owner) {
    return mongo.removeDocument(BOARDS, new JsonObject().put("_id", id).put("owner", owner))
        .map(r -> r != null && r.getRemovedCount() > 0);
  }
}
