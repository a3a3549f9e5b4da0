package io.kith.relations.service;

import io.kith.platform.id.IdGenerator;
import io.kith.platform.store.MongoErrors;
import io.kith.relations.api.RelationsErrors;
import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.BulkOperation;
import io.vertx.ext.mongo.BulkWriteOptions;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Friend groups: {@value #GROUPS} ({@code {_id, owner, name, name_lc, size, created}}, unique on owner + name_lc) and
 * {@value #MEMBERS} ({@code {_id: <Kith id>, g, owner, member, at}}, unique on g + member). {@code size} is kept with
 * {@code $inc} from the number of members actually inserted or removed.
 */
final class GroupStore {

  static final String GROUPS = "friend_groups";
  static final String MEMBERS = "friend_group_members";

  private final MongoClient mongo;
  private final IdGenerator ids;

  GroupStore(MongoClient mongo, IdGenerator ids) {
    this.mongo = mongo;
    this.ids = ids;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(GROUPS, new JsonObject().put("owner", 1).put("name_lc", 1),
            new IndexOptions().name("owner_name_unique").unique(true))
        .compose(v -> mongo.createIndexWithOptions(MEMBERS, new JsonObject().put("g", 1).put("member", 1),
            new IndexOptions().name("group_member_unique").unique(true)))
        .compose(v -> mongo.createIndexWithOptions(MEMBERS, new JsonObject().put("g", 1).put("_id", -1),
            new IndexOptions().name("group_newest")))
        .compose(v -> mongo.createIndexWithOptions(MEMBERS, new JsonObject().put("owner", 1).put("member", 1),
            new IndexOptions().name("owner_member")))
        .compose(v -> mongo.createIndexWithOptions(MEMBERS, new JsonObject().put("member", 1),
            new IndexOptions().name("member")));
  }

  static JsonObject view(JsonObject group) {
    return new JsonObject().put("id", group.getLong("_id")).put("name", group.getString("name"))
        .put("size", group.getLong("size", 0L)).put("created", group.getLong("created"));
  }

  Future<Long> countGroups(long owner) {
    return mongo.count(GROUPS, new JsonObject().put("owner", owner));
  }

  Future<JsonObject> create(long owner, String name) {
    JsonObject doc = new JsonObject().put("_id", ids.next()).put("owner", owner).put("name", name)
        .put("name_lc", name.toLowerCase(Locale.ROOT)).put("size", 0L).put("created", System.currentTimeMillis());
    return mongo.insert(GROUPS, doc).map(x -> doc)
        .recover(e -> MongoErrors.isDuplicateKey(e)
            ? Failures.failField(RelationsErrors.CIRCLE_NAME_TAKEN, "name", "you already have a circle with this name")
            : Future.failedFuture(e));
  }

  /** The actor's group, or a 404 (another user's group is as unknown as a missing one). */
  Future<JsonObject> owned(long owner, long groupId) {
    return mongo.findOne(GROUPS, new JsonObject().put("_id", groupId).put("owner", owner), null)
        .compose(g -> g != null ? Future.succeededFuture(g)
            : Failures.fail(RelationsErrors.CIRCLE_NOT_FOUND, "no such circle"));
  }

  Future<JsonObject> rename(long owner, long groupId, String name) {
    JsonObject set = new JsonObject().put("name", name).put("name_lc", name.toLowerCase(Locale.ROOT));
    return mongo.findOneAndUpdateWithOptions(GROUPS, new JsonObject().put("_id", groupId).put("owner", owner),
            new JsonObject().put("$set", set), new FindOptions(), new UpdateOptions().setReturningNewDocument(true))
        .recover(e -> MongoErrors.isDuplicateKey(e)
            ? Failures.failField(RelationsErrors.CIRCLE_NAME_TAKEN, "name", "you already have a circle with this name")
            : Future.failedFuture(e))
        .compose(g -> g != null ? Future.succeededFuture(g)
            : Failures.fail(RelationsErrors.CIRCLE_NOT_FOUND, "no such circle"));
  }

  Future<Void> delete(long owner, long groupId) {
    return mongo.removeDocument(GROUPS, new JsonObject().put("_id", groupId).put("owner", owner)).compose(r -> {
      if (r == null || r.getRemovedCount() == 0) {
        return Failures.fail(RelationsErrors.CIRCLE_NOT_FOUND, "no such circle");
      }
      return mongo.removeDocuments(MEMBERS, new JsonObject().put("g", groupId)).mapEmpty();
    });
  }

  Future<List<JsonObject>> list(long owner) {
    return mongo.findWithOptions(GROUPS, new JsonObject().put("owner", owner),
        new FindOptions().setSort(new JsonObject().put("created", 1)).setLimit(FriendGroups.MAX_GROUPS));
  }

  /** Adds members; returns how many were new. */
  Future<Integer> add(long owner, long groupId, Collection<Long> members) {
    List<BulkOperation> ops = new ArrayList<>();
    long now = System.currentTimeMillis();
    for (Long m : members) {
      ops.add(BulkOperation.createInsert(new JsonObject().put("_id", ids.next()).put("g", groupId)
          .put("owner", owner).put("member", m).put("at", now)));
    }
    return insertIgnoringDuplicates(ops).compose(added -> added == 0 ? Future.succeededFuture(0)
        : incSize(groupId, added).map(x -> added));
  }

  // one by one, so that a duplicate (already a member) only skips that member
  private Future<Integer> insertIgnoringDuplicates(List<BulkOperation> ops) {
    List<Future<Integer>> each = new ArrayList<>();
    for (BulkOperation op : ops) {
      each.add(mongo.insert(MEMBERS, op.getDocument()).map(x -> 1)
          .recover(e -> MongoErrors.isDuplicateKey(e) ? Future.succeededFuture(0) : Future.failedFuture(e)));
    }
    return Future.all(each).map(all -> {
      int n = 0;
      for (int i = 0; i < all.size(); i++) {
        n += all.<Integer>resultAt(i);
      }
      return n;
    });
  }

  /** Removes members; returns how many were there. */
  Future<Integer> remove(long groupId, Collection<Long> members) {
    return mongo.removeDocuments(MEMBERS, new JsonObject().put("g", groupId)
            .put("member", new JsonObject().put("$in", new JsonArray(List.copyOf(members)))))
        .compose(r -> {
          int removed = r == null ? 0 : (int) r.getRemovedCount();
          return removed == 0 ? Future.succeededFuture(0) : incSize(groupId, -removed).map(x -> removed);
        });
  }

  /** Removes {@code member} from every group of {@code owner} (a friendship ended). */
  Future<Void> removeEverywhere(long owner, long member) {
    return mongo.find(MEMBERS, new JsonObject().put("owner", owner).put("member", member)).compose(rows -> {
      List<Future<Integer>> each = new ArrayList<>();
      for (JsonObject row : rows) {
        each.add(remove(row.getLong("g"), List.of(member)));
      }
      return Future.all(each).mapEmpty();
    });
  }

  private Future<Void> incSize(long groupId, int delta) {
    return mongo.updateCollection(GROUPS, new JsonObject().put("_id", groupId),
        new JsonObject().put("$inc", new JsonObject().put("size", delta))).mapEmpty();
  }

  Future<List<JsonObject>> members(long groupId, Long before, int limit) {
    JsonObject query = new JsonObject().put("g", groupId);
    if (before != null) {
      query.put("_id", new JsonObject().put("$lt", before));
    }
    return mongo.findWithOptions(MEMBERS, query, new FindOptions().setSort(new JsonObject().put("_id", -1))
        .setLimit(limit));
  }

  /** The groups of {@code owner} after group {@code after} (null: from the first), oldest first: export pages. */
  Future<List<JsonObject>> ownedAfter(long owner, Long after, int limit) {
    JsonObject query = new JsonObject().put("owner", owner);
    return mongo.findWithOptions(GROUPS, after == null ? query : query.put("_id", new JsonObject().put("$gt", after)),
        new FindOptions().setSort(new JsonObject().put("_id", 1)).setLimit(limit));
  }

  /** Every member id of a group, in the order they were added (a group holds at most 5,000). */
  Future<List<Long>> memberIds(long groupId) {
    return mongo.findWithOptions(MEMBERS, new JsonObject().put("g", groupId), new FindOptions()
            .setSort(new JsonObject().put("_id", 1)).setFields(new JsonObject().put("member", 1)))
        .map(rows -> rows.stream().map(r -> r.getLong("member")).toList());
  }

  /** Deletes every group of {@code owner} with its members (members first); returns how many groups there were. */
  Future<Long> deleteOwned(long owner) {
    return mongo.removeDocuments(MEMBERS, new JsonObject().put("owner", owner))
        .compose(r -> mongo.removeDocuments(GROUPS, new JsonObject().put("owner", owner)))
        .map(r -> r == null ? 0L : r.getRemovedCount());
  }

  /**
   * Sets a group's size to a recount of its members other than {@code excluded} (who is about to leave it): run
   * before the delete, so the size stays exact whichever write a crash interrupts.
   */
  Future<Void> recountSize(long groupId, long excluded) {
    return mongo.count(MEMBERS, new JsonObject().put("g", groupId).put("member", new JsonObject().put("$ne", excluded)))
        .compose(n -> mongo.updateCollection(GROUPS, new JsonObject().put("_id", groupId),
            new JsonObject().put("$set", new JsonObject().put("size", n))))
        .mapEmpty();
  }

  /** Deletes the membership rows with these ids; returns how many there were. */
  Future<Long> deleteRows(List<Long> ids) {
    return mongo.removeDocuments(MEMBERS, new JsonObject().put("_id", new JsonObject().put("$in", new JsonArray(ids))))
        .map(r -> r == null ? 0L : r.getRemovedCount());
  }

  /** Groups of {@code owner} that hold each of {@code members}. */
  Future<List<JsonObject>> membershipsOf(long owner, Collection<Long> members) {
    if (members.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return mongo.find(MEMBERS, new JsonObject().put("owner", owner)
        .put("member", new JsonObject().put("$in", new JsonArray(List.copyOf(members)))));
  }

  /** Groups (of any owner) that hold {@code member}, at most {@code max}. */
  Future<List<JsonObject>> holding(long member, int max) {
    return mongo.findWithOptions(MEMBERS, new JsonObject().put("member", member), new FindOptions().setLimit(max));
  }

  /** The groups of these owners that hold {@code member} (at most 100 per owner). */
  Future<List<JsonObject>> holdingBy(long member, java.util.Collection<Long> owners) {
    return mongo.find(MEMBERS, new JsonObject().put("member", member)
        .put("owner", new JsonObject().put("$in", new io.vertx.core.json.JsonArray(List.copyOf(owners)))));
  }
}
