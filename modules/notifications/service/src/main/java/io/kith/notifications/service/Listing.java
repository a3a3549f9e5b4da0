package io.kith.notifications.service;

import io.kith.feeds.api.FeedsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The user's reads: a filtered page ({@link #list}) and the grouped view ({@link #grouped}). Both show only the
 * notifications whose posts the reader may still see; the others are removed on the way (from the record and Redis,
 * with the counters), so the counts follow what is shown.
 */
final class Listing {

  private static final Logger LOG = LoggerFactory.getLogger(Listing.class);
  /** Fields of a notification that name posts the recipient must still be able to see. */
  private static final List<String> POST_FIELDS = List.of("post", "repost");

  /**
   * A grouped page on its way: the groups Redis read, the latest notifications of them the reader may see, the
   * groups kept for those, then the actors' summaries and the views.
   */
  private record GroupPage(List<JsonObject> groups, List<JsonObject> shown, List<JsonObject> kept,
                           Map<Long, JsonObject> people, List<JsonObject> views) {

    GroupPage withPeople(Map<Long, JsonObject> found) {
      return new GroupPage(groups, shown, kept, found, views);
    }

    GroupPage withViews(List<JsonObject> found) {
      return new GroupPage(groups, shown, kept, people, found);
    }
  }

  /** Records split by whether the reader may still see the posts they name. */
  private record Seen(List<JsonObject> shown, List<Long> gone) {
  }

  private final HotStore hot;
  private final FeedsInternal feeds;
  private final Views views;
  private final Changes changes;

  Listing(HotStore hot, FeedsInternal feeds, Views views, Changes changes) {
    this.hot = hot;
    this.feeds = feeds;
    this.views = views;
    this.changes = changes;
  }

  Future<JsonObject> list(long actor, JsonObject query) {
    JsonObject spec = Query.list(query, changes.types());
    int limit = spec.getInteger("limit");
    return hot.list(actor, spec).compose(found -> visibleOnly(actor, found)
        .compose(shown -> views.of(actor, shown))
        .map(items -> listPage(found, items, limit)));
  }

  private static JsonObject listPage(List<JsonObject> found, List<JsonObject> items, int limit) {
    JsonArray array = new JsonArray(items);
    Long next = found.size() == limit ? Views.id(found.get(found.size() - 1)) : null;
    Long newest = found.isEmpty() ? null : Views.id(found.get(0));
    return new JsonObject().put("items", array).put("next_max_id", next).put("newest_id", newest);
  }

  /** Groups read → the visible latest ones → the actors' summaries → the views → the page. */
  Future<JsonObject> grouped(long actor, JsonObject query) {
    JsonObject spec = Query.grouped(query, changes.types());
    int limit = spec.getInteger("limit");
    return hot.grouped(actor, spec)
        .compose(groups -> visibleGroups(actor, groups))
        .compose(page -> views.summaries(actor, actorsOf(page.kept())).map(page::withPeople))
        .compose(page -> views.of(actor, page.shown()).map(page::withViews))
        .map(page -> groupedPage(page, limit));
  }

  /** Keeps the groups whose latest notification the reader may still see. */
  private Future<GroupPage> visibleGroups(long actor, List<JsonObject> groups) {
    List<JsonObject> latest = groups.stream().map(g -> g.getJsonObject("latest")).toList();
    return visibleOnly(actor, latest).map(shown -> {
      Set<Long> shownIds = new HashSet<>();
      shown.forEach(r -> shownIds.add(Views.id(r)));
      List<JsonObject> kept = groups.stream().filter(g -> shownIds.contains(Views.id(g.getJsonObject("latest"))))
          .toList();
      return new GroupPage(groups, shown, kept, null, null);
    });
  }

  private static Set<Long> actorsOf(List<JsonObject> kept) {
    Set<Long> actors = new LinkedHashSet<>();
    kept.forEach(g -> g.getJsonArray("actors").forEach(a -> actors.add(((Number) a).longValue())));
    return actors;
  }

  private static JsonObject groupedPage(GroupPage page, int limit) {
    Map<Long, JsonObject> viewById = new HashMap<>();
    page.views().forEach(v -> viewById.put(v.getLong("id"), v));
    JsonArray items = new JsonArray();
    for (JsonObject g : page.kept()) {
      JsonObject view = viewById.get(Views.id(g.getJsonObject("latest")));
      items.add(new JsonObject().put("type", view.getString("type")).put("latest", view)
          .put("count", g.getInteger("count")).put("unread", g.getInteger("unread"))
          .put("actor_count", g.getInteger("actor_count")).put("actors", actorSummaries(g, page.people())));
    }
    List<JsonObject> groups = page.groups();
    Long next = groups.size() == limit ? Views.id(groups.get(groups.size() - 1).getJsonObject("latest")) : null;
    return new JsonObject().put("items", items).put("next_max_id", next);
  }

  /** The summaries of a group's actors, in the group's order, leaving out those not found. */
  private static JsonArray actorSummaries(JsonObject group, Map<Long, JsonObject> people) {
    JsonArray summaries = new JsonArray();
    group.getJsonArray("actors").forEach(a -> {
      JsonObject s = people.get(((Number) a).longValue());
      if (s != null) {
        summaries.add(s);
      }
    });
    return summaries;
  }

  /**
   * Keeps the records whose posts the actor may still see; the others are removed (from the record and Redis, with
   * the counters), so the counts follow what is shown.
   */
  private Future<List<JsonObject>> visibleOnly(long actor, List<JsonObject> found) {
    Set<Long> posts = new LinkedHashSet<>();
    found.forEach(r -> POST_FIELDS.forEach(f -> {
      if (r.containsKey(f)) {
        posts.add(Long.parseLong(r.getString(f)));
      }
    }));
    if (posts.isEmpty()) {
      return Future.succeededFuture(found);
    }
    return feeds.visiblePosts(actor, new ArrayList<>(posts))
        .map(visible -> seen(found, visible))
        .compose(seen -> dropUnseen(actor, seen));
  }

  private static Seen seen(List<JsonObject> found, JsonObject visible) {
    Set<Long> ok = new HashSet<>();
    visible.getJsonArray("items", new JsonArray()).forEach(p -> ok.add(((Number) p).longValue()));
    List<JsonObject> shown = new ArrayList<>();
    List<Long> gone = new ArrayList<>();
    for (JsonObject r : found) {
      boolean seen = POST_FIELDS.stream().allMatch(f -> !r.containsKey(f) || ok.contains(Long.parseLong(r.getString(f))));
      if (seen) {
        shown.add(r);
      } else {
        gone.add(Views.id(r));
      }
    }
    return new Seen(shown, gone);
  }

  private Future<List<JsonObject>> dropUnseen(long actor, Seen seen) {
    if (seen.gone().isEmpty()) {
      return Future.succeededFuture(seen.shown());
    }
    LOG.debug("Removing {} notifications of {} about posts they can no longer see", seen.gone().size(), actor);
    return changes.deletedInRecord(actor, hot.deleteIds(actor, seen.gone())).map(c -> seen.shown());
  }
}
