package io.kith.feeds.service;

import io.kith.accounts.api.AccountsService;
import io.kith.feeds.api.FeedsErrors;
import io.kith.feeds.api.FeedsEvents;
import io.kith.feeds.api.FeedsService;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.text.UserText;
import io.kith.platform.page.VisiblePages;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

/** The feeds rules; see {@link FeedsService} and the module README. */
final class FeedsServiceImpl implements FeedsService {

  private static final Logger LOG = LoggerFactory.getLogger(FeedsServiceImpl.class);
  static final int MAX_LIMIT = 100;
  static final int MAX_COMMENT = 2_000;
  static final int MAX_VISIBLE_BATCH = 1_000;
  /** Rounds of reading further when visibility filtering leaves a liked-posts page short. */
  private static final int MAX_ROUNDS = 5;
  /** Most candidates one timeline page looks at before it gives up filling the page. */
  static final int SCAN_BUDGET = 1_000;
  /** Most candidates read in one round. */
  private static final int MAX_FETCH = 500;
  private static final long MINUTE = 60_000;
  private static final long HOUR = 60 * MINUTE;

  private final Platform platform;
  private final FeedsSettings settings;
  private final PostStore posts;
  private final Timelines timelines;
  private final MediaStore media;
  private final Ties ties;
  private final RelationsService relations;
  private final AccountsService accounts;
  private final RateLimiter limiter;
  private final ViewerFlags flags;
  private final PostCache cache;
  private final CounterRecount recount;

  FeedsServiceImpl(Platform platform, FeedsSettings settings, PostStore posts, Timelines timelines, MediaStore media,
                   RelationsService relations, AccountsService accounts) {
    this.platform = platform;
    this.settings = settings;
    this.posts = posts;
    this.timelines = timelines;
    this.media = media;
    this.relations = relations;
    this.ties = new Ties(relations);
    this.accounts = accounts;
    this.limiter = new RateLimiter(platform.redis());
    this.flags = new ViewerFlags(platform.redis());
    this.cache = new PostCache(platform.redis(), posts);
    this.recount = new CounterRecount(platform.redisApi(), posts, cache, settings.recountSettleSeconds() * 1_000L);
  }

  /** The counter recount this service marks posts for (the verticle runs its rounds). */
  CounterRecount recount() {
    return recount;
  }

  // ---------------------------------------------------------------- posts

  @Override
  public Future<JsonObject> publish(long actor, JsonObject body) {
    return Failures.guard(() -> {
      requireUser(actor);
      PostDraft draft = PostDraft.parse(body, false);
      return limit("post", actor, settings.postsPerHour(), HOUR, "posts per hour")
          .compose(v -> checkReferences(actor, draft))
          .compose(v -> {
            long id = platform.ids().next();
            return media.attach(actor, draft.media(), id).compose(descriptors -> {
              JsonObject doc = newPost(id, actor, draft, 0).put("media", new JsonArray(descriptors));
              return posts.insert(doc)
                  .recover(e -> media.detach(id, draft.media()).transform(x -> Future.failedFuture(e)))
                  .compose(x -> published(doc));
            });
          });
    });
  }

  @Override
  public Future<JsonObject> repost(long actor, long postId, JsonObject body) {
    return Failures.guard(() -> {
      requireUser(actor);
      PostDraft draft = PostDraft.parse(body, true);
      return limit("post", actor, settings.postsPerHour(), HOUR, "posts per hour")
          .compose(v -> visiblePost(actor, postId))
          .compose(clicked -> {
            long rootId = clicked.getLong("repost_of", 0L);
            return rootId == 0 ? Future.succeededFuture(clicked) : visiblePost(actor, rootId);
          })
          .compose(root -> checkReferences(actor, draft).compose(v -> {
            long id = platform.ids().next();
            long rootId = root.getLong("_id");
            JsonObject doc = newPost(id, actor, draft, rootId).put("media", new JsonArray());
            return recount.touch(rootId).compose(x -> posts.insert(doc))
                .compose(x -> inc(rootId, new JsonObject().put("reposts", 1).put("reposts_total", 1)))
                .compose(x -> quietly(flags.add(ViewerFlags.REPOSTED, actor, rootId, id)))
                .compose(x -> {
                  emit(FeedsEvents.POST_REPOSTED, new JsonObject().put("post", id).put("original", rootId)
                      .put("original_author", root.getLong("author")).put("from", actor));
                  return published(doc);
                });
          }));
    });
  }

