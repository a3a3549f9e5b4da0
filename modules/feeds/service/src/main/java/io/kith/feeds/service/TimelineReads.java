package io.kith.feeds.service;

import io.kith.platform.error.Failures;
import io.kith.platform.id.IdGenerator;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.kith.feeds.service.FeedsCore.checkPage;
import static io.kith.feeds.service.FeedsCore.logged;
import static io.kith.feeds.service.FeedsCore.requireUser;

/**
 * Timeline reads: home, moments, a user's posts, public latest, liked posts and the reposts of a post, paged by
 * cursor. A page reads candidates from a {@link Source}, keeps what the viewer may see, and reads further while short.
 */
final class TimelineReads {

  /** Rounds of reading further when visibility filtering leaves a liked-posts page short. */
  private static final int MAX_ROUNDS = 5;
  /** Most candidates one timeline page looks at before it gives up filling the page. */
  static final int SCAN_BUDGET = 1_000;
  /** Most candidates read in one round. */
  private static final int MAX_FETCH = 500;

  private final FeedsCore core;
  private final PostAccess access;
  private final PostViews views;
  private final PostStore posts;
  private final Timelines timelines;
  private final Ties ties;
  private final PostCache cache;
  private final Reach reach;
  private final ReaderScreen screen;

  TimelineReads(FeedsCore core, PostAccess access, PostViews views, Reach reach, ReaderScreen screen) {
    this.core = core;
    this.access = access;
    this.views = views;
    this.posts = core.posts();
    this.timelines = core.timelines();
    this.ties = core.ties();
    this.cache = core.cache();
    this.reach = reach;
    this.screen = screen;
  }

  /** Reads candidate post ids below {@code maxId} and above {@code sinceId}, newest first. */
  private interface Source {
    Future<List<Long>> read(long maxId, long sinceId, int count);
  }

  Future<JsonObject> home(long viewer, long maxId, long sinceId, int limit) {
    return logged("home", Failures.guard(() -> {
      requireUser(viewer);
      checkPage(maxId, sinceId, limit);
      return celebrityAuthors(viewer, false).compose(celebs -> page(viewer, timeline(Timelines.HOME, viewer,
          () -> rebuild(viewer, ties.following(viewer)), celebs), maxId, sinceId, limit, true));
    }));
  }

  Future<JsonObject> moments(long viewer, long maxId, long sinceId, int limit) {
    return Failures.guard(() -> {
      requireUser(viewer);
      checkPage(maxId, sinceId, limit);
      return celebrityAuthors(viewer, true).compose(celebs -> page(viewer, timeline(Timelines.MOMENTS, viewer,
          () -> rebuild(viewer, ties.friends(viewer)), celebs), maxId, sinceId, limit, true));
    });
  }

  Future<JsonObject> userPosts(long viewer, long userId, long maxId, long sinceId, int limit) {
    return Failures.guard(() -> {
      checkPage(maxId, sinceId, limit);
      if (viewer == userId) {
        Source own = (max, since, count) -> posts.byAuthors(List.of(userId), max, since, count).map(PostStore::ids);
        return page(viewer, own, maxId, sinceId, limit, false);
      }
      return ties.of(viewer, List.of(userId), true).compose(t -> othersPosts(viewer, userId,
          t.getOrDefault(userId, Visibility.Tie.NONE), maxId, sinceId, limit));
    });
  }

  /** Another user's posts, as far as the viewer's tie to them lets the viewer see them. */
  private Future<JsonObject> othersPosts(long viewer, long userId, Visibility.Tie tie, long maxId, long sinceId,
                                         int limit) {
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
  }

  Future<JsonObject> latest(long viewer, long maxId, long sinceId, int limit) {
    return Failures.guard(() -> {
      checkPage(maxId, sinceId, limit);
      Source source = (max, since, count) -> posts.latestPublic(max, since, count).map(PostStore::ids);
      return round(new PageRead(viewer, source, sinceId, limit, true, new ArrayList<>(), reach,
          screen.hides(viewer)), maxId, 0, 0);
    });
  }

