package io.kith.feeds.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.feeds.api.FeedsEvents;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.Erasures;
import io.kith.platform.events.EventConsumer;
import io.kith.platform.events.EventLog;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.MongoClientDeleteResult;
import io.vertx.ext.mongo.MongoClientUpdateResult;
import io.vertx.ext.mongo.UpdateOptions;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Erases a deleted account's feeds data when accounts appends {@code AccountDeleted} (stream {@code events:accounts},
 * consumer group {@value #GROUP}, guarded by event id): the erasure contract of the accounts README, "Deletion".
 *
 * <p>The steps run in the order of {@code steps}, each idempotent (deletes by user id, counters recounted from the
 * records rather than decremented) and recorded in the platform's {@link Erasures} report, so a run that stopped
 * half-way resumes after the last recorded step. Steps that need the user's posts (their followers' timelines, the comments and
 * likes others left on them) run before the posts go. Others' counters are recounted at once after each batch; the
 * posts are marked for the regular recount ({@link CounterRecount#touch}) before their records change, so a node dying
 * mid-batch still leaves them exact. Others' reposts of the user's posts stay and show their original as
 * {@code {state: "deleted"}}, as for any deleted original.
 */
final class Erasure {

  /** The consumer group of the accounts stream. */
  static final String GROUP = "feeds";
  /** Records read per batch. */
  static final int BATCH = 500;
  /** Followers read per page when taking the user's posts out of their timelines. */
  static final int FOLLOWER_PAGE = 200;
  private static final Logger LOG = LoggerFactory.getLogger(Erasure.class);
  /** The feeds rate-limit windows, named as {@code rl:feeds:<name>:<user>}. */
  private static final List<String> LIMITS = List.of("post", "edit", "comment", "like", "media-upload");
  private static final Function<List<JsonObject>, Future<Void>> NOTHING = docs -> Future.succeededFuture();

  /** One recorded step: its name, the kind it counts, and the work (answering the count). */
  private record Step(String name, String kind, Function<Long, Future<Long>> work) {
  }

  private final List<Step> steps = List.of(
      new Step("follower_timelines", "follower_timelines", this::followerTimelines),
      new Step("comments", "comments", this::comments),
      new Step("likes", "likes", this::likes),
      new Step("comments_received", "comments_received", this::commentsReceived),
      new Step("likes_received", "likes_received", this::likesReceived),
      new Step("reposts", "reposts", this::reposts),
      new Step("posts", "posts", this::posts),
      new Step("media", "media", this::media),
      new Step("references", "references", this::references),
      new Step("redis", "redis_keys", this::redis));

  private final FeedsCore core;
  private final RelationsInternal relations;
  private final MongoClient mongo;
  private final Erasures erasures;

  Erasure(FeedsCore core, RelationsInternal relations) {
    this.core = core;
    this.relations = relations;
    this.mongo = core.platform().mongo();
    this.erasures = new Erasures(mongo);
  }

  /**
   * Starts consuming the accounts stream; the verticle stops the consumer. Only {@code AccountDeleted} goes through the
   * handled-event guard: the stream's other events (presence changes above all) are many and need no guard key each.
   */
  Future<EventConsumer> start() {
    EventLog log = core.platform().events();
    Function<DomainEvent, Future<?>> guarded = log.once(GROUP, this::handle);
    return log.consume(AccountsEvents.DOMAIN, GROUP, event -> AccountsEvents.ACCOUNT_DELETED.equals(event.type())
        ? guarded.apply(event) : Future.succeededFuture());
  }

  private Future<?> handle(DomainEvent event) {
    long user = AccountDeleted.fromJson(event.payload()).userId();
    return user <= 0 ? Future.succeededFuture() : erase(user);
  }

  /** Runs the steps not recorded yet for {@code user}, then finishes the report; answers the report. */
  Future<JsonObject> erase(long user) {
    Future<Void> chain = Future.succeededFuture();
    for (Step step : steps) {
      chain = chain.compose(v -> erasures.done(FeedsEvents.DOMAIN, user, step.name()).compose(done -> done
          ? Future.<Void>succeededFuture()
          : step.work().apply(user).compose(n -> erasures.step(FeedsEvents.DOMAIN, user, step.name(), step.kind(), n))));
    }
    return chain.compose(v -> erasures.finish(FeedsEvents.DOMAIN, user))
        .onSuccess(r -> LOG.info("Erased the feeds data of deleted account {}: {}", user, r.getJsonObject("counts")))
        .onFailure(e -> LOG.warn("Erasing the feeds data of deleted account {} stopped (retried): {}", user,
            e.toString()));
  }

  // ---------------------------------------------------------------- steps

  /**
   * Takes the user's recent posts out of the home and moments timelines of the followers relations still lists (it
   * may have erased the user's edges first: the posts are then skipped at read, their documents being gone, and
   * trimmed away by newer posts); a celebrity's posts were never fanned out. Answers the followers reached. A refusal
   * of relations ends the walk instead of failing the step: nothing shows the posts either way, and an erasure that
   * could never finish would keep the rest of the user's data.
   */
  private Future<Long> followerTimelines(long user) {
    return core.timelines().markedCelebrity(user).compose(celebrity -> celebrity ? Future.succeededFuture(0L)
        : core.posts().byAuthors(List.of(user), 0, 0, core.settings().timelineCap())
            .compose(recent -> recent.isEmpty() ? Future.succeededFuture(0L)
                : unspread(user, PostStore.ids(recent), null, 0L)
                    .recover(e -> {
                      LOG.warn("Could not take deleted account {}'s posts out of its followers' timelines (skipped at "
                          + "read): {}", user, e.toString());
                      return Future.succeededFuture(0L);
                    })));
  }

  private Future<Long> unspread(long user, List<Long> postIds, String cursor, long reached) {
    return relations.eligibleFollowers(user, PageRequest.after(cursor, FOLLOWER_PAGE)).map(Page::toJson)
        .compose(page -> {
          List<Long> followers = new ArrayList<>();
          page.getJsonArray("items", new JsonArray()).forEach(f -> followers.add(((Number) f).longValue()));
          String next = page.getString("next");
          return Future.all(core.timelines().removeFromAll(Timelines.HOME, followers, postIds),
                  core.timelines().removeFromAll(Timelines.MOMENTS, followers, postIds))
              .compose(v -> next == null ? Future.succeededFuture(reached + followers.size())
                  : unspread(user, postIds, next, reached + followers.size()));
        });
  }

  /** The user's comments, anywhere; the posts they were on are recounted. */
  private Future<Long> comments(long user) {
    return drain(PostStore.COMMENTS, new JsonObject().put("author", user), "post", NOTHING, 0L);
  }

  /** The user's likes; the posts they were on are recounted (the user's own liked set goes with the Redis step). */
  private Future<Long> likes(long user) {
    return drain(PostStore.LIKES, new JsonObject().put("u", user), "p", NOTHING, 0L);
  }

  /** Others' comments on the user's posts and reposts (they go with the posts). */
  private Future<Long> commentsReceived(long user) {
    return eachOwnBatch(user, 0L, 0L, ids -> mongo.removeDocuments(PostStore.COMMENTS, in("post", ids))
        .map(Erasure::removed));
  }

  /**
   * Others' likes on the user's posts and reposts (in batches: a post may have many), and the likers' liked sets'
   * entries for them.
   */
  private Future<Long> likesReceived(long user) {
    return eachOwnBatch(user, 0L, 0L, ids -> drain(PostStore.LIKES, in("p", ids), null, likes -> Future.all(likes
        .stream().map(l -> FeedsCore.quietly(core.flags().remove(ViewerFlags.LIKED, l.getLong("u"), l.getLong("p"))))
        .toList()).mapEmpty(), 0L));
  }

  /**
   * The user's reposts (deleted ones too: they still count in {@code reposts_total}); the originals are recounted,
   * and others' reposts of the user's posts are not touched here.
   */
  private Future<Long> reposts(long user) {
    JsonObject query = new JsonObject().put("author", user).put("repost_of", new JsonObject().put("$gt", 0));
    return drain(PostStore.POSTS, query, "repost_of", NOTHING, 0L);
  }

  /** The user's remaining posts (deleted ones too), and their cached copies. */
  private Future<Long> posts(long user) {
    return drain(PostStore.POSTS, new JsonObject().put("author", user), null, NOTHING, 0L);
  }

  /** The user's uploads with their bytes, whatever uses them (posts, a profile photo, chat images). */
  private Future<Long> media(long user) {
    return core.media().eraseOwner(user);
  }

  /**
   * What others' records say of the user: mentions of them and places in audiences are pulled from others' posts
   * (their cached copies dropped), and replies to the user's comments read as plain comments. Answers the records
   * changed.
   */
  private Future<Long> references(long user) {
    Future<Long> mentions = pullFromPosts("mentions", user);
    Future<Long> audiences = pullFromPosts("aud.users", user);
    Future<Long> replies = mongo.updateCollectionWithOptions(PostStore.COMMENTS,
            new JsonObject().put("reply_to_author", user),
            new JsonObject().put("$set", new JsonObject().put("reply_to_author", 0L)), new UpdateOptions().setMulti(true))
        .map(Erasure::modified);
    return Future.all(mentions, audiences, replies)
        .map(v -> mentions.result() + audiences.result() + replies.result());
  }

  /**
   * Pulls the user from the array {@code field} of the posts holding them (one update per field: only posts whose
   * field holds the user are matched, so the path always exists), and drops those posts' cached copies.
   */
  private Future<Long> pullFromPosts(String field, long user) {
    return mongo.findWithOptions(PostStore.POSTS, new JsonObject().put(field, user),
            new FindOptions().setFields(new JsonObject().put("_id", 1)))
        .compose(docs -> {
          List<Long> ids = PostStore.ids(docs);
          return ids.isEmpty() ? Future.succeededFuture(0L)
              : mongo.updateCollectionWithOptions(PostStore.POSTS, in("_id", ids).put(field, user),
                      new JsonObject().put("$pull", new JsonObject().put(field, user)),
                      new UpdateOptions().setMulti(true))
                  .compose(r -> dropCopies(ids).map(modified(r)));
        });
  }

  /**
   * The user's Redis state: their timelines, liked and reposted sets, rate-limit windows, and their place in the
   * celebrity set. Single-key commands, so the batch runs on Redis Cluster too. Answers the keys (members) removed.
   */
  private Future<Long> redis(long user) {
    List<Request> batch = new ArrayList<>();
    for (String kind : List.of(Timelines.HOME, Timelines.MOMENTS, Timelines.OWN)) {
      batch.add(Request.cmd(Command.DEL).arg(Timelines.key(kind, user)));
    }
    for (String set : List.of(ViewerFlags.LIKED, ViewerFlags.REPOSTED)) {
      batch.add(Request.cmd(Command.DEL).arg(ViewerFlags.key(set, user)));
      batch.add(Request.cmd(Command.DEL).arg(ViewerFlags.key(set, user) + ":gen"));
    }
    LIMITS.forEach(name -> batch.add(Request.cmd(Command.DEL).arg("rl:feeds:" + name + ":" + user)));
    batch.add(Request.cmd(Command.SREM).arg(Timelines.CELEBRITIES).arg(user));
    return core.platform().redis().batch(batch).map(replies -> {
      long removed = 0;
      for (Response r : replies) {
        removed += r == null ? 0 : r.toLong();
      }
      return removed;
    });
  }

  // ---------------------------------------------------------------- batches

  /**
   * Removes the records matching {@code query} batch by batch until none is left; the posts named by each record's
   * {@code post} field (null: none) are marked for a recount before the batch goes and recounted after, and
   * {@code before} runs over the batch before it goes. Removed posts' cached copies are dropped, and stray comments and
   * likes on them with them. Answers how many records went.
   */
  private Future<Long> drain(String collection, JsonObject query, String post,
                             Function<List<JsonObject>, Future<Void>> before, long done) {
    return mongo.findWithOptions(collection, query, new FindOptions().setLimit(BATCH)
            .setSort(new JsonObject().put("_id", 1)))
        .compose(docs -> {
          if (docs.isEmpty()) {
            return Future.succeededFuture(done);
          }
          List<Long> ids = PostStore.ids(docs);
          Set<Long> counted = new LinkedHashSet<>();
          if (post != null) {
            docs.forEach(d -> counted.add(d.getLong(post)));
          }
          return Future.all(counted.stream().map(core.recount()::touch).toList())
              .compose(v -> before.apply(docs))
              // copies first, failing the step if Redis does not take it: once the records are gone a resumed
              // erasure would not find these ids again, and a copy left behind would show an erased post
              .compose(v -> PostStore.POSTS.equals(collection) ? dropCopies(ids) : Future.<Void>succeededFuture())
              .compose(v -> mongo.removeDocuments(collection, in("_id", ids)))
              .compose(v -> PostStore.POSTS.equals(collection) ? postsGone(ids) : Future.<Void>succeededFuture())
              .compose(v -> Future.all(counted.stream().map(core.recount()::now).toList()))
              .compose(v -> drain(collection, query, post, before, done + docs.size()));
        });
  }

  /**
   * After posts were removed: interactions that reached them late, and their cached copies once more (a reader may
   * have refilled one since the first drop; best effort, as after any change).
   */
  private Future<Void> postsGone(List<Long> ids) {
    return mongo.removeDocuments(PostStore.COMMENTS, in("post", ids))
        .compose(v -> mongo.removeDocuments(PostStore.LIKES, in("p", ids)))
        .compose(v -> FeedsCore.quietly(dropCopies(ids)));
  }

  private Future<Void> dropCopies(List<Long> ids) {
    return Future.all(ids.stream().map(id -> core.cache().changed(id)).toList()).mapEmpty();
  }

  /** Runs {@code work} over the ids of the user's posts (reposts and deleted ones too), batch by batch, in id order. */
  private Future<Long> eachOwnBatch(long user, long after, long done, Function<List<Long>, Future<Long>> work) {
    JsonObject query = new JsonObject().put("author", user).put("_id", new JsonObject().put("$gt", after));
    return mongo.findWithOptions(PostStore.POSTS, query, new FindOptions().setLimit(BATCH)
            .setSort(new JsonObject().put("_id", 1)).setFields(new JsonObject().put("_id", 1)))
        .compose(docs -> {
          List<Long> ids = PostStore.ids(docs);
          if (ids.isEmpty()) {
            return Future.succeededFuture(done);
          }
          return work.apply(ids).compose(n -> ids.size() < BATCH ? Future.succeededFuture(done + n)
              : eachOwnBatch(user, ids.get(ids.size() - 1), done + n, work));
        });
  }

  private static JsonObject in(String field, List<Long> ids) {
    return new JsonObject().put(field, new JsonObject().put("$in", new JsonArray(ids)));
  }

  private static long removed(MongoClientDeleteResult r) {
    return r == null ? 0 : r.getRemovedCount();
  }

  private static long modified(MongoClientUpdateResult r) {
    return r == null ? 0 : r.getDocModified();
  }
}
