package io.kith.feeds.service;

import io.kith.accounts.api.AccountsService;
import io.kith.feeds.api.FeedsErrors;
import io.kith.feeds.api.events.PostDeleted;
import io.kith.feeds.api.events.PostEdited;
import io.kith.feeds.api.events.ContentHeld;
import io.kith.feeds.api.events.PostPublished;
import io.kith.feeds.api.events.PostReposted;
import io.kith.feeds.service.media.MediaStore;
import io.kith.platform.error.Failures;
import io.kith.platform.events.Event;
import io.kith.platform.metrics.KithMetrics;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

import static io.kith.feeds.service.FeedsCore.HOUR;
import static io.kith.feeds.service.FeedsCore.notFound;
import static io.kith.feeds.service.FeedsCore.quietly;
import static io.kith.feeds.service.FeedsCore.requireUser;

/**
 * Posts: publish, repost, edit, delete, read one post, and which of a batch of posts a viewer may see (for other
 * domains).
 */
final class Posts {

  // the service's log category, as before the features had files of their own (log settings name it)
  private static final Logger LOG = LoggerFactory.getLogger(FeedsServiceImpl.class);
  static final int MAX_VISIBLE_BATCH = 1_000;

  private final FeedsCore core;
  private final PostAccess access;
  private final PostViews views;
  private final PostStore posts;
  private final Timelines timelines;
  private final MediaStore media;
  private final Ties ties;
  private final RelationsService relations;
  private final AccountsService accounts;
  private final ViewerFlags flags;
  private final PostCache cache;
  private final CounterRecount recount;
  private final PostMediaViews mediaViews;

  Posts(FeedsCore core, PostAccess access, PostViews views) {
    this.core = core;
    this.access = access;
    this.views = views;
    this.posts = core.posts();
    this.timelines = core.timelines();
    this.media = core.media();
    this.ties = core.ties();
    this.relations = core.relations();
    this.accounts = core.accounts();
    this.flags = core.flags();
    this.cache = core.cache();
    this.recount = core.recount();
    this.mediaViews = new PostMediaViews(posts, cache, media);
  }

  Future<JsonObject> publish(long actor, JsonObject body) {
    return Failures.guard(() -> {
      requireUser(actor);
      PostDraft draft = PostDraft.parse(body, false);
      return once(actor, draft, stored -> Future.succeededFuture(stored.getLong("repost_of", 0L) == 0),
          () -> core.limit("post", actor, core.settings().postsPerHour(), HOUR, "posts per hour")
              .compose(v -> checkReferences(actor, draft))
              .compose(v -> insert(actor, draft)));
    });
  }

  /**
   * A post whose client id its author used before is a retry (the answer was lost, or the client stopped waiting for
   * it): it is answered with the stored post, with no limit counted, no check and no event of its own. Of two tries
   * at once, one stores the post and the other fails (the unique index, or its media already attached): that one
   * answers the stored post too. Without a client id each call is a new post. A stored post that {@code same} says
   * another request made (a post for a repost, a repost of another post) is 409 {@code client_id_reused}.
   */
  private Future<JsonObject> once(long actor, PostDraft draft, Function<JsonObject, Future<Boolean>> same,
                                  Supplier<Future<JsonObject>> fresh) {
    String clientId = draft.clientId();
    if (clientId == null) {
      return fresh.get();
    }
    Function<JsonObject, Future<JsonObject>> answer = stored -> same.apply(stored).compose(ok -> ok
        ? retried(actor, stored)
        : Failures.fail(FeedsErrors.CLIENT_ID_REUSED, "client_id " + clientId + " was used for another post"));
    return posts.findByClientId(actor, clientId).compose(stored -> stored != null ? answer.apply(stored)
        : fresh.get().recover(e -> posts.findByClientId(actor, clientId).otherwiseEmpty()
            .compose(other -> other == null ? Future.failedFuture(e) : answer.apply(other))));
  }

  /** Whether a stored post is the repost a repost of {@code postId} makes (of it, or of the original it reposts). */
  private Future<Boolean> sameRepost(JsonObject stored, long postId) {
    long original = stored.getLong("repost_of", 0L);
    if (original == 0 || original == postId) {
      return Future.succeededFuture(original == postId);
    }
    return posts.find(postId).map(clicked -> clicked != null && clicked.getLong("repost_of", 0L) == original);
  }

  /** The answer to a retry: the stored post as its author sees it; one deleted or removed since is gone. */
  private Future<JsonObject> retried(long actor, JsonObject stored) {
    return views.hydrate(actor, List.of(stored), false)
        .compose(shown -> shown.isEmpty() ? notFound() : Future.succeededFuture(shown.get(0)));
  }