  private JsonObject newPost(long id, long actor, PostDraft draft, long repostOf) {
    return new JsonObject().put("_id", id).put("author", actor).put("text", draft.text() == null ? "" : draft.text())
        .put("place", draft.place()).put("mentions", new JsonArray(draft.mentions()))
        .put("vis", draft.visibility()).put("aud", draft.audience()).put("repost_of", repostOf)
        .put("created", System.currentTimeMillis()).put("likes", 0).put("comments", 0).put("reposts", 0)
        .put("reposts_total", 0);
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
      emit(FeedsEvents.POST_PUBLISHED, new JsonObject().put("post", id).put("author", author)
          .put("visibility", doc.getString("vis")).put("repost_of", doc.getLong("repost_of"))
          .put("mentions", doc.getJsonArray("mentions")));
      return hydrate(author, List.of(doc), false).map(views -> views.get(0));
    });
  }

  /**
   * Mentioned users must exist, and a user in a block with the actor counts as unknown (absent to the actor
   * everywhere else); audience groups must be the actor's own.
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
    JsonArray groups = draft.audience() == null ? new JsonArray() : draft.audience().getJsonArray("groups");
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
              : Future.failedFuture(PostDraft.invalid("audience.groups", "not your friend groups: " + unknown));
        });
    return Future.all(mentions, audience).mapEmpty();
  }

  @Override
  public Future<JsonObject> edit(long actor, long postId, JsonObject changes) {
    return Failures.guard(() -> {
      requireUser(actor);
      PostDraft edit = PostDraft.parseEdit(changes);
      return limit("edit", actor, settings.editsPerHour(), HOUR, "edits per hour")
          .compose(x -> authored(actor, postId)).compose(post -> {
        String visibility = edit.visibility() != null ? edit.visibility() : post.getString("vis");
        boolean audienceApplies = Visibility.ONLY.equals(visibility) || Visibility.EXCEPT.equals(visibility);
        JsonObject audience = edit.audience() != null ? edit.audience()
            : audienceApplies ? post.getJsonObject("aud", PostDraft.emptyAudience()) : PostDraft.emptyAudience();
        PostDraft merged = new PostDraft(edit.text(), List.of(), edit.place(), List.of(), visibility, audience);
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
            .compose(v -> posts.update(postId, actor, set))
            .compose(updated -> quietly(cache.changed(postId)).map(updated))
            .onSuccess(updated -> {
              if (updated != null && audienceChanged) {
                emit(FeedsEvents.POST_EDITED, new JsonObject().put("post", postId).put("author", actor)
                    .put("visibility", visibility));
              }
            })
            .compose(updated -> updated == null ? notFound() : hydrate(actor, List.of(updated), false)
                .map(views -> views.get(0)));
      });
    });
  }

  @Override
  public Future<Void> delete(long actor, long postId) {
    return Failures.guard(() -> {
      requireUser(actor);
      return posts.find(postId).compose(post -> {
        if (post == null) {
          return notFound();
        }
        if (post.getLong("author") != actor) {
          return post.getBoolean("deleted", false) ? notFound() : forbiddenIfVisible(actor, post);
        }
        if (post.getBoolean("deleted", false)) {
          return Future.succeededFuture();
        }
        long original = post.getLong("repost_of", 0L);
        return (original == 0 ? Future.<Void>succeededFuture() : recount.touch(original))
            .compose(x -> posts.markDeleted(postId, actor, System.currentTimeMillis()))
            .compose(before -> quietly(cache.changed(postId)).map(before)).compose(before -> {
          if (before == null) {
            return Future.succeededFuture();
          }
          long root = before.getLong("repost_of", 0L);
          List<Long> mediaIds = new ArrayList<>();
          before.getJsonArray("media", new JsonArray()).forEach(m -> mediaIds.add(((JsonObject) m).getLong("id")));
          Future<Void> counters = root == 0 ? Future.succeededFuture()
              : inc(root, new JsonObject().put("reposts", -1))
                  .compose(v -> posts.repostedAmong(actor, List.of(root)))
                  .compose(still -> still.isEmpty() ? quietly(flags.remove(ViewerFlags.REPOSTED, actor, root))
                      : Future.succeededFuture());
          return counters
              .compose(v -> media.detach(postId, mediaIds))
              .compose(v -> Future.all(timelines.remove(Timelines.OWN, actor, List.of(postId)),
                  timelines.remove(Timelines.HOME, actor, List.of(postId)),
                  timelines.remove(Timelines.MOMENTS, actor, List.of(postId))))
              .<Void>mapEmpty()
              .onSuccess(v -> emit(FeedsEvents.POST_DELETED, new JsonObject().put("post", postId)
                  .put("author", actor).put("repost_of", root)));
        });
      });
    });
  }

  @Override
  public Future<JsonObject> post(long viewer, long postId) {
    return Failures.guard(() -> fetch(viewer, List.of(postId)).compose(found -> {
      JsonObject post = found.docs().get(postId);
      return post == null ? notFound() : hydrate(viewer, List.of(post), false, Integer.MAX_VALUE, found, null)
          .compose(views -> views.isEmpty() ? notFound() : Future.succeededFuture(views.get(0)));
    }));
  }

  @Override
  public Future<JsonObject> visiblePosts(long viewer, List<Long> postIds) {
    return Failures.guard(() -> {
      if (postIds == null || postIds.size() > MAX_VISIBLE_BATCH) {
        throw PostDraft.invalid("postIds", "1 to " + MAX_VISIBLE_BATCH + " post ids");
      }
      return posts.findRules(new LinkedHashSet<>(postIds)).compose(found -> visibleDocs(viewer,
          new ArrayList<>(found.values()), false)).map(visible -> {
            Set<Long> ids = new HashSet<>(PostStore.ids(visible));
            JsonArray items = new JsonArray();
            new LinkedHashSet<>(postIds).stream().filter(ids::contains).forEach(items::add);
            return new JsonObject().put("items", items);
          });
    });
  }

  // ---------------------------------------------------------------- timelines

  /** Reads candidate post ids below {@code maxId} and above {@code sinceId}, newest first. */
  private interface Source {
    Future<List<Long>> read(long maxId, long sinceId, int count);
  }

  @Override
  public Future<JsonObject> home(long viewer, long maxId, long sinceId, int limit) {
    return logged("home", Failures.guard(() -> {
      requireUser(viewer);
      checkPage(maxId, sinceId, limit);
      return celebrityAuthors(viewer, false).compose(celebs -> page(viewer, timeline(Timelines.HOME, viewer,
          () -> rebuild(viewer, ties.following(viewer)), celebs), maxId, sinceId, limit, true));
    }));
  }

  @Override
  public Future<JsonObject> moments(long viewer, long maxId, long sinceId, int limit) {
    return Failures.guard(() -> {
      requireUser(viewer);
      checkPage(maxId, sinceId, limit);
      return celebrityAuthors(viewer, true).compose(celebs -> page(viewer, timeline(Timelines.MOMENTS, viewer,
          () -> rebuild(viewer, ties.friends(viewer)), celebs), maxId, sinceId, limit, true));
    });
  }

  @Override
  public Future<JsonObject> userPosts(long viewer, long userId, long maxId, long sinceId, int limit) {
    return Failures.guard(() -> {
      checkPage(maxId, sinceId, limit);
      if (viewer == userId) {
        Source own = (max, since, count) -> posts.byAuthors(List.of(userId), max, since, count).map(PostStore::ids);
        return page(viewer, own, maxId, sinceId, limit, false);
      }
      return ties.of(viewer, List.of(userId), true).compose(t -> {
        Visibility.Tie tie = t.getOrDefault(userId, Visibility.Tie.NONE);
        if (viewer != 0 && (tie.blocked() || tie.hiddenFrom())) {
          // the page of an author with no post this viewer may see, since_id kept as such a page keeps it
          return Future.succeededFuture(new JsonObject().put("items", new JsonArray()).put("next_max_id", null)
              .put("newest_id", sinceId > 0 ? sinceId : null));
        }
        // only what this viewer may see is read, so the page and its cursor never touch a hidden post
        JsonArray visible = Visibility.visibleTo(viewer, tie);
        Source source = (max, since, count) -> posts.byAuthorVisible(userId, visible, max, since, count)
            .map(PostStore::ids);
        return page(viewer, source, maxId, sinceId, limit, false);
      });
    });
  }

  @Override
  public Future<JsonObject> latest(long viewer, long maxId, long sinceId, int limit) {
    return Failures.guard(() -> {
      checkPage(maxId, sinceId, limit);
      Source source = (max, since, count) -> posts.latestPublic(max, since, count).map(PostStore::ids);
      return page(viewer, source, maxId, sinceId, limit, true);
    });
  }

  @Override
  public Future<JsonObject> likedPosts(long viewer, long maxId, int limit) {
    return Failures.guard(() -> {
      requireUser(viewer);
      checkPage(maxId, 0, limit);
      return likedRound(viewer, maxId, limit, new ArrayList<>(), 0);
    });
  }

  private Future<JsonObject> likedRound(long viewer, long maxId, int limit, List<JsonObject> items, int round) {
    int fetch = limit + 10;
    return posts.likesBy(viewer, maxId, fetch).compose(likes -> {
      List<Long> postIds = likes.stream().map(l -> l.getLong("p")).toList();
      return cache.getAll(postIds).compose(found -> hydrate(viewer, new ArrayList<>(found.values()), false))
          .compose(views -> {
            Map<Long, JsonObject> byId = new LinkedHashMap<>();
            views.forEach(v -> byId.put(v.getLong("id"), v));
            long last = maxId;
            boolean stoppedEarly = false;
            for (JsonObject like : likes) {
              if (items.size() == limit) {
                stoppedEarly = true;
                break;
              }
              last = like.getLong("_id");
              JsonObject view = byId.get(like.getLong("p"));
              if (view != null) {
                items.add(view.copy().put("liked_at", IdGenerator.timeOf(last)));
              }
            }
            boolean exhausted = likes.size() < fetch && !stoppedEarly;
            if (items.size() < limit && !exhausted && round + 1 < MAX_ROUNDS) {
              return likedRound(viewer, last, limit, items, round + 1);
            }
            return Future.succeededFuture(new JsonObject().put("items", new JsonArray(items))
                .put("next_max_id", exhausted || last <= 0 ? null : last)
                .put("newest_id", null));
          });
    });
  }

  @Override
  public Future<JsonObject> reposts(long viewer, long postId, long maxId, int limit) {
    return Failures.guard(() -> {
      checkPage(maxId, 0, limit);
      return visiblePost(viewer, postId).compose(post -> {
        Source source = (max, since, count) -> posts.repostsOf(postId, max, count).map(PostStore::ids);
        return page(viewer, source, maxId, 0, limit, false);
      });
    });
  }

  /**
   * A source reading a Redis timeline merged with the recent posts of celebrities the viewer follows. Its first read
   * also renews the timeline's expiry in the same round trip, and builds the timeline when it is missing.
   */
  private Source timeline(String kind, long viewer, Timelines.Loader rebuild, List<Long> celebrities) {
    AtomicBoolean opened = new AtomicBoolean();
    return (max, since, count) -> timelines.read(kind, viewer, opened.getAndSet(true) ? null : rebuild, celebrities,
        max, since, count);
  }

  /** Celebrities (not fanned out) whose posts belong in the viewer's home (followed) or moments (friends). */
  private Future<List<Long>> celebrityAuthors(long viewer, boolean friendsOnly) {
    return timelines.celebrities().compose(celebs -> {
      List<Long> others = celebs.stream().filter(c -> c != viewer).toList();
      if (others.isEmpty()) {
        return Future.succeededFuture(List.of());
      }
      return ties.flags(viewer, others).compose(rel -> {
        List<Long> mine = others.stream().filter(c -> {
          JsonObject r = rel.getOrDefault(c, new JsonObject());
          return friendsOnly ? r.getBoolean("friend", false) : r.getBoolean("following", false);
        }).toList();
        List<Future<Void>> own = mine.stream()
            .map(c -> timelines.ensure(Timelines.OWN, c, () -> ownPosts(c))).toList();
        return Future.all(own).map(v -> mine);
      });
    });
  }

  /** An author's recent post ids from the record (their own timeline). */
  Future<List<Long>> ownPosts(long author) {
    return posts.byAuthors(List.of(author), 0, 0, settings.timelineCap()).map(PostStore::ids);
  }

  /** The post ids a missing home or moments timeline holds: the authors' recent posts the viewer may see. */
  private Future<List<Long>> rebuild(long viewer, Future<List<Long>> authorsFuture) {
    return authorsFuture.compose(authors -> {
      List<Long> all = new ArrayList<>(authors);
      all.add(viewer);
      List<Future<List<JsonObject>>> parts = new ArrayList<>();
      for (int i = 0; i < all.size(); i += Ties.BATCH) {
        parts.add(posts.byAuthors(all.subList(i, Math.min(all.size(), i + Ties.BATCH)), 0, 0,
            settings.timelineCap()));
      }
      return Future.all(parts).compose(done -> {
        List<JsonObject> docs = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
          docs.addAll(done.<List<JsonObject>>resultAt(i));
        }
        docs.sort(Comparator.comparing((JsonObject d) -> d.getLong("_id")).reversed());
        List<JsonObject> newest = docs.subList(0, Math.min(docs.size(), settings.timelineCap()));
        return visibleDocs(viewer, newest, false).map(PostStore::ids);
      });
    });
  }

  /**
   * One page: reads candidates from the source, keeps those the viewer may see (and, on timelines, does not mute),
   * and reads further while the page is short, reading more candidates each round, until {@link #SCAN_BUDGET}
   * candidates were looked at. The cursor is always a post the viewer was shown (never a hidden candidate: that would
   * reveal a hidden post's id and so its time); a stretch of more hidden posts than the budget ends the list early.
   */
  private Future<JsonObject> page(long viewer, Source source, long maxId, long sinceId, int limit, boolean timeline) {
    return round(viewer, source, maxId, sinceId, limit, timeline, new ArrayList<>(), 0, 0);
  }

  private Future<JsonObject> round(long viewer, Source source, long maxId, long sinceId, int limit, boolean timeline,
                                   List<JsonObject> items, int round, int scanned) {
    int fetch = Math.min(MAX_FETCH, (limit + Math.max(10, limit / 2)) << round);
    return source.read(maxId, sinceId, fetch).compose(ids -> {
      // views only for what the page still lacks: the loop below stops there
      int want = limit - items.size();
      Early early = early(viewer, ids, want);
      // the originals of reposts this node knows are read in the same batch
      Set<Long> reads = new LinkedHashSet<>(ids);
      ids.forEach(id -> {
        Long original = cache.knownOriginal(id);
        if (original != null && original != 0) {
          reads.add(original);
        }
      });
      return fetch(viewer, reads).compose(found -> {
        List<JsonObject> docs = new ArrayList<>();
        ids.forEach(id -> {
          JsonObject d = found.docs().get(id);
          if (d != null) {
            docs.add(d);
          }
        });
        return hydrate(viewer, docs, timeline, want, found, early);
      }).compose(views -> {
        Map<Long, JsonObject> byId = new LinkedHashMap<>();
        views.forEach(v -> byId.put(v.getLong("id"), v));
        long last = maxId;
        boolean stoppedEarly = false;
        for (long id : ids) {
          if (items.size() == limit) {
            stoppedEarly = true;
            break;
          }
          last = id;
          JsonObject view = byId.get(id);
          if (view != null) {
            items.add(view);
          }
        }
        boolean exhausted = ids.size() < fetch && !stoppedEarly;
        int seen = scanned + ids.size();
        if (items.size() < limit && !exhausted && seen < SCAN_BUDGET) {
          return round(viewer, source, last, sinceId, limit, timeline, items, round + 1, seen);
        }
        JsonObject page = new JsonObject().put("items", new JsonArray(items));
        page.put("next_max_id", exhausted || items.isEmpty() ? null : items.get(items.size() - 1).getLong("id"));
        page.put("newest_id", items.isEmpty() ? (sinceId > 0 ? sinceId : null) : items.get(0).getLong("id"));
        return Future.succeededFuture(page);
      });
    });
  }

  /**
   * Questions about the candidates' authors asked before their documents are read, for the authors this node knows
   * (a post's author never changes): the viewer's ties to them, and the summaries of the authors of the first
   * {@code want} candidates. Visibility is still decided from the documents as read and these ties, asked now.
   */
  private record Early(Set<Long> authors, Future<Map<Long, JsonObject>> ties, Set<Long> summarized,
                       Future<JsonObject> summaries) {
  }

  private Early early(long viewer, List<Long> ids, int want) {
    Set<Long> authors = new LinkedHashSet<>();
    Set<Long> first = new LinkedHashSet<>();
    for (int i = 0; i < ids.size(); i++) {
      Long author = cache.knownAuthor(ids.get(i));
      if (author != null) {
        authors.add(author);
        if (i < want) {
          first.add(author);
        }
        Long original = cache.knownOriginal(ids.get(i));
        Long originalAuthor = original == null || original == 0 ? null : cache.knownAuthor(original);
        if (originalAuthor != null) {
          authors.add(originalAuthor);
          if (i < want) {
            first.add(originalAuthor);
          }
        }
      }
    }
    authors.remove(viewer);
    if (authors.isEmpty() && first.isEmpty()) {
      return null;
    }
    Future<Map<Long, JsonObject>> flags = viewer == 0 || authors.isEmpty() ? Future.succeededFuture(Map.of())
        : ties.flags(viewer, authors);
    return new Early(authors, flags, first, summaries(viewer, first));
  }

  // ---------------------------------------------------------------- comments

  @Override
  public Future<JsonObject> comment(long actor, long postId, JsonObject body) {
    return Failures.guard(() -> {
      requireUser(actor);
      JsonObject b = body == null ? new JsonObject() : body;
      for (String f : b.fieldNames()) {
        if (!Set.of("text", "reply_to").contains(f)) {
          throw PostDraft.invalid(f, "unknown field " + f);
        }
      }
      Object t = b.getValue("text");
      if (!(t instanceof String text) || text.isBlank() || text.codePointCount(0, text.length()) > MAX_COMMENT) {
        throw PostDraft.invalid("text", "a comment is 1 to " + MAX_COMMENT + " characters");
      }
      UserText.lines("text", text);
      Object r = b.getValue("reply_to");
      if (r != null && (!(r instanceof Number n) || n.longValue() <= 0)) {
        throw PostDraft.invalid("reply_to", "reply_to must be a comment id");
      }
      long replyTo = r == null ? 0 : ((Number) r).longValue();
      return limit("comment", actor, settings.commentsPerMinute(), MINUTE, "comments per minute")
          .compose(v -> visiblePost(actor, postId))
          .compose(post -> (replyTo == 0 ? Future.succeededFuture((JsonObject) null) : shownComment(actor, replyTo))
              .compose(parent -> {
                if (replyTo != 0 && (parent == null || parent.getLong("post") != postId)) {
                  return Future.failedFuture(Failures.field(FeedsErrors.COMMENT_NOT_FOUND, "reply_to",
                      "no such comment on this post"));
                }
                long id = platform.ids().next();
                JsonObject doc = new JsonObject().put("_id", id).put("post", postId).put("author", actor)
                    .put("text", text).put("reply_to", replyTo)
                    .put("reply_to_author", parent == null ? 0L : parent.getLong("author"))
                    .put("created", System.currentTimeMillis());
                return recount.touch(postId).compose(x -> posts.insertComment(doc))
                    .compose(x -> inc(postId, new JsonObject().put("comments", 1)))
                    .compose(x -> {
                      emit(FeedsEvents.COMMENT_ADDED, new JsonObject().put("comment", id).put("post", postId)
                          .put("post_author", post.getLong("author")).put("from", actor).put("reply_to", replyTo)
                          .put("reply_to_author", doc.getLong("reply_to_author")));
                      return commentViews(actor, List.of(doc)).map(list -> list.get(0));
                    });
              }));
    });
  }

  @Override
  public Future<Void> deleteComment(long actor, long commentId) {
    return Failures.guard(() -> {
      requireUser(actor);
      return posts.findComment(commentId).compose(c -> {
        if (c == null) {
          return Future.failedFuture(Failures.of(FeedsErrors.COMMENT_NOT_FOUND, "no such comment"));
        }
        long postId = c.getLong("post");
        return posts.find(postId).compose(post -> {
          if (post == null || post.getBoolean("deleted", false)) {
            return Future.failedFuture(Failures.of(FeedsErrors.COMMENT_NOT_FOUND, "no such comment"));
          }
          long commenter = c.getLong("author");
          long postAuthor = post.getLong("author");
          if (actor != commenter && actor != postAuthor) {
            return visibleDocs(actor, List.of(post), false).compose(v -> v.isEmpty()
                ? Future.failedFuture(Failures.of(FeedsErrors.COMMENT_NOT_FOUND, "no such comment"))
                : Future.failedFuture(Failures.of(FeedsErrors.NOT_AUTHOR,
                    "only the commenter or the post's author may delete a comment")));
          }
          return recount.touch(postId).compose(x -> posts.removeComment(commentId))
              .compose(removed -> !removed ? Future.succeededFuture()
              : inc(postId, new JsonObject().put("comments", -1)).onSuccess(x ->
                  emit(FeedsEvents.COMMENT_DELETED, new JsonObject().put("comment", commentId).put("post", postId)
                      .put("post_author", postAuthor).put("from", commenter).put("by", actor))));
        });
      });
    });
  }

  @Override
  public Future<JsonObject> comments(long viewer, long postId, long maxId, long sinceId, int limit) {
    return Failures.guard(() -> {
      checkPage(maxId, sinceId, limit);
      // pages and both cursors come from the comments shown only: a cursor at a left-out comment would tell the
      // viewer that a user in a block with them commented, and at what time
      VisiblePages.Rows<JsonObject, Long> rows = (before, count) ->
          posts.comments(postId, before == null ? 0 : before, sinceId, count);
      return visiblePost(viewer, postId).compose(post -> VisiblePages.read(rows, docs -> commentViews(viewer, docs),
              d -> d.getLong("_id"), v -> v.getLong("id"), maxId == 0 ? null : maxId, limit, MAX_HIDDEN_SCAN))
          .map(page -> new JsonObject()
              .put("items", new JsonArray(page.items()))
              .put("next_max_id", page.next())
              .put("newest_id", page.items().isEmpty() ? (sinceId > 0 ? sinceId : null)
                  : page.items().get(0).getLong("id")));
    });
  }

  /** Most comments or likes one page reads past those of users in a block with the viewer. */
  static final int MAX_HIDDEN_SCAN = 5_000;

  /**
   * The comment when the viewer may see it in a list; null when it is missing or by a user in a block with the viewer,
   * so that replying to it is comment_not_found either way.
   */
  private Future<JsonObject> shownComment(long viewer, long commentId) {
    return posts.findComment(commentId).compose(c -> c == null ? Future.succeededFuture((JsonObject) null)
        : ties.of(viewer, List.of(c.getLong("author")), false).map(t ->
            t.getOrDefault(c.getLong("author"), Visibility.Tie.NONE).blocked() ? null : c));
  }

  /** Comment views, without those of users in a block with the viewer. */
  private Future<List<JsonObject>> commentViews(long viewer, List<JsonObject> docs) {
    Set<Long> users = new LinkedHashSet<>();
    docs.forEach(d -> {
      users.add(d.getLong("author"));
      if (d.getLong("reply_to_author", 0L) != 0) {
        users.add(d.getLong("reply_to_author"));
      }
    });
    return Future.all(ties.of(viewer, users, false), summaries(viewer, users)).map(all -> {
      Map<Long, Visibility.Tie> t = all.resultAt(0);
      JsonObject sums = all.resultAt(1);
      List<JsonObject> out = new ArrayList<>();
      for (JsonObject d : docs) {
        long author = d.getLong("author");
        JsonObject summary = sums.getJsonObject(Long.toString(author));
        if (summary == null || t.getOrDefault(author, Visibility.Tie.NONE).blocked()) {
          continue;
        }
        JsonObject reply = null;
        long replyTo = d.getLong("reply_to", 0L);
        long replyAuthor = d.getLong("reply_to_author", 0L);
        JsonObject replied = sums.getJsonObject(Long.toString(replyAuthor));
        // a reply to a comment the viewer cannot see reads as a plain comment: an answer to nobody (or to a comment
        // id they never saw) is shown for no ordinary comment and would tell of the block
        if (replyTo != 0 && replied != null && !t.getOrDefault(replyAuthor, Visibility.Tie.NONE).blocked()) {
          reply = new JsonObject().put("id", replyTo).put("author", replied);
        }
        out.add(new JsonObject().put("id", d.getLong("_id")).put("post", d.getLong("post")).put("author", summary)
            .put("text", d.getString("text")).put("reply_to", reply).put("created", d.getLong("created")));
      }
      return out;
    });
  }

  // ---------------------------------------------------------------- likes

  @Override
  public Future<JsonObject> like(long actor, long postId) {
    return Failures.guard(() -> {
      requireUser(actor);
      return limit("like", actor, settings.likesPerMinute(), MINUTE, "likes per minute")
          .compose(v -> visiblePost(actor, postId))
          .compose(post -> {
            long likeId = platform.ids().next();
            return recount.touch(postId).compose(x -> posts.like(likeId, postId, actor, post.getLong("author")))
              .compose(added -> !added ? Future.succeededFuture()
                  : inc(postId, new JsonObject().put("likes", 1))
                      .compose(x -> quietly(flags.add(ViewerFlags.LIKED, actor, postId, likeId))).onSuccess(x ->
                      emit(FeedsEvents.POST_LIKED, new JsonObject().put("post", postId)
                          .put("post_author", post.getLong("author")).put("from", actor))))
              .compose(x -> likeState(postId, true));
          });
    });
  }

  @Override
  public Future<JsonObject> unlike(long actor, long postId) {
    return Failures.guard(() -> {
      requireUser(actor);
      // taking back one's own like needs no visibility: a user must be able to withdraw it from a post they can no
      // longer see (they knew the post when they liked it; the answer then says nothing more about it). Without a
      // like to take back, an invisible post is post_not_found like a missing one.
      return limit("like", actor, settings.likesPerMinute(), MINUTE, "likes per minute")
          .compose(v -> posts.find(postId))
          .compose(post -> post == null || post.getBoolean("deleted", false) ? notFound()
              : visibleDocs(actor, List.of(post), false).compose(visible -> recount.touch(postId)
                  .compose(x -> posts.unlike(postId, actor))
                  .compose(removed -> {
                    if (!removed) {
                      return visible.isEmpty() ? notFound() : likeState(postId, false);
                    }
                    return inc(postId, new JsonObject().put("likes", -1))
                        .compose(x -> quietly(flags.remove(ViewerFlags.LIKED, actor, postId)))
                        .onSuccess(x -> emit(FeedsEvents.POST_UNLIKED, new JsonObject().put("post", postId)
                            .put("post_author", post.getLong("author")).put("from", actor)))
                        .compose(x -> visible.isEmpty() ? Future.succeededFuture(new JsonObject().put("liked", false))
                            : likeState(postId, false));
                  })));
    });
  }

  private Future<JsonObject> likeState(long postId, boolean liked) {
    return posts.find(postId).map(p -> new JsonObject().put("liked", liked)
        .put("like_count", p == null ? 0 : p.getLong("likes", 0L)));
  }

  @Override
  public Future<JsonObject> likers(long viewer, long postId, long maxId, int limit) {
    return Failures.guard(() -> {
      checkPage(maxId, 0, limit);
      // the page and its cursor come from the likers shown only, as for comments
      VisiblePages.Rows<JsonObject, Long> rows = (before, count) ->
          posts.likers(postId, before == null ? 0 : before, count);
      return visiblePost(viewer, postId).compose(post -> VisiblePages.read(rows, likes -> likersShown(viewer, likes),
              l -> l.getLong("_id"), Liker::like, maxId == 0 ? null : maxId, limit, MAX_HIDDEN_SCAN))
          .map(page -> {
            JsonArray items = new JsonArray();
            page.items().forEach(l -> items.add(l.item()));
            return new JsonObject().put("items", items).put("next_max_id", page.next());
          });
    });
  }

  /** A like as the likers list shows it: the like's id (the cursor) and the {user, at} item. */
  private record Liker(long like, JsonObject item) {
  }

  /** The likes of users who exist and are in no block with the viewer. */
  private Future<List<Liker>> likersShown(long viewer, List<JsonObject> likes) {
    List<Long> users = likes.stream().map(l -> l.getLong("u")).toList();
    return Future.all(ties.of(viewer, users, false), summaries(viewer, users)).map(all -> {
      Map<Long, Visibility.Tie> t = all.resultAt(0);
      JsonObject sums = all.resultAt(1);
      List<Liker> out = new ArrayList<>();
      for (JsonObject l : likes) {
        long u = l.getLong("u");
        JsonObject summary = sums.getJsonObject(Long.toString(u));
        if (summary != null && !t.getOrDefault(u, Visibility.Tie.NONE).blocked()) {
          out.add(new Liker(l.getLong("_id"),
              new JsonObject().put("user", summary).put("at", IdGenerator.timeOf(l.getLong("_id")))));
        }
      }
      return out;
    });
  }

  // ---------------------------------------------------------------- visibility and views

  /** The post when it is live and the viewer may see it; post_not_found otherwise. */
  private Future<JsonObject> visiblePost(long viewer, long postId) {
    return posts.find(postId).compose(post -> post == null ? notFound()
        : visibleDocs(viewer, List.of(post), false).compose(v -> v.isEmpty() ? notFound()
            : Future.succeededFuture(v.get(0))));
  }

  /** The actor's own live post; not_author when someone else's that the actor may see, else post_not_found. */
  private Future<JsonObject> authored(long actor, long postId) {
    return posts.find(postId).compose(post -> {
      if (post == null || post.getBoolean("deleted", false)) {
        return notFound();
      }
      return post.getLong("author") == actor ? Future.succeededFuture(post) : forbiddenIfVisible(actor, post);
    });
  }

  private <T> Future<T> forbiddenIfVisible(long actor, JsonObject post) {
    return visibleDocs(actor, List.of(post), false).compose(v -> v.isEmpty() ? notFound()
        : Future.failedFuture(Failures.of(FeedsErrors.NOT_AUTHOR, "only the author may change this post")));
  }

  /** The live documents the viewer may see (and on timelines does not mute), in the given order. */
  Future<List<JsonObject>> visibleDocs(long viewer, List<JsonObject> docs, boolean timeline) {
    List<JsonObject> live = docs.stream().filter(d -> !d.getBoolean("deleted", false)).toList();
    Set<Long> authors = new LinkedHashSet<>();
    boolean placements = false;
    for (JsonObject d : live) {
      authors.add(d.getLong("author"));
      placements |= Visibility.needsPlacements(d) && d.getLong("author") != viewer;
    }
    return ties.of(viewer, authors, placements).map(t -> filter(viewer, live, t, timeline));
  }

  private static List<JsonObject> filter(long viewer, List<JsonObject> docs, Map<Long, Visibility.Tie> t,
                                         boolean timeline) {
    List<JsonObject> out = new ArrayList<>();
    for (JsonObject d : docs) {
      Visibility.Tie tie = t.getOrDefault(d.getLong("author"), Visibility.Tie.NONE);
      if (Visibility.canSee(viewer, d, tie) && !(timeline && tie.muting())) {
        out.add(d);
      }
    }
    return out;
  }

  /**
   * Views of the posts the viewer may see, in the given order, hydrated in batch: author summaries, counts, the
   * viewer's flags, and the embedded original of reposts.
   */
  Future<List<JsonObject>> hydrate(long viewer, List<JsonObject> docs, boolean timeline) {
    return hydrate(viewer, docs, timeline, Integer.MAX_VALUE, null, null);
  }

  /** Post documents and the viewer's flags on them, read in one Redis round trip. */
  private record Fetched(Set<Long> asked, Map<Long, JsonObject> docs, ViewerFlags.Seen liked,
                         ViewerFlags.Seen reposted) {
  }

  /**
   * Posts by id (from the post cache, MongoDB for misses) and, in the same Redis batch, what the viewer's liked and
   * reposted sets say about them.
   */
  private Future<Fetched> fetch(long viewer, Collection<Long> ids) {
    List<Long> list = List.copyOf(new LinkedHashSet<>(ids));
    if (list.isEmpty()) {
      return Future.succeededFuture(new Fetched(Set.of(), Map.of(), null, null));
    }
    List<io.vertx.redis.client.Request> batch = new ArrayList<>(cache.requests(list));
    int at = batch.size();
    if (viewer != 0) {
      batch.addAll(flags.requests(ViewerFlags.LIKED, viewer, list));
      batch.addAll(flags.requests(ViewerFlags.REPOSTED, viewer, list));
    }
    return platform.redis().batch(batch).compose(replies -> cache.complete(list, replies, 0).map(docs ->
        new Fetched(Set.copyOf(list), docs,
            viewer == 0 ? null : flags.seen(ViewerFlags.LIKED, viewer, list, replies, at),
            viewer == 0 ? null : flags.seen(ViewerFlags.REPOSTED, viewer, list, replies, at + 2))),
        e -> cache.getAll(list).map(docs -> new Fetched(Set.copyOf(list), docs, null, null)));
  }

  /**
   * Views of the first {@code want} posts the viewer may see (of those with an author summary), in the given order.
   * {@code pre}: what was read with the documents (the viewer's flags), or null. Summaries of the authors of the
   * first {@code want} live posts are asked while relations decides visibility (usually they are the ones shown);
   * others are asked when needed.
   */
  private Future<List<JsonObject>> hydrate(long viewer, List<JsonObject> docs, boolean timeline, int want,
                                           Fetched pre, Early early) {
    List<JsonObject> live = docs.stream().filter(d -> !d.getBoolean("deleted", false)).toList();
    if (live.isEmpty() || want <= 0) {
      return Future.succeededFuture(List.of());
    }
    Set<Long> rootIds = new LinkedHashSet<>();
    live.forEach(d -> {
      if (d.getLong("repost_of", 0L) != 0) {
        rootIds.add(d.getLong("repost_of"));
      }
    });
    // originals read with the page's documents (known to be reposted) are not read again
    Set<Long> unread = new LinkedHashSet<>(rootIds);
    if (pre != null) {
      unread.removeAll(pre.asked());
    }
    Future<Fetched> rootsRead = unread.isEmpty() ? Future.succeededFuture(new Fetched(Set.of(), Map.of(), null, null))
        : fetch(viewer, unread);
    return rootsRead.compose(rootsFetched -> {
      Map<Long, JsonObject> roots = new HashMap<>(rootsFetched.docs());
      if (pre != null) {
        rootIds.forEach(id -> {
          JsonObject d = pre.docs().get(id);
          if (d != null) {
            roots.putIfAbsent(id, d);
          }
        });
      }
      List<JsonObject> liveRoots = roots.values().stream().filter(r -> !r.getBoolean("deleted", false)).toList();
      Set<Long> authors = new LinkedHashSet<>();
      boolean placements = false;
      for (JsonObject d : live) {
        authors.add(d.getLong("author"));
        placements |= Visibility.needsPlacements(d) && d.getLong("author") != viewer;
      }
      for (JsonObject d : liveRoots) {
        authors.add(d.getLong("author"));
        placements |= Visibility.needsPlacements(d) && d.getLong("author") != viewer;
      }
      Set<Long> guessed = new HashSet<>(authorsOf(live.subList(0, Math.min(live.size(), want)), roots, null));
      Future<JsonObject> summarized;
      Future<Map<Long, Visibility.Tie>> tied;
      if (early == null) {
        summarized = summaries(viewer, guessed);
        tied = ties.of(viewer, authors, placements);
      } else {
        Set<Long> more = new LinkedHashSet<>(guessed);
        more.removeAll(early.summarized());
        summarized = more.isEmpty() ? early.summaries() : Future.all(early.summaries(), summaries(viewer, more))
            .map(both -> new JsonObject().mergeIn(both.resultAt(0)).mergeIn(both.resultAt(1)));
        guessed.addAll(early.summarized());
        tied = ties.of(viewer, authors, placements, early.authors(), early.ties());
      }
      // mentioned users in a block with the viewer are left out of the views, as they are absent to the viewer
      // everywhere else (a mention names an existing user, whose profile is 404 for them)
      Set<Long> mentioned = new LinkedHashSet<>();
      for (List<JsonObject> some : List.of(live, liveRoots)) {
        some.forEach(d -> d.getJsonArray("mentions", new JsonArray())
            .forEach(m -> mentioned.add(((Number) m).longValue())));
      }
      mentioned.removeAll(authors);
      Future<Map<Long, Visibility.Tie>> mentionTies = mentioned.isEmpty() ? Future.succeededFuture(Map.of())
          : ties.of(viewer, mentioned, false);
      return Future.all(tied, summarized, mentionTies).compose(both -> {
        Map<Long, Visibility.Tie> t = new HashMap<>(both.<Map<Long, Visibility.Tie>>resultAt(0));
        t.putAll(both.resultAt(2));
        JsonObject sums = both.resultAt(1);
        List<JsonObject> visible = filter(viewer, live, t, timeline);
        Set<Long> visibleRoots = new HashSet<>(PostStore.ids(filter(viewer, liveRoots, t, false)));
        return shown(viewer, visible, roots, visibleRoots, sums, guessed, want, 0, new ArrayList<>())
            .compose(shown -> {
              Set<Long> flagged = new LinkedHashSet<>(PostStore.ids(shown));
              shown.forEach(d -> {
                long rootId = d.getLong("repost_of", 0L);
                if (rootId != 0 && visibleRoots.contains(rootId)) {
                  flagged.add(rootId);
                }
              });
              List<ViewerFlags.Seen> likedSeen = new ArrayList<>();
              List<ViewerFlags.Seen> repostedSeen = new ArrayList<>();
              for (Fetched f : new Fetched[] {pre, rootsFetched}) {
                if (f != null) {
                  likedSeen.add(f.liked());
                  repostedSeen.add(f.reposted());
                }
              }
              return Future.all(
                  viewerFlags(ViewerFlags.LIKED, viewer, flagged, likedSeen, posts::likePairs, posts::likedAmong),
                  viewerFlags(ViewerFlags.REPOSTED, viewer, flagged, repostedSeen, posts::repostsBy,
                      posts::repostedAmong)).map(f -> {
                        Set<Long> liked = f.resultAt(0);
                        Set<Long> reposted = f.resultAt(1);
                        List<JsonObject> views = new ArrayList<>(shown.size());
                        for (JsonObject d : shown) {
                          JsonObject view = view(viewer, d, sums, t, liked, reposted);
                          long rootId = d.getLong("repost_of", 0L);
                          if (rootId != 0) {
                            JsonObject root = roots.get(rootId);
                            JsonObject embedded;
                            if (root == null || root.getBoolean("deleted", false)) {
                              embedded = new JsonObject().put("state", "deleted");
                            } else if (!visibleRoots.contains(rootId)) {
                              embedded = new JsonObject().put("state", "not_visible");
                            } else {
                              JsonObject rootView = view(viewer, root, sums, t, liked, reposted);
                              embedded = rootView == null ? new JsonObject().put("state", "not_visible")
                                  : new JsonObject().put("state", "visible").put("post", rootView);
                            }
                            view.put("repost_of", embedded);
                          }
                          views.add(view);
                        }
                        return views;
                      });
            });
      });
    });
  }

  /**
   * The first {@code want} of the visible posts whose author has a summary (a post without one is left out), asking
   * the summaries not asked yet ({@code asked}) of the authors of the next posts (and of their visible originals),
   * into {@code sums}.
   */
  private Future<List<JsonObject>> shown(long viewer, List<JsonObject> visible, Map<Long, JsonObject> roots,
                                         Set<Long> visibleRoots, JsonObject sums, Set<Long> asked, int want,
                                         int from, List<JsonObject> shown) {
    int to = from + Math.min(want - shown.size(), visible.size() - from);
    List<JsonObject> next = visible.subList(from, to);
    Set<Long> missing = authorsOf(next, roots, visibleRoots);
    missing.removeAll(asked);
    Future<JsonObject> more = missing.isEmpty() ? Future.succeededFuture(sums)
        : summaries(viewer, missing).map(found -> {
          asked.addAll(missing);
          return sums.mergeIn(found);
        });
    return more.compose(all -> {
      for (JsonObject d : next) {
        if (all.containsKey(Long.toString(d.getLong("author")))) {
          shown.add(d);
        }
      }
      return shown.size() < want && to < visible.size()
          ? shown(viewer, visible, roots, visibleRoots, all, asked, want, to, shown)
          : Future.succeededFuture(shown);
    });
  }

  /** Authors of these posts and of their originals (all live ones, or only those in {@code visibleRoots}). */
  private static Set<Long> authorsOf(List<JsonObject> posts, Map<Long, JsonObject> roots, Set<Long> visibleRoots) {
    Set<Long> out = new LinkedHashSet<>();
    for (JsonObject d : posts) {
      out.add(d.getLong("author"));
      long rootId = d.getLong("repost_of", 0L);
      JsonObject root = rootId == 0 ? null : roots.get(rootId);
      if (root != null && !root.getBoolean("deleted", false)
          && (visibleRoots == null || visibleRoots.contains(rootId))) {
        out.add(root.getLong("author"));
      }
    }
    return out;
  }

  /** The viewer's flag set over {@code ids}, from the answers read with the documents where they cover them. */
  private Future<Set<Long>> viewerFlags(String set, long viewer, Set<Long> ids, List<ViewerFlags.Seen> seen,
                                        ViewerFlags.Loader loader, ViewerFlags.Checker checker) {
    if (viewer == 0 || ids.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    List<Future<Set<Long>>> parts = new ArrayList<>();
    Set<Long> rest = new LinkedHashSet<>(ids);
    for (ViewerFlags.Seen s : seen) {
      if (s == null) {
        continue;
      }
      List<Long> covered = rest.stream().filter(s.asked()::contains).toList();
      if (!covered.isEmpty()) {
        parts.add(flags.resolve(s, covered, loader, checker));
        covered.forEach(rest::remove);
      }
    }
    if (!rest.isEmpty()) {
      parts.add(flags.among(set, viewer, rest, loader, checker));
    }
    return Future.all(parts).map(all -> {
      Set<Long> out = new HashSet<>();
      for (int i = 0; i < parts.size(); i++) {
        out.addAll(all.<Set<Long>>resultAt(i));
      }
      return out;
    });
  }

  private static JsonObject view(long viewer, JsonObject d, JsonObject sums, Map<Long, Visibility.Tie> t,
                                 Set<Long> liked, Set<Long> reposted) {
    long id = d.getLong("_id");
    long author = d.getLong("author");
    JsonObject summary = sums.getJsonObject(Long.toString(author));
    if (summary == null) {
      return null;
    }
    JsonObject view = new JsonObject().put("id", id).put("author", summary).put("text", d.getString("text", ""))
        .put("media", d.getJsonArray("media", new JsonArray())).put("place", d.getJsonObject("place"))
        .put("mentions", shownMentions(d, t)).put("visibility", d.getString("vis"))
        .put("created", d.getLong("created")).put("edited", d.getLong("edited"))
        .put("counts", new JsonObject().put("likes", d.getLong("likes", 0L)).put("comments", d.getLong("comments", 0L))
            .put("reposts", d.getLong("reposts", 0L)).put("reposts_total", d.getLong("reposts_total", 0L)))
        .put("viewer", new JsonObject().put("liked", liked.contains(id)).put("reposted", reposted.contains(id))
            .put("following", viewer != 0 && viewer != author
                && t.getOrDefault(author, Visibility.Tie.NONE).following()))
        .put("repost_of", null);
    if (viewer == author) {
      view.put("audience", d.getJsonObject("aud"));
    }
    return view;
  }

  /** A post's mentions without the users in a block with the viewer ({@code t} holds a tie for each mention). */
  private static JsonArray shownMentions(JsonObject d, Map<Long, Visibility.Tie> t) {
    JsonArray mentions = d.getJsonArray("mentions", new JsonArray());
    JsonArray shown = new JsonArray();
    mentions.forEach(m -> {
      if (!t.getOrDefault(((Number) m).longValue(), Visibility.Tie.NONE).blocked()) {
        shown.add(m);
      }
    });
    return shown.size() == mentions.size() ? mentions : shown;
  }

  private Future<JsonObject> summaries(long viewer, Collection<Long> users) {
    if (users.isEmpty()) {
      return Future.succeededFuture(new JsonObject());
    }
    List<Long> list = new ArrayList<>(users);
    List<Future<JsonObject>> parts = new ArrayList<>();
    for (int i = 0; i < list.size(); i += Ties.BATCH) {
      parts.add(accounts.summaries(viewer, list.subList(i, Math.min(list.size(), i + Ties.BATCH))));
    }
    return Future.all(parts).map(all -> {
      JsonObject out = new JsonObject();
      for (int i = 0; i < parts.size(); i++) {
        out.mergeIn(all.resultAt(i));
      }
      return out;
    });
  }

  // ---------------------------------------------------------------- helpers

  private static void requireUser(long user) {
    if (user <= 0) {
      throw Failures.of(KithErrors.UNAUTHENTICATED, "this needs a signed-in user");
    }
  }

  private static void checkPage(long maxId, long sinceId, int limit) {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw PostDraft.invalid("limit", "limit must be 1 to " + MAX_LIMIT);
    }
    if (maxId < 0) {
      throw PostDraft.invalid("max_id", "max_id must be a positive id");
    }
    if (sinceId < 0) {
      throw PostDraft.invalid("since_id", "since_id must be a positive id");
    }
  }

  private Future<Void> limit(String name, long user, int max, long windowMillis, String what) {
    return limiter.enforce("rl:feeds:" + name + ":" + user, windowMillis, max,
        "too many " + what + " (at most " + max + "); retry later");
  }

  /** Adds to a post's counters, then drops its cached copy. */
  private Future<Void> inc(long postId, JsonObject inc) {
    // touched again after the $inc: a recount that counted before it and set the counters after it is run again
    return posts.inc(postId, inc).compose(v -> quietly(cache.changed(postId))).compose(v -> recount.touch(postId));
  }

  /**
   * A write to the viewer-flag sets after the record changed: its failure must not fail (or undo) the change; the set
   * is then stale until it expires, which is logged.
   */
  private static Future<Void> quietly(Future<Void> flagWrite) {
    return flagWrite.recover(e -> {
      LOG.warn("Could not update a viewer-flag set in Redis (stale until it expires): {}", e.toString());
      return Future.succeededFuture();
    });
  }

  /** Logs failures that are not domain refusals: they are bugs or store outages, and become 500 or 503. */
  private static <T> Future<T> logged(String operation, Future<T> result) {
    return result.onFailure(e -> {
      if (!(e instanceof io.vertx.serviceproxy.ServiceException)) {
        LOG.error("feeds {} failed", operation, e);
      }
    });
  }

  private static <T> Future<T> notFound() {
    return Future.failedFuture(Failures.of(FeedsErrors.POST_NOT_FOUND, "no such post"));
  }

  private void emit(String type, JsonObject payload) {
    platform.events().append(FeedsEvents.DOMAIN, type, payload)
        .onFailure(e -> LOG.error("Could not append {} {} to the event log: {}", type, payload, e.toString()));
  }
}
