package io.kith.accounts.service;

import io.kith.platform.token.Sessions;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Device tokens: the long-lived secret a successful login hands to the device that made it, so that the device can
 * later log in under its own failed-login throttle instead of the account-wide one (an attacker guessing the password
 * then cannot lock the owner out of devices that logged in before).
 *
 * <p>The {@value #COLLECTION} collection holds one document per token: {@code _id} = SHA-256 of the token (the token
 * itself is never stored), {@code user}, {@code created}, {@code last_used}. A user keeps the {@value #MAX_PER_USER}
 * newest; logging out everywhere, a password change and a deletion forget them all, with their failed-login counters
 * (a forgotten device's counter would only name the account in Redis until its window ends). Kept apart from the
 * account document so that no profile read or cache ever carries them.
 */
final class KnownDevices {

  static final String COLLECTION = "account_devices";
  /** Most device tokens a user keeps; the oldest beyond are forgotten. */
  static final int MAX_PER_USER = 20;
  /** The form of every token issued: 32 random bytes, base64url without padding. Anything else is ignored. */
  private static final Pattern TOKEN = Pattern.compile("[A-Za-z0-9_-]{43}");

  private final MongoClient mongo;
  private final Redis redis;
  private final SecureRandom random = new SecureRandom();

  KnownDevices(MongoClient mongo, Redis redis) {
    this.mongo = mongo;
    this.redis = redis;
  }

  /** The failed-login counter of one known device of an account, apart from the account-wide one. */
  static String throttleKey(long user, String hash) {
    return "rl:accounts:login-fail:dev:" + user + ":" + hash;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("user", 1).put("created", -1),
        new IndexOptions().name("user_newest")).mapEmpty();
  }

  /** The hash of {@code token} when it has the form of an issued token, else null (a value to ignore). */
  static String hashOf(String token) {
    return token != null && TOKEN.matcher(token).matches() ? Sessions.sha256(token) : null;
  }

  /**
   * Whether the token hashed {@code hash} belongs to {@code user}. Called with user 0 for an identifier that names no
   * account, so that the answer takes the same path whether or not the account exists.
   */
  Future<Boolean> belongs(long user, String hash) {
    return mongo.findOne(COLLECTION, new JsonObject().put("_id", hash).put("user", user), new JsonObject().put("_id", 1))
        .map(doc -> doc != null);
  }

  /** Records that the known device {@code hash} of {@code user} logged in now. */
  Future<Void> used(long user, String hash) {
    return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", hash).put("user", user),
        new JsonObject().put("$set", new JsonObject().put("last_used", System.currentTimeMillis()))).mapEmpty();
  }

  /** Issues a new device token for {@code user}, forgetting the oldest beyond {@value #MAX_PER_USER}. */
  Future<String> issue(long user) {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    String token = Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    long now = System.currentTimeMillis();
    return mongo.insert(COLLECTION, new JsonObject().put("_id", Sessions.sha256(token)).put("user", user)
            .put("created", now).put("last_used", now))
        .compose(id -> trim(user))
        .map(token);
  }

  /** Forgets the user's tokens beyond the newest {@value #MAX_PER_USER}. */
  private Future<Void> trim(long user) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("user", user), new FindOptions()
            .setFields(new JsonObject().put("_id", 1)).setSort(new JsonObject().put("created", -1))
            .setSkip(MAX_PER_USER))
        .compose(old -> {
          if (old.isEmpty()) {
            return Future.succeededFuture();
          }
          JsonArray ids = new JsonArray();
          old.forEach(doc -> ids.add(doc.getValue("_id")));
          return mongo.removeDocuments(COLLECTION, new JsonObject().put("user", user)
              .put("_id", new JsonObject().put("$in", ids))).compose(r -> dropThrottles(user, old));
        });
  }

  /** Forgets every device token of {@code user}: none of them gets its own throttle any more. */
  Future<Void> forget(long user) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("user", user),
            new FindOptions().setFields(new JsonObject().put("_id", 1)))
        .compose(found -> mongo.removeDocuments(COLLECTION, new JsonObject().put("user", user))
            .compose(r -> dropThrottles(user, found)));
  }

  /** Deletes the failed-login counters of forgotten devices, one command each (their keys share no slot). */
  private Future<Void> dropThrottles(long user, List<JsonObject> forgotten) {
    if (forgotten.isEmpty()) {
      return Future.succeededFuture();
    }
    List<Request> dels = new ArrayList<>();
    forgotten.forEach(doc -> dels.add(Request.cmd(Command.DEL).arg(throttleKey(user, doc.getString("_id")))));
    return redis.batch(dels).mapEmpty();
  }

  /** The user's device tokens as {@code {created, last_used}}, newest first (never the token or its hash). */
  Future<java.util.List<JsonObject>> list(long user) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put("user", user), new FindOptions()
            .setSort(new JsonObject().put("created", -1)).setLimit(MAX_PER_USER)
            .setFields(new JsonObject().put("_id", 0).put("created", 1).put("last_used", 1)));
  }
}
