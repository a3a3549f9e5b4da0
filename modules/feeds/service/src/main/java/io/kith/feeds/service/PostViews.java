package io.kith.feeds.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Post views: posts read by id with the viewer's flags ({@link #fetch}), and hydration ({@link #hydrate}), which turns
 * post documents into the views a viewer is shown, in named steps over small records: originals (of reposts) →
 * visibility (ties and first summaries) → shown (posts with an author summary) → flags (liked, reposted) → assemble.
 */
final class PostViews {

  private final FeedsCore core;
  private final PostStore posts;
  private final Ties ties;
  private final ViewerFlags flags;
  private final PostCache cache;

  PostViews(FeedsCore core) {
    this.core = core;
    this.posts = core.posts();
    this.ties = core.ties();
    this.flags = core.flags();
    this.cache = core.cache();
  }

  /** Post documents and the viewer's flags on them, read in one Redis round trip. */
  record Fetched(Set<Long> asked, Map<Long, JsonObject> docs, ViewerFlags.Seen liked, ViewerFlags.Seen reposted) {
  }

  /**
   * Questions about the candidates' authors asked before their documents are read, for the authors this node knows
   * (a post's author never changes): the viewer's ties to them, and the summaries of the authors of the first
   * {@code want} candidates. Visibility is still decided from the documents as read and these ties, asked now.
   */
  record Early(Set<Long> authors, Future<Map<Long, JsonObject>> ties, Set<Long> summarized,
               Future<JsonObject> summaries) {
  }

  /**
   * Posts by id (from the post cache, MongoDB for misses) and, in the same Redis batch, what the viewer's liked and
   * reposted sets say about them.
   */
  Future<Fetched> fetch(long viewer, Collection<Long> ids) {
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
    return core.platform().redis().batch(batch).compose(replies -> cache.complete(list, replies, 0).map(docs ->
        new Fetched(Set.copyOf(list), docs,
            viewer == 0 ? null : flags.seen(ViewerFlags.LIKED, viewer, list, replies, at),
            viewer == 0 ? null : flags.seen(ViewerFlags.REPOSTED, viewer, list, replies, at + 1))),
        e -> cache.getAll(list).map(docs -> new Fetched(Set.copyOf(list), docs, null, null)));
  }

  /**
   * Views of the posts the viewer may see, in the given order, hydrated in batch: author summaries, counts, the
   * viewer's flags, and the embedded original of reposts.
   */
  Future<List<JsonObject>> hydrate(long viewer, List<JsonObject> docs, boolean timeline) {
    return hydrate(viewer, docs, timeline, Integer.MAX_VALUE, null, null);
  }

  // ---------------------------------------------------------------- hydration, step by step

  /** One hydration's question: the live posts, how many views are wanted, and what was read or asked before. */
  private record Ask(long viewer, List<JsonObject> live, boolean timeline, int want, Fetched pre, Early early) {
  }

  /** ... with the reposts' originals ({@code fetched}: those read for this hydration). */
  private record Originals(Ask ask, Fetched fetched, Map<Long, JsonObject> roots, List<JsonObject> liveRoots) {
  }

  /**
   * ... with the viewer's ties (authors and mentioned users), the summaries asked so far ({@code asked}: whose), and
   * the posts and originals the viewer may see.
   */
  private record Decided(Originals originals, Map<Long, Visibility.Tie> ties, JsonObject sums, Set<Long> asked,
                         List<JsonObject> visible, Set<Long> visibleRoots) {
  }

  /** ... with the posts shown: the first wanted visible posts whose author has a summary. */
  private record Shown(Decided decided, List<JsonObject> posts) {
  }

  /** ... with the viewer's liked and reposted flags over the posts shown and their originals. */
  private record Flagged(Shown shown, Set<Long> liked, Set<Long> reposted) {
  }

