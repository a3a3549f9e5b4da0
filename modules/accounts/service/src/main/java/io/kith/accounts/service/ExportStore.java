package io.kith.accounts.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.List;

/**
 * The {@value #COLLECTION} collection, one document per export: {@code _id} (export id), {@code user},
 * {@code state} ({@code pending, running, ready, failed, expired}), {@code created_at}, {@code claim} and
 * {@code claimed_at} (the node building it and its last sign of life), {@code ready_at}, {@code expires_at},
 * {@code size}, {@code file} (the archive's name in the export directory), {@code reason} (why it failed), and
 * {@code active} (the user id, only while pending or running). The unique sparse index on {@code active} is what
 * allows one export at a time per user, also between two requests racing on two nodes.
 */
final class ExportStore {

  static final String COLLECTION = "account_exports";
  static final String PENDING = "pending";
  static final String RUNNING = "running";
  static final String READY = "ready";
  static final String FAILED = "failed";
  static final String EXPIRED = "expired";
  /** Most exports a list shows. */
  static final int LIST_LIMIT = 20;

  private final MongoClient mongo;

  ExportStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("active", 1),
            new IndexOptions().name("active_unique").unique(true).sparse(true))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("user", 1).put("_id", -1),
            new IndexOptions().name("user_newest")))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("state", 1),
            new IndexOptions().name("state")));
  }

  /** Inserts a pending export; fails with a duplicate key (11000) while the user has one pending or running. */
  Future<JsonObject> insert(long id, long user, long now) {
    JsonObject doc = new JsonObject().put("_id", id).put("user", user).put("state", PENDING).put("created_at", now)
        .put("active", user);
    return mongo.insert(COLLECTION, doc).map(doc);
  }

  /** The user's pending or running export, or null. */
  Future<JsonObject> active(long user) {
    return mongo.findOne(COLLECTION, new JsonObject().put("active", user), null);
  }

  /** The export {@code id} if it is {@code user}'s, else null. */
  Future<JsonObject> find(long user, long id) {
    return mongo.findOne(COLLECTION, new JsonObject().put("_id", id).put("user", user), null);
  }

  /** The user's newest exports. */
  Future<List<JsonObject>> list(long user) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("user", user),
        new FindOptions().setSort(new JsonObject().put("_id", -1)).setLimit(LIST_LIMIT));
  }

  /**
   * Claims one export to build: a pending one, or a running one whose claim was not renewed within the lease (its
   * node died; the job restarts from scratch). Null when there is none.
   */
  Future<JsonObject> claim(String claim, long now, long leaseMillis) {
    JsonObject pending = new JsonObject().put("state", PENDING);
    JsonObject lapsed = new JsonObject().put("state", RUNNING)
        .put("claimed_at", new JsonObject().put("$lt", now - leaseMillis));
    return mongo.findOneAndUpdateWithOptions(COLLECTION, new JsonObject().put("$or", new JsonArray().add(pending)
            .add(lapsed)),
        new JsonObject().put("$set", new JsonObject().put("state", RUNNING).put("claim", claim)
            .put("claimed_at", now)).put("$inc", new JsonObject().put("attempts", 1)),
        new FindOptions(), new UpdateOptions().setReturningNewDocument(true));
  }

  /** Renews this node's claim; completes with false when another node took the job over. */
  Future<Boolean> renew(long id, String claim, long now) {
    return mongo.updateCollection(COLLECTION, mine(id, claim),
            new JsonObject().put("$set", new JsonObject().put("claimed_at", now)))
        .map(r -> r != null && r.getDocMatched() == 1);
  }

  /** Marks the job ready (if still this node's); completes with false when the claim was lost. */
  Future<Boolean> ready(long id, String claim, long now, long expiresAt, long size, String file) {
    return end(id, claim, new JsonObject().put("state", READY).put("ready_at", now).put("expires_at", expiresAt)
        .put("size", size).put("file", file));
  }

  /** Marks the job failed with its reason (if still this node's). */
  Future<Boolean> failed(long id, String claim, String reason) {
    return end(id, claim, new JsonObject().put("state", FAILED).put("reason", reason));
  }

  private Future<Boolean> end(long id, String claim, JsonObject set) {
    return mongo.updateCollection(COLLECTION, mine(id, claim), new JsonObject().put("$set", set)
            .put("$unset", new JsonObject().put("active", "").put("claim", "")))
        .map(r -> r != null && r.getDocMatched() == 1);
  }

  private static JsonObject mine(long id, String claim) {
    return new JsonObject().put("_id", id).put("state", RUNNING).put("claim", claim);
  }

  /** Ready exports past their expiry, at most {@code limit}. */
  Future<List<JsonObject>> due(long now, int limit) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("state", READY)
        .put("expires_at", new JsonObject().put("$lte", now)), new FindOptions().setLimit(limit));
  }

  /** Marks a ready export expired (its archive deleted). */
  Future<Void> expired(long id) {
    return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", id).put("state", READY),
        new JsonObject().put("$set", new JsonObject().put("state", EXPIRED))
            .put("$unset", new JsonObject().put("file", ""))).mapEmpty();
  }

  /** Every export of a user (an erasure). */
  Future<List<JsonObject>> all(long user) {
    return mongo.find(COLLECTION, new JsonObject().put("user", user));
  }

  /** Deletes every export document of a user; completes with how many there were. */
  Future<Long> removeAll(long user) {
    return mongo.removeDocuments(COLLECTION, new JsonObject().put("user", user))
        .map(r -> r == null ? 0L : r.getRemovedCount());
  }

  /** The status a user sees: {@code {export_id, state, created_at, ready_at?, expires_at?, size?, reason?}}. */
  static JsonObject view(JsonObject doc, long now) {
    String state = doc.getString("state");
    Long expires = doc.getLong("expires_at");
    if (READY.equals(state) && expires != null && expires <= now) {
      state = EXPIRED; // the sweeper has not come by yet: the archive is no longer offered
    }
    JsonObject out = new JsonObject().put("export_id", doc.getLong("_id")).put("state", state)
        .put("created_at", doc.getLong("created_at"));
    for (String f : List.of("ready_at", "expires_at", "size", "reason")) {
      if (doc.getValue(f) != null) {
        out.put(f, doc.getValue(f));
      }
    }
    return out;
  }
}
