package io.kith.accounts.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The {@value #COLLECTION} collection: the live one-time code of each account and purpose ({@code _id} =
 * {@code <user>:<purpose>}, purpose {@code email}, {@code phone} or {@code reset}), with {@code user, purpose, target}
 * (where it was sent), {@code code_hash}, {@code token_hash} (the link token, verification only), {@code expires}
 * (ms) and {@code attempts} (wrong codes so far). Codes and tokens are stored only as SHA-256 hashes; a new code of a
 * purpose replaces the old one, and a code is deleted when used, when its attempts run out, or when its target is
 * verified by someone else. Expired documents are deleted when next read (no TTL index: see ARCHITECTURE, Storage).
 */
final class CodeStore {

  static final String COLLECTION = "account_codes";

  private final MongoClient mongo;
  private final SecureRandom random = new SecureRandom();

  CodeStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("token_hash", 1),
            new IndexOptions().name("token_hash").sparse(true))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("target", 1),
            new IndexOptions().name("target")));
  }

  static String id(long user, String purpose) {
    return user + ":" + purpose;
  }

  /** A fresh six-digit code. */
  String newCode() {
    return String.format("%06d", random.nextInt(1_000_000));
  }

  /** A fresh link token (256 random bits, URL-safe). */
  String newToken() {
    byte[] bytes = new byte[32];
    random.nextBytes(bytes);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
  }

  /** The stored hash of a code or token of the document {@code id}: salted with the id, so equal codes differ. */
  static String hash(String id, String secret) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-256").digest((id + ":" + secret).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(digest);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Stores the live code of {@code user}'s {@code purpose}, replacing any earlier one. */
  Future<Void> put(long user, String purpose, String target, String code, String token, long expires) {
    String id = id(user, purpose);
    JsonObject doc = new JsonObject().put("_id", id).put("user", user).put("purpose", purpose).put("target", target)
        .put("code_hash", hash(id, code)).put("expires", expires).put("attempts", 0);
    if (token != null) {
      doc.put("token_hash", hash("token", token));
    }
    return mongo.findOneAndReplaceWithOptions(COLLECTION, new JsonObject().put("_id", id), doc, new FindOptions(),
        new UpdateOptions().setUpsert(true)).mapEmpty();
  }

  /** The live code document, or null. */
  Future<JsonObject> get(long user, String purpose) {
    return mongo.findOne(COLLECTION, new JsonObject().put("_id", id(user, purpose)), null);
  }

  /**
   * Deletes the code only if it is {@code code} (single use: of two concurrent uses one wins); completes with the
   * deleted document, or null when the code did not match.
   */
  Future<JsonObject> take(long user, String purpose, String code) {
    String id = id(user, purpose);
    return mongo.findOneAndDelete(COLLECTION, new JsonObject().put("_id", id).put("code_hash", hash(id, code)));
  }

  /** Deletes and returns the code document the link {@code token} belongs to, or null. */
  Future<JsonObject> takeByToken(String token) {
    return mongo.findOneAndDelete(COLLECTION, new JsonObject().put("token_hash", hash("token", token)));
  }

  /** Counts a wrong code; completes with the attempts so far (0 when the code is gone). */
  Future<Integer> wrong(long user, String purpose) {
    return mongo.findOneAndUpdateWithOptions(COLLECTION, new JsonObject().put("_id", id(user, purpose)),
            new JsonObject().put("$inc", new JsonObject().put("attempts", 1)), new FindOptions(),
            new UpdateOptions().setReturningNewDocument(true))
        .map(doc -> doc == null ? 0 : doc.getInteger("attempts", 0));
  }

  /** Deletes a code. */
  Future<Void> delete(long user, String purpose) {
    return mongo.removeDocument(COLLECTION, new JsonObject().put("_id", id(user, purpose))).mapEmpty();
  }

  /** Deletes the verification codes of other accounts sent to {@code target} (released when its owner verified it). */
  Future<Void> deleteOthers(String target, String purpose, long owner) {
    return mongo.removeDocuments(COLLECTION, new JsonObject().put("target", target).put("purpose", purpose)
        .put("user", new JsonObject().put("$ne", owner))).mapEmpty();
  }
}