  /**
   * Views of the first {@code want} posts the viewer may see (of those with an author summary), in the given order.
   * {@code pre}: what was read with the documents (the viewer's flags), or null. Summaries of the authors of the
   * first {@code want} live posts are asked while relations decides visibility (usually they are the ones shown);
   * others are asked when needed.
   */
  Future<List<JsonObject>> hydrate(long viewer, List<JsonObject> docs, boolean timeline, int want, Fetched pre,
                                   Early early) {
    List<JsonObject> live = docs.stream().filter(d -> !d.getBoolean("deleted", false)).toList();
    if (live.isEmpty() || want <= 0) {
      return Future.succeededFuture(List.of());
    }
    return originals(new Ask(viewer, live, timeline, want, pre, early))
        .compose(this::visibility)
        .compose(this::shown)
        .compose(this::flags)
        .map(PostViews::assemble);
  }

  /** The originals of the reposts among the posts: those read with the page's documents are not read again. */
  private Future<Originals> originals(Ask a) {
    Set<Long> rootIds = new LinkedHashSet<>();
    a.live().forEach(d -> {
      if (d.getLong("repost_of", 0L) != 0) {
        rootIds.add(d.getLong("repost_of"));
      }
    });
    Set<Long> unread = new LinkedHashSet<>(rootIds);
    if (a.pre() != null) {
      unread.removeAll(a.pre().asked());
    }
    Future<Fetched> rootsRead = unread.isEmpty() ? Future.succeededFuture(new Fetched(Set.of(), Map.of(), null, null))
        : fetch(a.viewer(), unread);
    return rootsRead.map(fetched -> {
      Map<Long, JsonObject> roots = new HashMap<>(fetched.docs());
      if (a.pre() != null) {
        rootIds.forEach(id -> {
          JsonObject d = a.pre().docs().get(id);
          if (d != null) {
            roots.putIfAbsent(id, d);
          }
        });
      }
      List<JsonObject> liveRoots = roots.values().stream().filter(r -> !r.getBoolean("deleted", false)).toList();
      return new Originals(a, fetched, roots, liveRoots);
    });
  }

  /**
   * The viewer's ties to the authors and to the mentioned users, asked together with the summaries of the authors of
   * the first wanted posts; then which posts and originals the viewer may see.
   */
  private Future<Decided> visibility(Originals o) {
    Ask a = o.ask();
    Set<Long> authors = new LinkedHashSet<>();
    boolean placements = PostAccess.addAuthors(a.viewer(), a.live(), authors)
        | PostAccess.addAuthors(a.viewer(), o.liveRoots(), authors);
    Set<Long> guessed = new HashSet<>(authorsOf(a.live().subList(0, Math.min(a.live().size(), a.want())), o.roots(),
        null));
    Future<JsonObject> summarized = firstSummaries(a, guessed);
    Future<Map<Long, Visibility.Tie>> tied = a.early() == null ? ties.of(a.viewer(), authors, placements)
        : ties.of(a.viewer(), authors, placements, a.early().authors(), a.early().ties());
    Future<Map<Long, Visibility.Tie>> mentionTies = mentionTies(a.viewer(), o, authors);
    return Future.all(tied, summarized, mentionTies).map(all -> {
      Map<Long, Visibility.Tie> t = new HashMap<>(all.<Map<Long, Visibility.Tie>>resultAt(0));
      t.putAll(all.resultAt(2));
      List<JsonObject> visible = PostAccess.filter(a.viewer(), a.live(), t, a.timeline());
      Set<Long> visibleRoots = new HashSet<>(PostStore.ids(PostAccess.filter(a.viewer(), o.liveRoots(), t, false)));
      return new Decided(o, t, all.resultAt(1), guessed, visible, visibleRoots);
    });
  }

  /** Summaries of {@code guessed}, less those asked early; {@code guessed} then names all asked. */
  private Future<JsonObject> firstSummaries(Ask a, Set<Long> guessed) {
    if (a.early() == null) {
      return core.summaries(a.viewer(), guessed);
    }
    Set<Long> more = new LinkedHashSet<>(guessed);
    more.removeAll(a.early().summarized());
    Future<JsonObject> summarized = more.isEmpty() ? a.early().summaries()
        : Future.all(a.early().summaries(), core.summaries(a.viewer(), more))
            .map(both -> new JsonObject().mergeIn(both.resultAt(0)).mergeIn(both.resultAt(1)));
    guessed.addAll(a.early().summarized());
    return summarized;
  }