  /** Attaches the draft's media to a new post id and stores the post; the media are detached if the insert fails. */
  private Future<JsonObject> insert(long actor, PostDraft draft) {
    long id = core.platform().ids().next();
    return media.attach(actor, draft.media(), id).compose(descriptors -> {
      JsonObject doc = newPost(id, actor, draft, 0).put("media", new JsonArray(descriptors));
      return posts.insert(doc)
          .recover(e -> media.detach(id, draft.media()).transform(x -> Future.failedFuture(e)))
          // a video that settled between its attach and this insert updated no post: read it again
          .compose(x -> mediaViews.afterInsert(doc).otherwiseEmpty())
          .compose(x -> published(doc));
    });
  }

  Future<JsonObject> repost(long actor, long postId, JsonObject body) {
    return Failures.guard(() -> {
      requireUser(actor);
      PostDraft draft = PostDraft.parse(body, true);
      return once(actor, draft, stored -> sameRepost(stored, postId),
          () -> core.limit("post", actor, core.settings().postsPerHour(), HOUR, "posts per hour")
          .compose(v -> access.visiblePost(actor, postId))
          .compose(clicked -> {
            long rootId = clicked.getLong("repost_of", 0L);
            return rootId == 0 ? Future.succeededFuture(clicked) : access.visiblePost(actor, rootId);
          })
          .compose(root -> checkReferences(actor, draft).compose(v -> insertRepost(actor, draft, root))));
    });
  }

  /** Stores a repost of {@code root} (always the original, never a repost), then counts and flags it. */
  private Future<JsonObject> insertRepost(long actor, PostDraft draft, JsonObject root) {
    long id = core.platform().ids().next();
    long rootId = root.getLong("_id");
    JsonObject doc = newPost(id, actor, draft, rootId).put("media", new JsonArray());
    return recount.touch(rootId).compose(x -> posts.insert(doc))
        .compose(x -> core.inc(rootId, new JsonObject().put("reposts", 1).put("reposts_total", 1)))
        .compose(x -> quietly(flags.add(ViewerFlags.REPOSTED, actor, rootId, id)))
        .compose(x -> {
          core.emit(new PostReposted(id, rootId, root.getLong("author"), actor));
          return published(doc);
        });
  }

  /**
   * A new post's document. A held one (a content filter holds its text for review) is stored {@code private}, which
   * every read and the fan-out already keep to its author, with the visibility asked for in {@code held.vis} until a
   * moderator releases it ({@link ModeratorRemovals#release}).
   */
  private JsonObject newPost(long id, long actor, PostDraft draft, long repostOf) {
    long now = System.currentTimeMillis();
    JsonObject doc = new JsonObject().put("_id", id).put("author", actor)
        .put("text", draft.text() == null ? "" : draft.text())
        .put("place", draft.place()).put("mentions", new JsonArray(draft.mentions()))
        .put("vis", draft.visibility()).put("aud", draft.audience()).put("repost_of", repostOf)
        .put("created", now).put("likes", 0).put("comments", 0).put("reposts", 0)
        .put("reposts_total", 0);
    if (draft.clientId() != null) {
      doc.put(PostStore.CLIENT_KEY, PostStore.clientKey(actor, draft.clientId()));
    }
    if (draft.heldBy() != 0) {
      doc.put("held", new JsonObject().put("vis", draft.visibility()).put("filter", draft.heldBy()).put("at", now))
          .put("vis", Visibility.PRIVATE);
    }
    return doc;
  }

  /** After the insert: the author's own timelines at once, the event for fan-out, and the author's view. */
  private Future<JsonObject> published(JsonObject doc) {
    long id = doc.getLong("_id");
    long author = doc.getLong("author");
    Future<Void> own = Future.all(timelines.push(Timelines.OWN, List.of(author), id),
            timelines.push(Timelines.HOME, List.of(author), id), timelines.push(Timelines.MOMENTS, List.of(author), id))
        .<Void>mapEmpty()
        .recover(e -> {
          LOG.warn("Could not add post {} to its author's timelines: {}", id, e.toString());
          return Future.succeededFuture();
        });
    return own.compose(v -> {
      core.platform().metrics().counter(KithMetrics.POSTS_PUBLISHED, "Posts published").increment();
      JsonObject held = doc.getJsonObject("held");
      core.emit(new PostPublished(id, author, doc.getString("vis"), doc.getLong("repost_of"),
          Event.longs(doc.getJsonArray("mentions")), held != null));
      if (held != null) {
        core.emit(new ContentHeld("post", id, author, id, held.getLong("filter")));
      }
      return views.hydrate(author, List.of(doc), false).map(list -> list.get(0));
    });
  }

