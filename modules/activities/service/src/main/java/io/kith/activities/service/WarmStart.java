package io.kith.activities.service;

import io.kith.activities.api.Activities;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Loads activities from MongoDB into Redis: all of them that start at most {@code warm-days} ago, at start-up and
 * whenever Redis lost the {@code act:warm} marker (emptied); and one activity at a time when a read misses it.
 *
 * <p>A load writes every participation first and the activity hash last with its {@code loaded} mark, through the
 * same versioned copies the writers use, so a load racing with joins and leaves ends with the newest state of each.
 * The warm load runs under a lock ({@code act:warm:lock}) so that nodes starting together load once.
 */
final class WarmStart {

  private static final Logger LOG = LoggerFactory.getLogger(WarmStart.class);
  /** Activities per MongoDB page of the warm load. */
  private static final int PAGE = 200;
  /** Participations read per MongoDB page. */
  private static final int PARTS_PAGE = 1_000;
  /** Redis writes in flight at once during a load. */
  private static final int WRITES_IN_FLIGHT = 200;
  /** Most entries read back from MongoDB into one user list. */
  private static final int LIST_REBUILD_MAX = 10_000;
  private static final long LOCK_MILLIS = 10 * 60_000L;

  private final ActivityStore activities;
  private final ParticipantStore participants;
  private final HotActivities hot;
  private final long warmMillis;
  private Future<Integer> running;

  WarmStart(ActivityStore activities, ParticipantStore participants, HotActivities hot, long warmMillis) {
    this.activities = activities;
    this.participants = participants;
    this.hot = hot;
    this.warmMillis = warmMillis;
  }

  /**
   * Loads every activity of the window unless another node is doing it; answers how many were loaded (-1 when the
   * lock was held elsewhere). Concurrent calls on this node share one load.
   */
  synchronized Future<Integer> loadAll() {
    if (running != null) {
      return running;
    }
    String token = UUID.randomUUID().toString();
    long now = System.currentTimeMillis();
    long from = now - warmMillis;
    Future<Integer> load = hot.lockWarm(token, LOCK_MILLIS).compose(locked -> {
      if (!locked) {
        return Future.succeededFuture(-1);
      }
      Map<String, List<long[]>> lists = new HashMap<>();
      return page(from, 0L, 0, lists, now)
          .compose(n -> fillLists(lists, from).map(n))
          .compose(n -> hot.markWarm(now).map(n))
          .onSuccess(n -> LOG.info("Loaded {} activities starting since {} into Redis", n, from))
          .eventually(() -> hot.unlockWarm(token));
    });
    running = load;
    load.onComplete(ar -> {
      synchronized (this) {
        running = null;
      }
    });
    return load;
  }

  private Future<Integer> page(long from, long afterId, int loaded, Map<String, List<long[]>> lists, long now) {
    return activities.startingFrom(from, afterId, PAGE).compose(docs -> {
      if (docs.isEmpty()) {
        return Future.succeededFuture(loaded);
      }
      for (JsonObject doc : docs) {
        lists.computeIfAbsent(HotActivities.ownList(doc.getLong("organiser")), k -> new ArrayList<>())
            .add(new long[] {doc.getLong("_id"), doc.getLong("start")});
      }
      return load(docs, lists, now).compose(v -> docs.size() < PAGE
          ? Future.succeededFuture(loaded + docs.size())
          : page(from, docs.get(docs.size() - 1).getLong("_id"), loaded + docs.size(), lists, now));
    });
  }

  /** Loads one activity (a read missed it); answers its record, or null when it does not exist. */
  Future<JsonObject> loadOne(long id) {
    return activities.byId(id).compose(doc -> doc == null ? Future.succeededFuture(null)
        : load(List.of(doc), null, System.currentTimeMillis()).map(doc));
  }

  /** Writes the participations, then the activities with their {@code loaded} mark; collects joined list entries. */
  private Future<Void> load(List<JsonObject> docs, Map<String, List<long[]>> lists, long now) {
    Map<Long, JsonObject> byId = new HashMap<>();
    docs.forEach(d -> byId.put(d.getLong("_id"), d));
    List<Long> ids = new ArrayList<>(byId.keySet());
    return partsPage(ids, null, byId, lists, now)
        .compose(v -> inChunks(docs, doc -> hot.putActivity(doc, true, now)));
  }

  private Future<Void> partsPage(List<Long> ids, String afterId, Map<Long, JsonObject> docs,
                                 Map<String, List<long[]>> lists, long now) {
    return participants.ofActivities(ids, afterId, PARTS_PAGE).compose(parts -> {
      if (lists != null) {
        for (JsonObject p : parts) {
          if (Activities.JOINED.equals(p.getString("status"))) {
            lists.computeIfAbsent(HotActivities.joinedList(p.getLong("user")), k -> new ArrayList<>())
                .add(new long[] {p.getLong("activity"), docs.get(p.getLong("activity")).getLong("start")});
          }
        }
      }
      Future<Void> written = inChunks(parts, p -> hot.putParticipant(p, docs.get(p.getLong("activity")), now));
      return written.compose(v -> parts.size() < PARTS_PAGE ? Future.succeededFuture()
          : partsPage(ids, parts.get(parts.size() - 1).getString("_id"), docs, lists, now));
    });
  }

  private Future<Void> fillLists(Map<String, List<long[]>> lists, long from) {
    List<Map.Entry<String, List<long[]>>> entries = new ArrayList<>(lists.entrySet());
    return inChunks(entries, e -> hot.fillList(e.getKey(), e.getValue(), from));
  }

  /**
   * Rebuilds one user's list from MongoDB (it was missing: never built, expired or emptied): the activities of the
   * window the user organises ({@code own}) or holds a place in.
   */
  Future<Void> rebuildList(long user, boolean own) {
    long from = System.currentTimeMillis() - warmMillis;
    Future<List<long[]>> entries = own
        ? activities.organisedFrom(user, from, LIST_REBUILD_MAX)
            .map(l -> l.stream().map(d -> new long[] {d.getLong("_id"), d.getLong("start")}).toList())
        : participants.joinedFrom(user, from, LIST_REBUILD_MAX)
            .map(l -> l.stream().map(d -> new long[] {d.getLong("activity"), d.getLong("start")}).toList());
    return entries.compose(e -> hot.fillList(own ? HotActivities.ownList(user) : HotActivities.joinedList(user), e,
        from));
  }

  /** Runs {@code write} over {@code items}, at most {@link #WRITES_IN_FLIGHT} at a time. */
  private static <T> Future<Void> inChunks(List<T> items, java.util.function.Function<T, Future<Void>> write) {
    Future<Void> chain = Future.succeededFuture();
    for (int i = 0; i < items.size(); i += WRITES_IN_FLIGHT) {
      List<T> chunk = items.subList(i, Math.min(items.size(), i + WRITES_IN_FLIGHT));
      chain = chain.compose(v -> {
        List<Future<Void>> all = new ArrayList<>();
        chunk.forEach(item -> all.add(write.apply(item)));
        return Future.all(all).mapEmpty();
      });
    }
    return chain;
  }
}
