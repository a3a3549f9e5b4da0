package io.kith.moderation.service;

import io.kith.moderation.api.Moderation;
import io.kith.platform.error.Failures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.util.List;

/**
 * Operator roles, in MongoDB collection {@value #COLLECTION} ({@code {_id: "<user>", role, set_by, set_at}}; a user with
 * no document is a plain user). Read on every operator call, so a demoted moderator loses the queue at once.
 */
final class Roles {

  static final String COLLECTION = "moderation_roles";

  private final MongoClient mongo;

  Roles(MongoClient mongo) {
    this.mongo = mongo;
  }

  /** Makes each of {@code admins} an admin (the configured first admins; set by the system, user 0). */
  Future<Void> bootstrap(List<Long> admins) {
    Future<Void> all = Future.succeededFuture();
    for (long admin : admins) {
      all = all.compose(v -> set(admin, Moderation.ADMIN, 0));
    }
    return all;
  }

  // the user's id as text: an upsert through the MongoDB client stores a numeric _id of its query as text
  private static JsonObject key(long user) {
    return new JsonObject().put("_id", Long.toString(user));
  }

  Future<String> of(long user) {
    return mongo.findOne(COLLECTION, key(user), null)
        .map(doc -> doc == null ? Moderation.USER : doc.getString("role", Moderation.USER));
  }

  Future<Void> set(long user, String role, long by) {
    if (Moderation.USER.equals(role)) {
      return mongo.removeDocument(COLLECTION, key(user)).mapEmpty();
    }
    return mongo.updateCollectionWithOptions(COLLECTION, key(user),
        new JsonObject().put("$set", new JsonObject().put("role", role).put("set_by", by)
            .put("set_at", System.currentTimeMillis())), new UpdateOptions().setUpsert(true)).mapEmpty();
  }

  /** Takes {@code user}'s role away (their account was erased); answers how many role documents went (0 or 1). */
  Future<Long> erase(long user) {
    return mongo.removeDocuments(COLLECTION, key(user)).map(r -> r == null ? 0L : r.getRemovedCount());
  }

  /** Succeeds with the actor's role when it is at least {@code least}; fails {@code role_required} otherwise. */
  Future<String> require(long actor, String least) {
    return of(actor).compose(role -> Moderation.ROLES.indexOf(role) >= Moderation.ROLES.indexOf(least)
        ? Future.succeededFuture(role)
        : Failures.fail(Moderation.ROLE_REQUIRED, "this needs the " + least + " role"));
  }
}
