package io.kith.relations.service;

import io.kith.platform.Platform;
import io.kith.platform.events.ConsumerSet;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.Erasures;
import io.kith.platform.limit.RateLimiter;
import io.kith.relations.api.RelationsEvents;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.RedisAPI;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Erases a deleted account's relations: consumes accounts' {@code AccountDeleted} (group {@value #GROUP},
 * {@code once}-guarded) and runs its steps in order, each recorded with the platform's
 * {@link Erasures} and skipped when a resumed run finds it recorded (the README lists steps and kinds).
 *
 * <p>Edges go in batches of {@value #BATCH}, oldest first. For each batch the other users' counts are first set to a
 * recount of their edges <em>without</em> the deleted user, then the user is taken out of their hot sets, the edges
 * are deleted, and the sets are cleaned once more (a rebuild may have read the edges in between). So a crash between
 * any two writes leaves the counts exact, and a repeat sets the same values. A follower recount moves the follower
 * version, so Redis copies of those lists are taken again. The user's own keys are deleted at the end. No relations
 * event is appended for the erased edges: every domain erases the user from its own state on the same
 * {@code AccountDeleted}, and an unfollow event would tell notifications and feeds of a change nobody made.
 *
 * <p>The event is read by its stream, type and payload field ({@value #ACCOUNTS_STREAM}, {@value #ACCOUNT_DELETED},
 * {@code user_id}) rather than through {@code io.kith.accounts.api.events.AccountDeleted}: accounts depends on
 * relations-api, so importing accounts here would make the two domains a cycle (the README's "No cycle"). A test
 * checks these names against the accounts record.
 */
final class Erasure {

  /** The domain name of the erasure reports. */
  static final String DOMAIN = RelationsEvents.DOMAIN;
  /** Consumer group of relations on the accounts stream. */
  static final String GROUP = "relations-erasure";
  /** Accounts' stream ({@code AccountsEvents.DOMAIN}). */
  static final String ACCOUNTS_STREAM = "accounts";
  /** Accounts' event type ({@code AccountsEvents.ACCOUNT_DELETED}), payload {@code {user_id, deleted_at}}. */
  static final String ACCOUNT_DELETED = "AccountDeleted";
  /** Edges or membership rows erased per batch. */
  static final int BATCH = 500;

  /**
   * One edge type's step: the hot set of the other user that holds the deleted user when the other is the edge's
   * {@code a} end ({@code outSet}) or its {@code b} end ({@code inSet}), and the count field recounted for either end
   * (null: none).
   */
  private record EdgeStep(String name, String type, String outSet, String inSet, String outCount, String inCount) {
  }

  private static final List<EdgeStep> EDGE_STEPS = List.of(
      new EdgeStep("follows", EdgeStore.FOLLOW, HotSets.FOLLOWING, null, "following", "followers"),
      new EdgeStep("friendships", EdgeStore.FRIEND, HotSets.FRIENDS, null, "friends", null),
      new EdgeStep("requests", EdgeStore.REQUEST, null, null, null, null),
      new EdgeStep("blocks", EdgeStore.BLOCK, HotSets.BLOCKS, HotSets.BLOCKED_BY, null, null),
      new EdgeStep("mutes", EdgeStore.MUTE, HotSets.MUTES, null, null, null),
      new EdgeStep("hides", EdgeStore.HIDE, HotSets.HIDES, HotSets.HIDDEN_BY, null, null));

  /** A recorded step: its name (also the kind of what it counts) and what it does, answering the count erased. */
  private record Step(String name, Function<Long, Future<Long>> run) {
  }

  private final Platform platform;
  private final EdgeStore edges;
  private final GroupStore groups;
  private final TagStore tags;
  private final HotSets sets;
  private final Erasures erasures;
  private final List<Step> steps = new ArrayList<>();
  private final ConsumerSet consumers;

  Erasure(Platform platform, EdgeStore edges, GroupStore groups, TagStore tags, HotSets sets) {
    this.platform = platform;
    this.edges = edges;
    this.groups = groups;
    this.tags = tags;
    this.sets = sets;
    this.erasures = new Erasures(platform.mongo());
    this.consumers = new ConsumerSet(platform.events());
    EDGE_STEPS.forEach(s -> steps.add(new Step(s.name(), user -> edgeBatches(s, user, 0))));
    steps.add(new Step("friend_groups", groups::deleteOwned));
    steps.add(new Step("group_memberships", user -> membershipBatches(user, 0)));
    steps.add(new Step("tags", user -> tags.deleteBy("owner", user)));
    steps.add(new Step("tagged_by", user -> tags.deleteBy("target", user)));
    steps.add(new Step("counts", edges::deleteCounts));
    steps.add(new Step("redis", this::forget));
  }

  /** Starts consuming accounts' stream. */
  Future<Void> start() {
    return consumers.once(ACCOUNTS_STREAM, GROUP, this::handle);
  }

  Future<Void> stop() {
    return consumers.stop();
  }

  private Future<?> handle(DomainEvent event) {
    long user = event.payload().getLong("user_id", 0L);
    return ACCOUNT_DELETED.equals(event.type()) && user > 0 ? erase(user) : Future.succeededFuture();
  }

  /** Erases {@code user}'s relations, skipping recorded steps; returns the finished report. */
  Future<JsonObject> erase(long user) {
    Future<Void> chain = Future.succeededFuture();
    for (Step step : steps) {
      chain = chain.compose(v -> erasures.done(DOMAIN, user, step.name()).compose(done -> done
          ? Future.succeededFuture()
          : step.run().apply(user).compose(n -> erasures.step(DOMAIN, user, step.name(), step.name(), n))));
    }
    return chain.compose(v -> erasures.finish(DOMAIN, user));
  }

  /** Erases {@code user}'s edges of one type, a batch at a time; answers how many went. */
  private Future<Long> edgeBatches(EdgeStep step, long user, long erased) {
    return edges.involving(step.type(), user, null, BATCH).compose(batch -> {
      if (batch.isEmpty()) {
        return Future.succeededFuture(erased);
      }
      List<Long> ids = batch.stream().map(e -> e.getLong("_id")).toList();
      return each(batch, e -> recount(step, user, e))
          .compose(v -> each(batch, e -> unlink(step, user, e)))
          .compose(v -> edges.deleteAll(ids))
          .compose(n -> each(batch, e -> unlink(step, user, e)).map(n))
          .compose(n -> edgeBatches(step, user, erased + n));
    });
  }

  /** Sets the other end's count to a recount without {@code user}. */
  private Future<Void> recount(EdgeStep step, long user, JsonObject edge) {
    long a = edge.getLong("a");
    long b = edge.getLong("b");
    if (a != user && step.outCount() != null) {
      return edges.recount(a, step.outCount(), step.type(), "a", user);
    }
    if (b != user && step.inCount() != null) {
      return edges.recount(b, step.inCount(), step.type(), "b", user);
    }
    return Future.succeededFuture();
  }

  /** Takes {@code user} out of the other end's hot set. */
  private Future<Void> unlink(EdgeStep step, long user, JsonObject edge) {
    long a = edge.getLong("a");
    long b = edge.getLong("b");
    if (a != user && step.outSet() != null) {
      return sets.remove(step.outSet(), a, user);
    }
    if (b != user && step.inSet() != null) {
      return sets.remove(step.inSet(), b, user);
    }
    return Future.succeededFuture();
  }

  /** Takes {@code user} out of other users' friend groups, a batch at a time, with the groups' sizes recounted. */
  private Future<Long> membershipBatches(long user, long erased) {
    return groups.holding(user, BATCH).compose(rows -> {
      if (rows.isEmpty()) {
        return Future.succeededFuture(erased);
      }
      Set<Long> held = new LinkedHashSet<>(rows.stream().map(r -> r.getLong("g")).toList());
      return each(List.copyOf(held), g -> groups.recountSize(g, user))
          .compose(v -> groups.deleteRows(rows.stream().map(r -> r.getLong("_id")).toList()))
          .compose(n -> membershipBatches(user, erased + n));
    });
  }

  /** Deletes the user's own Redis keys (hot sets, their generations, follower list, rate-limit windows). */
  private Future<Long> forget(long user) {
    List<String> keys = new ArrayList<>();
    for (String set : HotSets.ALL) {
      keys.add(HotSets.key(set, user));
      keys.add(HotSets.generationKey(set, user));
    }
    keys.add(FollowerLists.key(user));
    RateLimiter limiter = new RateLimiter(platform.redis());
    // the user's keys share one hash tag (one DEL on a cluster); the rate-limit windows are keys of their own
    return RedisAPI.api(platform.redis()).del(keys).compose(deleted -> limiter.reset(Follows.limitKey(user))
        .compose(v -> limiter.reset(Blocks.limitKey(user)))
        .map(v -> deleted.toLong()));
  }

  /** Runs {@code action} on each item, one after the other (a batch must not flood the store's connection pool). */
  private static <T> Future<Void> each(List<T> items, Function<T, Future<Void>> action) {
    Future<Void> chain = Future.succeededFuture();
    for (T item : items) {
      chain = chain.compose(v -> action.apply(item));
    }
    return chain;
  }
}
