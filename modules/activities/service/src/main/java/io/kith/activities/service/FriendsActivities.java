package io.kith.activities.service;

import io.kith.accounts.api.UserSummaries;
import io.kith.accounts.api.AccountsService;
import io.kith.activities.api.Activities;
import io.kith.platform.error.Failures;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Upcoming activities the viewer's friends joined: friends (up to {@code friends-scan}) → their joined lists in Redis
 * → the activities the viewer may see, open and not organised by them → one page by start, each view with the
 * friends who joined it.
 */
final class FriendsActivities {

  /** Friends' joined activities looked at per friend. */
  private static final int PER_FRIEND = 20;
  /** Friends shown per activity. */
  private static final int FRIENDS_SHOWN = 5;
  /** Most ids of one relations batch question. */
  private static final int BATCH = 1_000;

  private final ActivitiesSettings settings;
  private final HotActivities hot;
  private final ActivityViews views;
  private final RelationsInternal relations;
  private final AccountsService accounts;

  FriendsActivities(ActivitiesSettings settings, HotActivities hot, ActivityViews views, RelationsInternal relations,
                    AccountsService accounts) {
    this.settings = settings;
    this.hot = hot;
    this.views = views;
    this.relations = relations;
    this.accounts = accounts;
  }

  /** One page being built: the activities shown, whether more follow, and which friends joined each activity. */
  private record Page(List<HotActivities.Hot> shown, boolean more, Map<Long, List<Long>> whoJoined) {
  }

  /** See {@link io.kith.activities.api.ActivitiesService#friendsActivities}. */
  Future<JsonObject> friendsActivities(long viewer, JsonObject query) {
    return Failures.guard(() -> {
      Input.requireUser(viewer);
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = Input.limit(q);
      long[] cursor = Input.startCursor(q);
      long now = System.currentTimeMillis();
      return friendsOf(viewer, null, new ArrayList<>())
          .compose(friends -> whoJoined(friends, cursor, now))
          .compose(whoJoined -> views.visibleMany(viewer, new ArrayList<>(whoJoined.keySet()))
              .map(seen -> select(viewer, seen, whoJoined, cursor, now, limit)))
          .compose(page -> answer(viewer, page));
    });
  }

  private Future<List<Long>> friendsOf(long user, String cursor, List<Long> out) {
    return relations.friendIds(user, PageRequest.after(cursor, BATCH))
        .map(io.kith.platform.page.Page::toJson).compose(page -> {
      for (Object id : page.getJsonArray("items", new JsonArray())) {
        if (out.size() < settings.friendsScan()) {
          out.add(((Number) id).longValue());
        }
      }
      String next = page.getString("next");
      return next == null || out.size() >= settings.friendsScan() ? Future.succeededFuture(out)
          : friendsOf(user, next, out);
    });
  }

  /** The upcoming activities the friends joined, each with who of them joined it. */
  private Future<Map<Long, List<Long>>> whoJoined(List<Long> friends, long[] cursor, long now) {
    List<Future<List<long[]>>> parts = new ArrayList<>();
    for (int i = 0; i < friends.size(); i += 500) {
      parts.add(hot.joinedByUsers(friends.subList(i, Math.min(friends.size(), i + 500)),
          cursor == null ? now : Math.max(now, cursor[0] - 1), PER_FRIEND));
    }
    return Future.all(parts).map(all -> {
      Map<Long, List<Long>> whoJoined = new LinkedHashMap<>();
      for (Future<List<long[]>> f : parts) {
        for (long[] e : f.result()) {
          whoJoined.computeIfAbsent(e[0], k -> new ArrayList<>()).add(e[2]);
        }
      }
      return whoJoined;
    });
  }

  /** The open activities after the cursor that the viewer does not organise, by start then id; one page of them. */
  private static Page select(long viewer, List<HotActivities.Hot> seen, Map<Long, List<Long>> whoJoined,
                             long[] cursor, long now, int limit) {
    List<HotActivities.Hot> open = new ArrayList<>(seen.stream()
        .filter(h -> Activities.OPEN.equals(h.doc().getString("status"))
            && h.doc().getLong("start") > now && Input.after(h.doc(), cursor)
            && h.doc().getLong("organiser") != viewer)
        .toList());
    open.sort(Comparator.<HotActivities.Hot>comparingLong(h -> h.doc().getLong("start"))
        .thenComparingLong(h -> h.doc().getLong("_id")));
    boolean more = open.size() > limit;
    return new Page(more ? open.subList(0, limit) : open, more, whoJoined);
  }

  /** The views with the friends who joined each (summaries), and the cursor. */
  private Future<JsonObject> answer(long viewer, Page page) {
    List<HotActivities.Hot> shown = page.shown();
    List<Long> shownFriends = shown.stream()
        .flatMap(h -> friendsIn(page, h).stream()).distinct().toList();
    Future<JsonObject> summaries = UserSummaries.lookup(accounts, viewer, shownFriends);
    return Future.all(views.viewsOf(viewer, shown.stream().map(HotActivities.Hot::doc).toList(), shown),
        summaries).map(v -> {
          List<JsonObject> items = v.resultAt(0);
          JsonObject names = v.resultAt(1);
          for (int i = 0; i < items.size(); i++) {
            JsonArray who = new JsonArray();
            friendsIn(page, shown.get(i)).forEach(f ->
                who.add(UserSummaries.of(names, f)));
            items.get(i).put("friends", who);
          }
          JsonObject last = shown.isEmpty() ? null : shown.get(shown.size() - 1).doc();
          return new JsonObject().put("items", new JsonArray(items))
              .put("next", page.more() ? Input.startCursorOf(last) : null);
        });
  }

  /** The friends shown on an activity: the first who joined it. */
  private static List<Long> friendsIn(Page page, HotActivities.Hot h) {
    return page.whoJoined().get(h.doc().getLong("_id")).stream().limit(FRIENDS_SHOWN).toList();
  }
}
