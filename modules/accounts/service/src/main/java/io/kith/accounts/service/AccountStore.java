package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;
import io.vertx.serviceproxy.ServiceException;

import java.util.Collection;
import java.util.List;

/**
 * The {@value #COLLECTION} collection, the record of accounts. One document per user, {@code _id} = user id, with
 * the profile fields at top level, {@code password} (Argon2id PHC string) and lower-cased lookup keys
 * ({@code username_lc}, {@code email_lc}, {@code nickname_lc}). Uniqueness is enforced by unique indexes; a
 * duplicate-key failure is turned into a 409 naming the field.
 *
 * <p>Every write after registration raises the document's version {@code v} (absent, meaning 0, at registration)
 * with {@code $inc}, so that the profile cache can tell a newer copy from an older one.
 */
final class AccountStore {

  static final String COLLECTION = "accounts";
  private static final JsonObject NO_PASSWORD = new JsonObject().put("password", 0);
  /** The version field, raised by every write. */
  static final String VERSION = "v";
  private static final JsonObject BUMP = new JsonObject().put(VERSION, 1);

  private final MongoClient mongo;

  AccountStore(MongoClient mongo) {
    this.mongo = mongo;
  }

  Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("username_lc", 1),
            new IndexOptions().name("username_lc_unique").unique(true))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("email_lc", 1),
            new IndexOptions().name("email_lc_unique").unique(true).sparse(true)))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("phone", 1),
            new IndexOptions().name("phone_unique").unique(true).sparse(true)))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put("nickname_lc", 1).put("_id", 1),
            new IndexOptions().name("nickname_prefix")))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put(Profiles.EMAIL_PENDING, 1),
            new IndexOptions().name("email_pending").sparse(true)))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put(Profiles.PHONE_PENDING, 1),
            new IndexOptions().name("phone_pending").sparse(true)))
        .compose(v -> mongo.createIndexWithOptions(COLLECTION, new JsonObject().put(RESERVED + ".name", 1),
            new IndexOptions().name("usernames_reserved").sparse(true)));
  }

  /**
   * Usernames the account gave up and holds for a while ({@code [{name: lower-cased, until: epoch ms}]}): another
   * account's registration or change to one of them is refused as for a taken name.
   */
  static final String RESERVED = "usernames_reserved";

  /**
   * Applies a username change ({@code set}) if the account's username is still {@code currentLc}; returns the
   * updated account, or null when it changed meanwhile. A name another account holds fails with 409
   * {@code username_taken}.
   */
  Future<JsonObject> changeUsername(long id, String currentLc, JsonObject set) {
    return mongo.findOneAndUpdateWithOptions(COLLECTION, new JsonObject().put("_id", id).put("username_lc", currentLc),
            new JsonObject().put("$set", set).put("$inc", BUMP),
            new FindOptions().setFields(NO_PASSWORD), new UpdateOptions().setReturningNewDocument(true))
        .recover(e -> MongoErrors.isDuplicateKey(e) ? conflictOf(set, id) : Future.failedFuture(e));
  }

  /** Whether {@code account} holds {@code usernameLc} reserved at {@code now}. */
  static boolean reserves(JsonObject account, String usernameLc, long now) {
    JsonArray reserved = account.getJsonArray(RESERVED, new JsonArray());
    for (int i = 0; i < reserved.size(); i++) {
      JsonObject r = reserved.getJsonObject(i);
      if (usernameLc.equals(r.getString("name")) && r.getLong("until", 0L) > now) {
        return true;
      }
    }
    return false;
  }

  /**
   * Makes the account's waiting {@code channel} identifier ({@code email} or {@code phone}) its verified one, if it is
   * still {@code target}; returns the updated account, or null when it no longer waits for that value. When another
   * account verified it first the unique index refuses: 409 {@code email_taken} / {@code phone_taken}.
   */
  Future<JsonObject> verify(long id, String channel, String target) {
    boolean email = channel.equals("email");
    String pending = email ? Profiles.EMAIL_PENDING : Profiles.PHONE_PENDING;
    JsonObject set = email ? new JsonObject().put("email", target).put("email_lc", target)
        : new JsonObject().put("phone", target);
    return mongo.findOneAndUpdateWithOptions(COLLECTION, new JsonObject().put("_id", id).put(pending, target),
            new JsonObject().put("$set", set).put("$unset", new JsonObject().put(pending, "")).put("$inc", BUMP),
            new FindOptions().setFields(NO_PASSWORD), new UpdateOptions().setReturningNewDocument(true))
        .recover(e -> MongoErrors.isDuplicateKey(e) ? conflictOf(set, id) : Future.failedFuture(e));
  }

  /** Accounts other than {@code exceptId} whose {@code field} (a pending identifier) is {@code value}. */
  Future<List<JsonObject>> pendingHolders(String field, String value, long exceptId) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put(field, value)
        .put("_id", new JsonObject().put("$ne", exceptId)), new FindOptions().setFields(NO_PASSWORD).setLimit(100));
  }

  /** Removes {@code field} from the account if it still is {@code value}; returns the updated account or null. */
  Future<JsonObject> release(long id, String field, String value) {
    return mongo.findOneAndUpdateWithOptions(COLLECTION, new JsonObject().put("_id", id).put(field, value),
        new JsonObject().put("$unset", new JsonObject().put(field, "")).put("$inc", BUMP),
        new FindOptions().setFields(NO_PASSWORD), new UpdateOptions().setReturningNewDocument(true));
  }

  /** Up to two accounts (with password hashes) whose {@code field} is {@code value}: a caller wants exactly one. */
  Future<List<JsonObject>> forLoginAll(String field, String value) {
    return mongo.findWithOptions(COLLECTION, new JsonObject().put(field, value), new FindOptions().setLimit(2));
  }

  /** Inserts a new account; a clash on username, email or phone fails with the matching 409. */
  Future<Void> insert(JsonObject account) {
    return mongo.insert(COLLECTION, account)
        .<Void>mapEmpty()
        .recover(e -> MongoErrors.isDuplicateKey(e) ? conflictOf(account, null) : Future.failedFuture(e));
  }

  /** Which unique field of {@code candidate} another account already holds, as a failed future. */
  <T> Future<T> conflictOf(JsonObject candidate, Long exceptId) {
    return findConflict(candidate, exceptId).compose(conflict -> conflict != null ? Future.failedFuture(conflict)
        : Failures.fail(KithErrors.CONFLICT, "the account changed concurrently; retry"));
  }

  /** The 409 for the first unique field of {@code candidate} another account holds, or null when none. */
  Future<ServiceException> findConflict(JsonObject candidate, Long exceptId) {
    JsonArray or = new JsonArray();
    long now = System.currentTimeMillis();
    if (candidate.getString("username_lc") != null) {
      or.add(new JsonObject().put("username_lc", candidate.getString("username_lc")));
      // a name another account gave up and still holds is answered exactly as a name in use
      or.add(new JsonObject().put(RESERVED, new JsonObject().put("$elemMatch", new JsonObject()
          .put("name", candidate.getString("username_lc")).put("until", new JsonObject().put("$gt", now)))));
    }
    if (candidate.getString("email_lc") != null) {
      or.add(new JsonObject().put("email_lc", candidate.getString("email_lc")));
    }
    if (candidate.getString("phone") != null) {
      or.add(new JsonObject().put("phone", candidate.getString("phone")));
    }
    if (or.isEmpty()) {
      return Future.succeededFuture(null);
    }
    JsonObject query = new JsonObject().put("$or", or);
    if (exceptId != null) {
      query.put("_id", new JsonObject().put("$ne", exceptId));
    }
    return mongo.find(COLLECTION, query).compose(found -> {
      for (JsonObject other : found) {
        String username = candidate.getString("username_lc");
        if (username != null && (username.equals(other.getString("username_lc")) || reserves(other, username, now))) {
          return Future.succeededFuture(
              Failures.field(AccountsErrors.USERNAME_TAKEN, "username", "this username is taken"));
        }
        if (candidate.getString("email_lc") != null
            && candidate.getString("email_lc").equals(other.getString("email_lc"))) {
          return Future.succeededFuture(
              Failures.field(AccountsErrors.EMAIL_TAKEN, "email", "this email belongs to another account"));
        }
        if (candidate.getString("phone") != null && candidate.getString("phone").equals(other.getString("phone"))) {
          return Future.succeededFuture(
              Failures.field(AccountsErrors.PHONE_TAKEN, "phone", "this phone belongs to another account"));
        }
      }
      return Future.succeededFuture((ServiceException) null);
    });
  }

  /** The account without its password hash, or null. */
  /**
   * Ids of accounts neither pending deletion nor erased, above {@code after}, ascending, at most {@code limit}: a
   * walk over every active account in bounded pages (an announcement to everyone).
   */
  Future<List<Long>> activeIdsAfter(long after, int limit) {
    return mongo.findWithOptions(COLLECTION, Deletion.HIDDEN.copy().put("_id", new JsonObject().put("$gt", after)),
            new FindOptions().setSort(new JsonObject().put("_id", 1)).setLimit(limit)
                .setFields(new JsonObject().put("_id", 1)))
        .map(docs -> docs.stream().map(d -> d.getLong("_id")).toList());
  }

  Future<JsonObject> byId(long id) {
    return mongo.findOne(COLLECTION, new JsonObject().put("_id", id), NO_PASSWORD);
  }

  /**
   * Accounts (without password hashes) by ids; unknown ids, and accounts pending deletion, erased or suspended, are
   * absent.
   */
  Future<List<JsonObject>> byIds(Collection<Long> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return mongo.findWithOptions(COLLECTION,
        new JsonObject().put("_id", new JsonObject().put("$in", new JsonArray(List.copyOf(ids)))).mergeIn(Deletion.HIDDEN),
        new FindOptions().setFields(NO_PASSWORD)).map(Suspension::withoutSuspended);
  }

  /** The account with its password hash by a login key ({@code username_lc}, {@code email_lc} or {@code phone}). */
  Future<JsonObject> forLogin(String key, String value) {
    return mongo.findOne(COLLECTION, new JsonObject().put(key, value), null);
  }

  /** The password hash of an account, or null. */
  Future<String> passwordOf(long id) {
    return mongo.findOne(COLLECTION, new JsonObject().put("_id", id), new JsonObject().put("password", 1))
        .map(doc -> doc == null ? null : doc.getString("password"));
  }

  /**
   * Replaces the password hash with another of the same password ({@code fresh}, made at the current cost), only if
   * the stored one is still {@code old}: a password changed meanwhile is never overwritten. No version bump: cached
   * copies hold no hash. Completes with whether it replaced it.
   */
  Future<Boolean> rehash(long id, String old, String fresh) {
    return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", id).put("password", old),
        new JsonObject().put("$set", new JsonObject().put("password", fresh)))
        .map(r -> r != null && r.getDocModified() == 1);
  }

  Future<Void> setPassword(long id, String hash) {
    return mongo.updateCollection(COLLECTION, new JsonObject().put("_id", id),
        new JsonObject().put("$set", new JsonObject().put("password", hash)).put("$inc", BUMP)).mapEmpty();
  }

  /**
   * The id of the account whose {@code username_lc} is {@code usernameLc}, in any state but erased (an erased
   * account's tombstone keeps the name reserved), or null: an operator's lookup, which sees suspended and pending
   * accounts.
   */
  Future<Long> idOfUsername(String usernameLc) {
    JsonObject live = new JsonObject().put("$or", new JsonArray().add(Deletion.HIDDEN)
        .add(new JsonObject().put(Deletion.FIELD + ".state", Deletion.PENDING)));
    return mongo.findOne(COLLECTION, new JsonObject().put("username_lc", usernameLc).mergeIn(live),
        new JsonObject().put("_id", 1)).map(doc -> doc == null ? null : doc.getLong("_id"));
  }

  /** Accounts whose {@code key} is one of {@code values} (without password hashes), none pending deletion or erased. */
  Future<List<JsonObject>> byAny(String key, Collection<String> values) {
    if (values.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return mongo.findWithOptions(COLLECTION,
        new JsonObject().put(key, new JsonObject().put("$in", new JsonArray(List.copyOf(values))))
            .mergeIn(Deletion.HIDDEN),
        new FindOptions().setFields(NO_PASSWORD).setLimit(values.size() * 2)).map(Suspension::withoutSuspended);
  }

  /**
   * Accounts whose {@code nickname_lc} starts with {@code prefix}, ordered by (nickname_lc, _id), after the given
   * position.
   */
  Future<List<JsonObject>> nicknamePrefix(String prefix, String afterNickname, Long afterId, int limit) {
    // an anchored, escaped regex: a range ending in some "highest" character misorders on UTF-8 (MongoDB) or UTF-16
    // (the embedded server) comparison for some scripts, while a prefix regex still uses the index
    JsonObject range = new JsonObject().put("$regex", "^" + escapeRegex(prefix));
    JsonObject query = new JsonObject().put("nickname_lc", range).mergeIn(Deletion.HIDDEN);
    if (afterNickname != null) {
      query = new JsonObject().put("$and", new JsonArray()
          .add(new JsonObject().put("nickname_lc", range))
          .add(new JsonObject().put("$or", new JsonArray()
              .add(new JsonObject().put("nickname_lc", new JsonObject().put("$gt", afterNickname)))
              .add(new JsonObject().put("nickname_lc", afterNickname).put("_id", new JsonObject().put("$gt", afterId)))))
          .add(Deletion.HIDDEN));
    }
    return mongo.findWithOptions(COLLECTION, query, new FindOptions()
        .setFields(NO_PASSWORD)
        .setSort(new JsonObject().put("nickname_lc", 1).put("_id", 1))
        .setLimit(limit));
  }

  static String escapeRegex(String literal) {
    StringBuilder out = new StringBuilder(literal.length() + 8);
    for (char c : literal.toCharArray()) {
      if ("\\^$.|?*+()[]{}".indexOf(c) >= 0) {
        out.append('\\');
      }
      out.append(c);
    }
    return out.toString();
  }

  /**
   * Applies a validated change set and returns the updated account (without password hash), or null when there is
   * no such account. Settings come as one {@code settings.<key>} path each, so concurrent changes of different
   * settings do not undo each other. A phone that another account holds fails with 409 {@code phone_taken}.
   */
  Future<JsonObject> update(long id, JsonObject set, JsonArray unset) {
    JsonObject update = new JsonObject().put("$inc", BUMP);
    if (!set.isEmpty()) {
      update.put("$set", set);
    }
    if (!unset.isEmpty()) {
      JsonObject u = new JsonObject();
      unset.forEach(f -> u.put(String.valueOf(f), ""));
      update.put("$unset", u);
    }
    return mongo.findOneAndUpdateWithOptions(COLLECTION, new JsonObject().put("_id", id), update,
            new FindOptions().setFields(NO_PASSWORD), new UpdateOptions().setReturningNewDocument(true))
        .recover(e -> MongoErrors.isDuplicateKey(e) ? conflictOf(set, id) : Future.failedFuture(e));
  }

  /** Moves {@code last_active} forward to {@code when}; returns the account as written, or null when there is none. */
  Future<JsonObject> touchLastActive(long id, long when) {
    return mongo.findOneAndUpdateWithOptions(COLLECTION, new JsonObject().put("_id", id),
        new JsonObject().put("$max", new JsonObject().put("last_active", when)).put("$inc", BUMP),
        new FindOptions().setFields(NO_PASSWORD), new UpdateOptions().setReturningNewDocument(true));
  }

  /**
   * {@link #touchLastActive(long, long)} for many accounts in two round trips: one update of all, then one read of
   * what was written (a copy at least as new as each account's own update); unknown ids are absent.
   */
  Future<List<JsonObject>> touchLastActive(Collection<Long> ids, long when) {
    if (ids.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return mongo.updateCollectionWithOptions(COLLECTION,
            new JsonObject().put("_id", new JsonObject().put("$in", new JsonArray(List.copyOf(ids)))),
            new JsonObject().put("$max", new JsonObject().put("last_active", when)).put("$inc", BUMP),
            new UpdateOptions().setMulti(true))
        .compose(updated -> byIds(ids));
  }
}