  /**
   * Ties to the users mentioned who are not authors: mentioned users in a block with the viewer are left out of the
   * views, as they are absent to the viewer everywhere else (a mention names an existing user, whose profile is 404
   * for them).
   */
  private Future<Map<Long, Visibility.Tie>> mentionTies(long viewer, Originals o, Set<Long> authors) {
    Set<Long> mentioned = new LinkedHashSet<>();
    for (List<JsonObject> some : List.of(o.ask().live(), o.liveRoots())) {
      some.forEach(d -> d.getJsonArray("mentions", new JsonArray())
          .forEach(m -> mentioned.add(((Number) m).longValue())));
    }
    mentioned.removeAll(authors);
    return mentioned.isEmpty() ? Future.succeededFuture(Map.of()) : ties.of(viewer, mentioned, false);
  }

  private Future<Shown> shown(Decided d) {
    Originals o = d.originals();
    return shown(o.ask().viewer(), d.visible(), o.roots(), d.visibleRoots(), d.sums(), d.asked(), o.ask().want(), 0,
        new ArrayList<>()).map(list -> new Shown(d, list));
  }

  /** The viewer's flags over the posts shown and their visible originals, from what was read with them where it can. */
  private Future<Flagged> flags(Shown s) {
    Decided d = s.decided();
    Originals o = d.originals();
    long viewer = o.ask().viewer();
    Set<Long> flagged = new LinkedHashSet<>(PostStore.ids(s.posts()));
    s.posts().forEach(p -> {
      long rootId = p.getLong("repost_of", 0L);
      if (rootId != 0 && d.visibleRoots().contains(rootId)) {
        flagged.add(rootId);
      }
    });
    List<ViewerFlags.Seen> likedSeen = new ArrayList<>();
    List<ViewerFlags.Seen> repostedSeen = new ArrayList<>();
    for (Fetched f : new Fetched[] {o.ask().pre(), o.fetched()}) {
      if (f != null) {
        likedSeen.add(f.liked());
        repostedSeen.add(f.reposted());
      }
    }
    return Future.all(
        viewerFlags(ViewerFlags.LIKED, viewer, flagged, likedSeen, posts::likePairs, posts::likedAmong),
        viewerFlags(ViewerFlags.REPOSTED, viewer, flagged, repostedSeen, posts::repostsBy, posts::repostedAmong))
        .map(f -> new Flagged(s, f.resultAt(0), f.resultAt(1)));
  }

  /** The views of the posts shown, each repost with its original embedded (or the original's state). */
  private static List<JsonObject> assemble(Flagged f) {
    Decided d = f.shown().decided();
    long viewer = d.originals().ask().viewer();
    List<JsonObject> views = new ArrayList<>(f.shown().posts().size());
    for (JsonObject p : f.shown().posts()) {
      JsonObject view = view(viewer, p, d.sums(), d.ties(), f.liked(), f.reposted());
      long rootId = p.getLong("repost_of", 0L);
      if (rootId != 0) {
        view.put("repost_of", embedded(f, rootId));
      }
      views.add(view);
    }
    return views;
  }

  /** A repost's original as embedded in its view: removed by a moderator, deleted, not visible, or visible. */
  private static JsonObject embedded(Flagged f, long rootId) {
    Decided d = f.shown().decided();
    JsonObject root = d.originals().roots().get(rootId);
    if (root != null && root.containsKey("removed")) {
      return new JsonObject().put("state", "removed");
    }
    if (root == null || root.getBoolean("deleted", false)) {
      return new JsonObject().put("state", "deleted");
    }
    if (!d.visibleRoots().contains(rootId)) {
      return new JsonObject().put("state", "not_visible");
    }
    JsonObject rootView = view(d.originals().ask().viewer(), root, d.sums(), d.ties(), f.liked(), f.reposted());
    return rootView == null ? new JsonObject().put("state", "not_visible")
        : new JsonObject().put("state", "visible").put("post", rootView);
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
        : core.summaries(viewer, missing).map(found -> {
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
      view.put("audience", PostDraft.audienceView(d.getJsonObject("aud")));
    }
    JsonObject held = d.getJsonObject("held");
    if (held != null) {
      // only its author reads a held post: shown with the visibility it will have once released
      view.put("visibility", held.getString("vis")).put("held", true);
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
}
