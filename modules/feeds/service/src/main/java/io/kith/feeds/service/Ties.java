package io.kith.feeds.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.RelationsService;
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
import java.util.function.BiFunction;
import java.util.function.Function;

/** What users are to one another, asked of the relations service in batches, as {@link Visibility.Tie}s. */
final class Ties {

  /** Most ids the relations batch query takes. */
  static final int BATCH = 1_000;
  /** Most pages read when collecting a whole id list (following, friends): 10,000 ids. */
  static final int MAX_PAGES = 10;

  private final RelationsService relations;
  private final RelationsInternal relationsInternal;

  Ties(RelationsService relations, RelationsInternal relationsInternal) {
    this.relations = relations;
    this.relationsInternal = relationsInternal;
  }

  /**
   * What {@code viewer} is to each author, for the visibility rule. Anonymous viewers (0) get {@link Visibility.Tie#NONE}.
   * {@code withPlacements}: also ask which of the authors' groups and tags hold the viewer (for {@code only} and
   * {@code except} posts).
   */
  Future<Map<Long, Visibility.Tie>> of(long viewer, Collection<Long> authors, boolean withPlacements) {
    return of(viewer, authors, withPlacements, Set.of(), null);
  }

  /**
   * The same, when the flags of some of the authors ({@code asked}) were asked already ({@code early}, the answer of
   * {@link #flags}): only the others are asked now.
   */
  Future<Map<Long, Visibility.Tie>> of(long viewer, Collection<Long> authors, boolean withPlacements,
                                       Set<Long> asked, Future<Map<Long, JsonObject>> early) {
    Set<Long> others = new LinkedHashSet<>(authors);
    others.remove(viewer);
    if (viewer == 0 || others.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    Future<JsonObject> placements = withPlacements ? placementsBy(viewer, others)
        : Future.succeededFuture(new JsonObject());
    List<Long> missing = early == null ? List.copyOf(others)
        : others.stream().filter(a -> !asked.contains(a)).toList();
    Future<Map<Long, JsonObject>> rest = missing.isEmpty() ? Future.succeededFuture(Map.of())
        : flags(viewer, missing);
    Future<Map<Long, JsonObject>> before = early == null ? Future.succeededFuture(Map.of()) : early;
    return Future.all(before, rest, placements).map(all -> {
      Map<Long, JsonObject> rel = new HashMap<>(all.<Map<Long, JsonObject>>resultAt(0));
      rel.putAll(all.resultAt(1));
      JsonObject placed = all.resultAt(2);
      Map<Long, Visibility.Tie> out = new HashMap<>();
      for (long author : others) {
        JsonObject r = rel.getOrDefault(author, new JsonObject());
        JsonObject p = placed.getJsonObject(Long.toString(author), new JsonObject());
        Set<Long> groups = new HashSet<>();
        p.getJsonArray("groups", new JsonArray()).forEach(g -> groups.add(((Number) g).longValue()));
        Set<String> tags = new HashSet<>();
        p.getJsonArray("tags", new JsonArray()).forEach(t -> tags.add(t.toString()));
        out.put(author, new Visibility.Tie(r.getBoolean("following", false), r.getBoolean("friend", false),
            r.getBoolean("blocking", false) || r.getBoolean("blocked_by", false),
            r.getBoolean("hidden_from", false), r.getBoolean("muting", false), groups, tags));
      }
      return out;
    });
  }

  /** Which of these owners' contact tags and friend groups hold the viewer, complete, in chunks of {@link #BATCH}. */
  Future<JsonObject> placementsBy(long viewer, Collection<Long> owners) {
    return batched(owners, part -> relationsInternal.placementsBy(viewer, part)).map(all -> {
      JsonObject out = new JsonObject();
      all.forEach((owner, p) -> out.put(Long.toString(owner), p));
      return out;
    });
  }

  /** The relations batch answer (tags and groups included) for any number of ids, in chunks of {@link #BATCH}. */
  Future<Map<Long, JsonObject>> relationships(long viewer, Collection<Long> ids) {
    return batched(ids, part -> relations.relationships(viewer, part));
  }

  /** The hot flags (following, friend, blocks, muting, hidden_from) for any number of ids, from Redis. */
  Future<Map<Long, JsonObject>> flags(long viewer, Collection<Long> ids) {
    return batched(ids, part -> relationsInternal.ties(viewer, part));
  }

  private static Future<Map<Long, JsonObject>> batched(Collection<Long> ids,
                                                       Function<List<Long>, Future<JsonObject>> call) {
    List<Long> list = new ArrayList<>(ids);
    List<Future<JsonObject>> parts = new ArrayList<>();
    for (int i = 0; i < list.size(); i += BATCH) {
      parts.add(call.apply(List.copyOf(list.subList(i, Math.min(list.size(), i + BATCH)))));
    }
    return Future.all(parts).map(all -> {
      Map<Long, JsonObject> out = new HashMap<>();
      for (int i = 0; i < parts.size(); i++) {
        JsonObject part = all.resultAt(i);
        part.forEach(e -> out.put(Long.parseLong(e.getKey()), (JsonObject) e.getValue()));
      }
      return out;
    });
  }

  /** Every id of a paged id list (following, friends), up to {@link #MAX_PAGES} pages of {@link #BATCH}. */
  Future<List<Long>> all(long user, BiFunction<Long, String, Future<JsonObject>> page) {
    List<Long> out = new ArrayList<>();
    return collect(user, page, null, 0, out).map(v -> out);
  }

  private Future<Void> collect(long user, BiFunction<Long, String, Future<JsonObject>> page, String cursor, int n,
                               List<Long> out) {
    return page.apply(user, cursor).compose(p -> {
      p.getJsonArray("items", new JsonArray()).forEach(id -> out.add(((Number) id).longValue()));
      String next = p.getString("next");
      return next == null || n + 1 >= MAX_PAGES ? Future.succeededFuture() : collect(user, page, next, n + 1, out);
    });
  }

  Future<List<Long>> following(long user) {
    return all(user, (u, c) -> relationsInternal.followingIds(u, PageRequest.after(c, BATCH)).map(Page::toJson));
  }

  Future<List<Long>> friends(long user) {
    return all(user, (u, c) -> relationsInternal.friendIds(u, PageRequest.after(c, BATCH)).map(Page::toJson));
  }
}
