package io.kith.accounts.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.platform.Platform;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Erases accounts whose deletion is due. Every node sweeps; a node claims one account at a time with a conditional
 * update ({@code pending} and due, or {@code erasing} under a claim older than the lease), so each account is erased
 * by one node at a time and a crashed node's erasure is resumed by another after the lease.
 *
 * <p>The erasure is a list of idempotent steps. Each finished step is recorded on the account document
 * ({@code erasure.steps}, with its count in {@code erasure.counts.<kind>}), so a resumed erasure skips what is done.
 * The profile step turns the document into the tombstone {@code {_id, username_lc, deletion, erasure}}: the id never
 * comes back and the username stays reserved. The last step appends one {@link AccountDeleted}; then the tombstone
 * reads {@code deletion.state = erased} with {@code deleted_at}.
 */
final class DeletionSweeper {

  private static final Logger LOG = LoggerFactory.getLogger(DeletionSweeper.class);
  /** Accounts one sweep erases at most (the next sweep goes on). */
  static final int PER_SWEEP = 100;
  /** Per-user rate-limit counters of accounts (see the README's Redis keys). */
  private static final List<String> USER_LIMITS = List.of("login-fail:acct:", "verify:user:", "profile:", "nearby:",
      "presence:", "nickname:", "profile-update:", "position:", "contacts:", "export:");

  /** One step of an erasure: its name and what it does, completing with how many things it erased. */
  private record Step(String name, Function<Long, Future<Long>> erase) {
  }

  private final Platform platform;
  private final Deletion.Settings settings;
  private final MongoClient mongo;
  private final ProfileCache cache;
  private final NearbyStore nearby;
  private final ExportJobs exports;
  private final List<Step> steps;
  private final AtomicBoolean running = new AtomicBoolean();

  DeletionSweeper(Platform platform, Deletion.Settings settings, ProfileCache cache, NearbyStore nearby,
                  ExportJobs exports) {
    this.platform = platform;
    this.settings = settings;
    this.mongo = platform.mongo();
    this.cache = cache;
    this.nearby = nearby;
    this.exports = exports;
    this.steps = List.of(new Step("sessions", this::sessions), new Step("device_tokens", this::deviceTokens),
        new Step("codes", this::codes), new Step("presence", this::presence), new Step("nearby", this::nearbyEntry),
        new Step("rate_limits", this::rateLimits), new Step("exports", exports::erase),
        new Step("profile_fields", this::profile),
        new Step("event", this::announce));
  }

  /**
   * Erases the due accounts this node can claim; completes with how many it took. A sweep that finds the previous one
   * still running does nothing (a slow store must not stack sweeps).
   */
  Future<Integer> sweep() {
    if (!running.compareAndSet(false, true)) {
      return Future.succeededFuture(0);
    }
    return sweep(0).onComplete(ar -> running.set(false));
  }

  private Future<Integer> sweep(int done) {
    if (done >= PER_SWEEP) {
      return Future.succeededFuture(done);
    }
    return claim().compose(account -> account == null ? Future.succeededFuture(done)
        : erase(account).compose(v -> sweep(done + 1)));
  }

  /** Claims one due account (or one whose claim lapsed); null when there is none. */
  private Future<JsonObject> claim() {
    long now = System.currentTimeMillis();
    JsonObject due = new JsonObject().put(Deletion.FIELD + ".state", Deletion.PENDING)
        .put(Deletion.FIELD + ".due_at", new JsonObject().put("$lte", now));
    JsonObject lapsed = new JsonObject().put(Deletion.FIELD + ".state", Deletion.ERASING)
        .put(Deletion.FIELD + ".claimed_at", new JsonObject().put("$lt", now - settings.leaseSeconds() * 1000L));
    return mongo.findOneAndUpdateWithOptions(AccountStore.COLLECTION,
        new JsonObject().put("$or", new JsonArray().add(due).add(lapsed)),
        new JsonObject().put("$set", new JsonObject().put(Deletion.FIELD + ".state", Deletion.ERASING)
            .put(Deletion.FIELD + ".claimed_at", now)),
        new FindOptions().setFields(new JsonObject().put("_id", 1).put("erasure", 1)),
        new UpdateOptions().setReturningNewDocument(true));
  }