  /**
   * Mentioned users must exist, and a user in a block with the actor counts as unknown (absent to the actor
   * everywhere else); audience circles must be the actor's own.
   */
  private Future<Void> checkReferences(long actor, PostDraft draft) {
    Future<Void> mentions = draft.mentions().isEmpty() ? Future.succeededFuture()
        : Future.all(accounts.summaries(actor, draft.mentions()), ties.of(actor, draft.mentions(), false))
            .compose(r -> {
              JsonObject found = r.resultAt(0);
              Map<Long, Visibility.Tie> t = r.resultAt(1);
              List<Long> unknown = draft.mentions().stream().filter(id -> !found.containsKey(Long.toString(id))
                  || t.getOrDefault(id, Visibility.Tie.NONE).blocked()).toList();
              return unknown.isEmpty() ? Future.succeededFuture()
                  : Future.failedFuture(PostDraft.invalid("mentions", "unknown users mentioned: " + unknown));
            });
    JsonArray groups = draft.audience() == null ? new JsonArray() : draft.audience().getJsonArray(PostDraft.GROUPS);
    Future<Void> audience = groups.isEmpty() ? Future.succeededFuture()
        : relations.groups(actor).compose(mine -> {
          Set<Long> own = new HashSet<>();
          mine.getJsonArray("items", new JsonArray()).forEach(g -> own.add(((JsonObject) g).getLong("id")));
          List<Long> unknown = new ArrayList<>();
          groups.forEach(g -> {
            long gid = ((Number) g).longValue();
            if (!own.contains(gid)) {
              unknown.add(gid);
            }
          });
          return unknown.isEmpty() ? Future.succeededFuture()
              : Future.failedFuture(PostDraft.invalid("audience.circles", "not your circles: " + unknown));
        });
    return Future.all(mentions, audience).mapEmpty();
  }

  Future<JsonObject> edit(long actor, long postId, JsonObject changes) {
    return Failures.guard(() -> {
      requireUser(actor);
      PostDraft edit = PostDraft.parseEdit(changes);
      return core.limit("edit", actor, core.settings().editsPerHour(), HOUR, "edits per hour")
          .compose(x -> access.authored(actor, postId))
          .compose(post -> post.containsKey("held")
              ? Future.failedFuture(Failures.of(FeedsErrors.POST_HELD, "this post is held for review"))
              : applyEdit(actor, postId, changes, edit, post));
    });
  }

  /** Applies an edit to the actor's own post: the merged visibility and audience are checked as on publish. */
  private Future<JsonObject> applyEdit(long actor, long postId, JsonObject changes, PostDraft edit, JsonObject post) {
    String visibility = edit.visibility() != null ? edit.visibility() : post.getString("vis");
    boolean audienceApplies = Visibility.ONLY.equals(visibility) || Visibility.EXCEPT.equals(visibility);
    JsonObject audience = edit.audience() != null ? edit.audience()
        : audienceApplies ? post.getJsonObject("aud", PostDraft.emptyAudience()) : PostDraft.emptyAudience();
    PostDraft merged = new PostDraft(edit.text(), List.of(), edit.place(), List.of(), visibility, audience, 0, null);
    merged.checkAudience();
    String text = edit.text() != null ? edit.text() : post.getString("text", "");
    boolean hasMedia = !post.getJsonArray("media", new JsonArray()).isEmpty();
    if (text.isBlank() && !hasMedia && post.getLong("repost_of", 0L) == 0) {
      return Future.failedFuture(PostDraft.invalid("text", "a post needs text or media"));
    }
    JsonObject set = new JsonObject().put("vis", visibility).put("aud", audience)
        .put("edited", System.currentTimeMillis());
    if (edit.text() != null) {
      set.put("text", edit.text());
    }
    if (changes.containsKey("place")) {
      set.put("place", edit.place());
    }
    boolean audienceChanged = !visibility.equals(post.getString("vis"))
        || !audience.equals(post.getJsonObject("aud", PostDraft.emptyAudience()));
    return checkReferences(actor, merged)
        // who may see it changes: the copy goes first, or nothing changes (see beforeNarrowing)
        .compose(v -> audienceChanged ? beforeNarrowing(postId) : Future.<Void>succeededFuture())
        .compose(v -> posts.update(postId, actor, set))
        .compose(updated -> quietly(cache.changed(postId)).map(updated))
        .onSuccess(updated -> {
          if (updated != null && audienceChanged) {
            core.emit(new PostEdited(postId, actor, visibility));
          }
        })
        .compose(updated -> updated == null ? notFound() : views.hydrate(actor, List.of(updated), false)
            .map(list -> list.get(0)));
  }