  Future<JsonObject> likedPosts(long viewer, long maxId, int limit) {
    return Failures.guard(() -> {
      requireUser(viewer);
      checkPage(maxId, 0, limit);
      return likedRound(viewer, maxId, limit, new ArrayList<>(), 0);
    });
  }

  private Future<JsonObject> likedRound(long viewer, long maxId, int limit, List<JsonObject> items, int round) {
    int fetch = limit + 10;
    return posts.likesBy(viewer, maxId, fetch).compose(likes -> cache.getAll(likes.stream().map(l -> l.getLong("p"))
            .toList())
        .compose(found -> views.hydrate(viewer, new ArrayList<>(found.values()), false))
        .compose(shown -> likedPage(viewer, maxId, limit, items, round, fetch, likes, shown)));
  }

  /** Adds a round's liked posts to the page, in the order liked; reads another round while the page is short. */
  private Future<JsonObject> likedPage(long viewer, long maxId, int limit, List<JsonObject> items, int round,
                                       int fetch, List<JsonObject> likes, List<JsonObject> shown) {
    Map<Long, JsonObject> byId = new LinkedHashMap<>();
    shown.forEach(v -> byId.put(v.getLong("id"), v));
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
  }

  Future<JsonObject> reposts(long viewer, long postId, long maxId, int limit) {
    return Failures.guard(() -> {
      checkPage(maxId, 0, limit);
      return access.visiblePost(viewer, postId).compose(post -> {
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
      return ties.flags(viewer, others).compose(rel -> withOwnTimelines(related(others, rel, friendsOnly)));
    });
  }

  /** The celebrities the viewer follows (or is a friend of, with {@code friendsOnly}). */
  private static List<Long> related(List<Long> celebrities, Map<Long, JsonObject> rel, boolean friendsOnly) {
    return celebrities.stream().filter(c -> {
      JsonObject r = rel.getOrDefault(c, new JsonObject());
      return friendsOnly ? r.getBoolean("friend", false) : r.getBoolean("following", false);
    }).toList();
  }

  /** The celebrities, once their own timelines exist (built from the record when missing). */
  private Future<List<Long>> withOwnTimelines(List<Long> celebrities) {
    List<Future<Void>> own = celebrities.stream()
        .map(c -> timelines.ensure(Timelines.OWN, c, () -> ownPosts(c))).toList();
    return Future.all(own).map(v -> celebrities);
  }

  /** An author's recent post ids from the record (their own timeline). */
  Future<List<Long>> ownPosts(long author) {
    return posts.byAuthors(List.of(author), 0, 0, core.settings().timelineCap()).map(PostStore::ids);
  }

  /** The post ids a missing home or moments timeline holds: the authors' recent posts the viewer may see. */
  private Future<List<Long>> rebuild(long viewer, Future<List<Long>> authorsFuture) {
    int cap = core.settings().timelineCap();
    return authorsFuture.compose(authors -> {
      List<Long> all = new ArrayList<>(authors);
      all.add(viewer);
      List<Future<List<JsonObject>>> parts = new ArrayList<>();
      for (int i = 0; i < all.size(); i += Ties.BATCH) {
        parts.add(posts.byAuthors(all.subList(i, Math.min(all.size(), i + Ties.BATCH)), 0, 0, cap));
      }
      return Future.all(parts).compose(done -> {
        List<JsonObject> docs = new ArrayList<>();
        for (int i = 0; i < parts.size(); i++) {
          docs.addAll(done.<List<JsonObject>>resultAt(i));
        }
        docs.sort(Comparator.comparing((JsonObject d) -> d.getLong("_id")).reversed());
        List<JsonObject> newest = docs.subList(0, Math.min(docs.size(), cap));
        return access.visibleDocs(viewer, newest, false).map(PostStore::ids);
      });
    });
  }

  /**
   * One page being read: what it asks for, and the items found in its rounds so far; {@code reach} set on a public
   * surface, where limited authors reach only their followers; {@code hideFiltered} whether the reader hides
   * filtered posts (timelines only).
   */
  private record PageRead(long viewer, Source source, long sinceId, int limit, boolean timeline,
                          List<JsonObject> items, Reach reach, Future<Boolean> hideFiltered) {
  }

  /**
   * One page: reads candidates from the source, keeps those the viewer may see (and, on timelines, does not mute),
   * and reads further while the page is short, reading more candidates each round, until {@link #SCAN_BUDGET}
   * candidates were looked at. The cursor is always a post the viewer was shown (never a hidden candidate: that would
   * reveal a hidden post's id and so its time); a stretch of more hidden posts than the budget ends the list early.
   */
  private Future<JsonObject> page(long viewer, Source source, long maxId, long sinceId, int limit, boolean timeline) {
    return round(new PageRead(viewer, source, sinceId, limit, timeline, new ArrayList<>(), null,
        timeline ? screen.hides(viewer) : Future.succeededFuture(false)), maxId, 0, 0);
  }

  private Future<JsonObject> round(PageRead p, long maxId, int round, int scanned) {
    int fetch = Math.min(MAX_FETCH, (p.limit() + Math.max(10, p.limit() / 2)) << round);
    return p.source().read(maxId, p.sinceId(), fetch).compose(ids -> candidateViews(p, ids)
        .compose(shown -> collect(p, ids, shown, maxId, fetch, round, scanned)));
  }

  /** Views of the candidates the page still lacks (the collection stops there), their documents read in batch. */
  private Future<List<JsonObject>> candidateViews(PageRead p, List<Long> ids) {
    int want = p.limit() - p.items().size();
    PostViews.Early early = early(p.viewer(), ids, want);
    // the originals of reposts this node knows are read in the same batch
    Set<Long> reads = new LinkedHashSet<>(ids);
    ids.forEach(id -> {
      Long original = cache.knownOriginal(id);
      if (original != null && original != 0) {
        reads.add(original);
      }
    });
    return views.fetch(p.viewer(), reads).compose(found -> {
      List<JsonObject> docs = new ArrayList<>();
      ids.forEach(id -> {
        JsonObject d = found.docs().get(id);
        if (d != null) {
          docs.add(d);
        }
      });
      Future<List<JsonObject>> shown = views.hydrate(p.viewer(), docs, p.timeline(), want, found, early);
      Future<List<JsonObject>> reached = p.reach() == null ? shown
          : shown.compose(v -> p.reach().onPublicSurface(p.viewer(), v));
      return reached.compose(v -> p.hideFiltered().map(hide -> hide ? ReaderScreen.without(p.viewer(), v, "post")
          : v));
    });
  }

  /** Adds a round's views to the page in candidate order; reads another round while short and within budget. */
  private Future<JsonObject> collect(PageRead p, List<Long> ids, List<JsonObject> shown, long maxId, int fetch,
                                     int round, int scanned) {
    List<JsonObject> items = p.items();
    Map<Long, JsonObject> byId = new LinkedHashMap<>();
    shown.forEach(v -> byId.put(v.getLong("id"), v));
    long last = maxId;
    boolean stoppedEarly = false;
    for (long id : ids) {
      if (items.size() == p.limit()) {
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
    if (items.size() < p.limit() && !exhausted && seen < SCAN_BUDGET) {
      return round(p, last, round + 1, seen);
    }
    long sinceId = p.sinceId();
    JsonObject page = new JsonObject().put("items", new JsonArray(items));
    page.put("next_max_id", exhausted || items.isEmpty() ? null : items.get(items.size() - 1).getLong("id"));
    page.put("newest_id", items.isEmpty() ? (sinceId > 0 ? sinceId : null) : items.get(0).getLong("id"));
    return Future.succeededFuture(page);
  }

  /**
   * The questions about the candidates' authors this node can ask before their documents are read
   * ({@link PostViews.Early}), or null when it knows none of the authors.
   */
  private PostViews.Early early(long viewer, List<Long> ids, int want) {
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
    return new PostViews.Early(authors, flags, first, core.summaries(viewer, first));
  }
}