  /** Runs the steps not yet recorded on the account, in order, recording each. */
  private Future<Void> erase(JsonObject account) {
    long id = account.getLong("_id");
    JsonArray done = account.getJsonObject("erasure", new JsonObject()).getJsonArray("steps", new JsonArray());
    Future<Void> chain = Future.succeededFuture();
    for (Step step : steps) {
      if (!done.contains(step.name())) {
        chain = chain.compose(v -> step.erase().apply(id)).compose(count -> record(id, step.name(), count));
      }
    }
    return chain.compose(v -> finish(id))
        .onFailure(e -> LOG.warn("Erasing account {} stopped; it resumes after the lease: {}", id, e.toString()))
        .recover(e -> Future.succeededFuture());
  }

  private Future<Void> record(long id, String step, long count) {
    JsonObject update = new JsonObject().put("$addToSet", new JsonObject().put("erasure.steps", step));
    if (!step.equals("event")) {
      update.put("$set", new JsonObject().put("erasure.counts." + step, count));
    }
    return mongo.updateCollection(AccountStore.COLLECTION, new JsonObject().put("_id", id), update).mapEmpty();
  }

  private Future<Void> finish(long id) {
    long now = System.currentTimeMillis();
    return mongo.updateCollection(AccountStore.COLLECTION, new JsonObject().put("_id", id),
        new JsonObject().put("$set", new JsonObject().put(Deletion.FIELD + ".state", Deletion.ERASED)
            .put("erasure.finished_at", now))).mapEmpty();
  }

  private Future<Long> sessions(long id) {
    // counted before they end; a session opened by a login racing the request ends here too
    return platform.sessions().list(id)
        .compose(list -> platform.sessions().revokeAll(id).map(v -> (long) list.size()));
  }

  private Future<Long> deviceTokens(long id) {
    return mongo.removeDocuments(KnownDevices.COLLECTION, new JsonObject().put("user", id))
        .map(r -> r == null ? 0L : r.getRemovedCount());
  }

  private Future<Long> codes(long id) {
    return mongo.removeDocuments(CodeStore.COLLECTION, new JsonObject().put("_id",
            new JsonObject().put("$regex", "^" + id + ":")))
        .map(r -> r == null ? 0L : r.getRemovedCount());
  }

  private Future<Long> presence(long id) {
    return delete(List.of(PresenceStore.key(id)));
  }

  private Future<Long> nearbyEntry(long id) {
    return nearby.positionOf(id).compose(at -> nearby.remove(id).map(at == null ? 0L : 1L));
  }

  private Future<Long> rateLimits(long id) {
    List<String> keys = new ArrayList<>();
    USER_LIMITS.forEach(prefix -> keys.add("rl:accounts:" + prefix + id));
    return delete(keys);
  }

  /** Deletes keys one command each (they may live on different Redis Cluster slots); completes with how many existed. */
  private Future<Long> delete(List<String> keys) {
    List<Request> dels = new ArrayList<>();
    keys.forEach(k -> dels.add(Request.cmd(Command.DEL).arg(k)));
    return platform.redis().batch(dels).map(replies -> {
      long n = 0;
      for (var r : replies) {
        n += r == null ? 0 : r.toLong();
      }
      return n;
    });
  }

  /**
   * Replaces the account with its tombstone, keeping the id, the reserved username, the deletion mark and the erasure
   * record; completes with how many profile fields went (0 when a resumed erasure finds the tombstone already).
   */
  private Future<Long> profile(long id) {
    return mongo.findOne(AccountStore.COLLECTION, new JsonObject().put("_id", id), null).compose(doc -> {
      if (doc == null) {
        return Future.succeededFuture(0L);
      }
      Map<String, Object> kept = new LinkedHashMap<>();
      for (String f : List.of("_id", "username_lc", Deletion.FIELD, "erasure")) {
        if (doc.containsKey(f)) {
          kept.put(f, doc.getValue(f));
        }
      }
      long erased = doc.fieldNames().stream().filter(f -> !kept.containsKey(f) && !f.equals(AccountStore.VERSION))
          .count();
      JsonObject tombstone = new JsonObject(kept).put(AccountStore.VERSION, doc.getLong(AccountStore.VERSION, 0L) + 1);
      return mongo.findOneAndReplace(AccountStore.COLLECTION, new JsonObject().put("_id", id), tombstone)
          .compose(x -> cache.invalidate(id))
          .map(erased);
    });
  }

  private Future<Long> announce(long id) {
    long now = System.currentTimeMillis();
    return mongo.updateCollection(AccountStore.COLLECTION, new JsonObject().put("_id", id),
            new JsonObject().put("$set", new JsonObject().put(Deletion.FIELD + ".deleted_at", now)))
        .compose(r -> platform.events().publisher(AccountsEvents.DOMAIN).append(new AccountDeleted(id, now)))
        .map(1L);
  }
}