  Future<Void> delete(long actor, long postId) {
    return Failures.guard(() -> {
      requireUser(actor);
      return posts.find(postId).compose(post -> delete(actor, postId, post));
    });
  }

  /** Deletes the post as read: someone else's is refused, an already deleted one is done. */
  private Future<Void> delete(long actor, long postId, JsonObject post) {
    if (post == null) {
      return notFound();
    }
    if (post.getLong("author") != actor) {
      return post.getBoolean("deleted", false) ? notFound() : access.forbiddenIfVisible(actor, post);
    }
    if (post.getBoolean("deleted", false)) {
      return Future.succeededFuture();
    }
    long original = post.getLong("repost_of", 0L);
    return (original == 0 ? Future.<Void>succeededFuture() : recount.touch(original))
        .compose(x -> beforeNarrowing(postId))
        .compose(x -> posts.markDeleted(postId, actor, System.currentTimeMillis()))
        .compose(before -> quietly(cache.changed(postId)).map(before))
        .compose(before -> deleted(actor, postId, before));
  }

  /**
   * Drops a post's cached copy before a change that narrows who may see it (delete, audience edit, removal), failing
   * the change when Redis does not take the drop. Reads, other modules' visibility checks ({@code visiblePosts}) and
   * media access among them, trust the copy, and the drop after the change is only best effort: were it the only one
   * and lost, the old copy would show the post for up to {@code post-cache-ttl-seconds}. With this one first, a copy
   * can outlive the change only if a reader refilled it in the moments between the two drops and the second was lost.
   */
  static Future<Void> beforeNarrowing(PostCache cache, long postId) {
    return cache.changed(postId);
  }

  private Future<Void> beforeNarrowing(long postId) {
    return beforeNarrowing(cache, postId);
  }

  /**
   * After the delete marked the post ({@code before}: the post as it was, or null when another call marked it
   * first): the original's counters and the actor's reposted flag, its media, the author's timelines, the event.
   * A moderator's removal ({@link ModeratorRemovals}) ends the same way.
   */
  Future<Void> deleted(long actor, long postId, JsonObject before) {
    if (before == null) {
      return Future.succeededFuture();
    }
    long root = before.getLong("repost_of", 0L);
    List<Long> mediaIds = new ArrayList<>();
    before.getJsonArray("media", new JsonArray()).forEach(m -> mediaIds.add(((JsonObject) m).getLong("id")));
    Future<Void> counters = root == 0 ? Future.succeededFuture()
        : core.inc(root, new JsonObject().put("reposts", -1))
            .compose(v -> posts.repostedAmong(actor, List.of(root)))
            .compose(still -> still.isEmpty() ? quietly(flags.remove(ViewerFlags.REPOSTED, actor, root))
                : Future.succeededFuture());
    return counters
        .compose(v -> media.detach(postId, mediaIds))
        .compose(v -> Future.all(timelines.remove(Timelines.OWN, actor, List.of(postId)),
            timelines.remove(Timelines.HOME, actor, List.of(postId)),
            timelines.remove(Timelines.MOMENTS, actor, List.of(postId))))
        .<Void>mapEmpty()
        .onSuccess(v -> core.emit(new PostDeleted(postId, actor, root)));
  }

  Future<JsonObject> post(long viewer, long postId) {
    return Failures.guard(() -> views.fetch(viewer, List.of(postId)).compose(found -> {
      JsonObject post = found.docs().get(postId);
      return post == null ? notFound() : views.hydrate(viewer, List.of(post), false, Integer.MAX_VALUE, found, null)
          .compose(list -> list.isEmpty() ? notFound() : Future.succeededFuture(list.get(0)));
    }));
  }

  Future<JsonObject> visiblePosts(long viewer, List<Long> postIds) {
    return Failures.guard(() -> {
      if (postIds == null || postIds.size() > MAX_VISIBLE_BATCH) {
        throw PostDraft.invalid("postIds", "1 to " + MAX_VISIBLE_BATCH + " post ids");
      }
      // the rules (author, vis, aud, deleted) come from the post cache: every change that can change the answer
      // (edit, delete, removal, release, erasure) drops the copy before it returns; ties are read live
      return cache.getAll(new LinkedHashSet<>(postIds)).compose(found -> access.visibleDocs(viewer,
          new ArrayList<>(found.values()), false)).map(visible -> {
            Set<Long> ids = new HashSet<>(PostStore.ids(visible));
            JsonArray items = new JsonArray();
            new LinkedHashSet<>(postIds).stream().filter(ids::contains).forEach(items::add);
            return new JsonObject().put("items", items);
          });
    });
  }
}
