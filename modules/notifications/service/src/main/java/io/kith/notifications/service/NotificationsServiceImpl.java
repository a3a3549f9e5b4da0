package io.kith.notifications.service;

import io.kith.accounts.api.AccountsService;
import io.kith.feeds.api.FeedsService;
import io.kith.notifications.api.Notifications;
import io.kith.notifications.api.NotificationsService;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
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
import java.util.function.Supplier;

/**
 * The notifications service: the actor's reads and writes (Redis decides which notifications a change touches, the
 * record follows with exactly those ids), and the store side of the producers ({@link #store}, {@link #purge}).
 */
final class NotificationsServiceImpl implements NotificationsService {

  private static final Logger LOG = LoggerFactory.getLogger(NotificationsServiceImpl.class);
  static final int MAX_MUTED_USERS = 1_000;
  /** Fields of a notification that name posts the recipient must still be able to see. */
  private static final List<String> POST_FIELDS = List.of("post", "repost");

  private final Platform platform;
  private final NotificationsSettings settings;
  private final NotificationRecords records;
  private final HotStore hot;
  private final FeedsService feeds;
  private final AccountsService accounts;
  private final RateLimiter limiter;

  NotificationsServiceImpl(Platform platform, NotificationsSettings settings, NotificationRecords records,
                           HotStore hot, FeedsService feeds, AccountsService accounts) {
    this.platform = platform;
    this.settings = settings;
    this.records = records;
    this.hot = hot;
    this.feeds = feeds;
    this.accounts = accounts;
    this.limiter = new RateLimiter(platform.redis());
  }

  // ---------------------------------------------------------------- reads

  @Override
  public Future<Page> list(long actor, JsonObject query, PageRequest page) {
    return guard(actor, () -> {
      JsonObject spec = Query.list(Query.paged(query, page));
      int limit = spec.getInteger("limit");
      return hot.list(actor, spec).compose(found -> visibleOnly(actor, found).compose(shown -> views(actor, shown)
          .map(items -> {
            JsonArray array = new JsonArray(items);
            Long next = found.size() == limit ? id(found.get(found.size() - 1)) : null;
            Long newest = found.isEmpty() ? null : id(found.get(0));
            return new JsonObject().put("items", array).put("next_max_id", next).put("newest_id", newest);
          })));
    }).map(Query::page);
  }

  @Override
  public Future<Page> grouped(long actor, JsonObject query, PageRequest page) {
    return guard(actor, () -> {
      JsonObject spec = Query.grouped(Query.paged(query, page));
      int limit = spec.getInteger("limit");
      return hot.grouped(actor, spec).compose(groups -> {
        List<JsonObject> latest = groups.stream().map(g -> g.getJsonObject("latest")).toList();
        return visibleOnly(actor, latest).compose(shown -> {
          Set<Long> shownIds = new HashSet<>();
          shown.forEach(r -> shownIds.add(id(r)));
          List<JsonObject> kept = groups.stream().filter(g -> shownIds.contains(id(g.getJsonObject("latest"))))
              .toList();
          Set<Long> actors = new LinkedHashSet<>();
          kept.forEach(g -> g.getJsonArray("actors").forEach(a -> actors.add(((Number) a).longValue())));
          return summaries(actor, actors).compose(people -> views(actor, shown).map(views -> {
            Map<Long, JsonObject> viewById = new HashMap<>();
            views.forEach(v -> viewById.put(v.getLong("id"), v));
            JsonArray items = new JsonArray();
            for (JsonObject g : kept) {
              JsonObject view = viewById.get(id(g.getJsonObject("latest")));
              JsonArray summaries = new JsonArray();
              g.getJsonArray("actors").forEach(a -> {
                JsonObject s = people.get(((Number) a).longValue());
                if (s != null) {
                  summaries.add(s);
                }
              });
              items.add(new JsonObject().put("type", view.getString("type")).put("latest", view)
                  .put("count", g.getInteger("count")).put("unread", g.getInteger("unread"))
                  .put("actor_count", g.getInteger("actor_count")).put("actors", summaries));
            }
            Long next = groups.size() == limit ? id(groups.get(groups.size() - 1).getJsonObject("latest")) : null;
            return new JsonObject().put("items", items).put("next_max_id", next);
          }));
        });
      });
    }).map(Query::page);
  }

  @Override
  public Future<JsonObject> unreadCounts(long actor) {
    return guard(actor, () -> hot.counts(actor));
  }

  // ---------------------------------------------------------------- the actor's changes

  @Override
  public Future<JsonObject> markRead(long actor, List<Long> ids) {
    return guard(actor, () -> {
      List<Long> valid = Query.ids(ids);
      return throttleMarks(actor).compose(v -> marked(actor, hot.markIds(actor, valid)));
    });
  }

  @Override
  public Future<JsonObject> markAllRead(long actor) {
    return guard(actor, () -> throttleMarks(actor).compose(v -> marked(actor, hot.markAll(actor))));
  }

  @Override
  public Future<JsonObject> markReadWhere(long actor, JsonObject condition) {
    return guard(actor, () -> {
      JsonObject valid = Query.condition(condition);
      return throttleMarks(actor).compose(v -> marked(actor, hot.markWhere(actor, valid)));
    });
  }

  /** Counts a mark-read call of {@code actor}: {@code rate_limited} past {@code mark-reads-per-minute}. */
  private Future<Void> throttleMarks(long actor) {
    return limiter.enforce("rl:notifications:mark-read:" + actor, 60_000L, settings.markReadsPerMinute(),
        "too many mark-read calls (at most " + settings.markReadsPerMinute() + " a minute); retry later");
  }

  @Override
  public Future<JsonObject> delete(long actor, List<Long> ids) {
    return guard(actor, () -> deleted(actor, hot.deleteIds(actor, Query.ids(ids))));
  }

  @Override
  public Future<JsonObject> deleteWhere(long actor, JsonObject condition) {
    return guard(actor, () -> deleted(actor, hot.deleteWhere(actor, Query.condition(condition))));
  }

  private Future<JsonObject> marked(long actor, Future<HotStore.Change> change) {
    return change.compose(c -> records.markRead(actor, c.ids()).map(v -> {
      pushCounts(actor, c);
      return new JsonObject().put("changed", c.ids().size()).put("counts", c.counts());
    }));
  }

  private Future<JsonObject> deleted(long actor, Future<HotStore.Change> change) {
    return change.compose(c -> records.delete(actor, c.ids()).map(v -> {
      pushCounts(actor, c);
      return new JsonObject().put("deleted", c.ids().size()).put("counts", c.counts());
    }));
  }

  // ---------------------------------------------------------------- preferences

  @Override
  public Future<JsonObject> preferences(long actor) {
    return guard(actor, () -> records.preferences(actor));
  }

  @Override
  public Future<JsonObject> setPreferences(long actor, JsonObject preferences) {
    return guard(actor, () -> {
      JsonObject p = preferences == null ? new JsonObject() : preferences;
      JsonObject set = new JsonObject();
      for (String name : p.fieldNames()) {
        switch (name) {
          case "muted_types" -> set.put(name, new JsonArray(Query.typeList(p.getValue(name), name)));
          case "muted_users" -> set.put(name, mutedUsers(actor, p.getValue(name)));
          default -> throw Failures.field(KithErrors.VALIDATION_FAILED, name, "unknown preference '" + name
              + "'; known: muted_types, muted_users");
        }
      }
      Future<Void> write = set.isEmpty() ? Future.succeededFuture() : records.setPreferences(actor, set);
      return write.compose(v -> records.preferences(actor));
    });
  }

  private static JsonArray mutedUsers(long actor, Object value) {
    if (!(value instanceof JsonArray) || ((JsonArray) value).size() > MAX_MUTED_USERS) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "muted_users",
          "muted_users must be a list of at most " + MAX_MUTED_USERS + " user ids");
    }
    Set<Long> ids = new LinkedHashSet<>();
    for (Object o : (JsonArray) value) {
      if (!(o instanceof Number) || ((Number) o).longValue() < 1 || ((Number) o).longValue() == actor) {
        throw Failures.field(KithErrors.VALIDATION_FAILED, "muted_users",
            "muted_users must hold positive user ids other than yours");
      }
      ids.add(((Number) o).longValue());
    }
    return new JsonArray(new ArrayList<>(ids));
  }

  @Override
  public Future<JsonObject> muteUser(long actor, long userId) {
    return guard(actor, () -> {
      if (userId < 1 || userId == actor) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "userId", "mute another user's notifications");
      }
      return records.preferences(actor).compose(p -> {
        JsonArray muted = p.getJsonArray("muted_users");
        if (muted.contains(userId)) {
          return Future.succeededFuture(p);
        }
        if (muted.size() >= MAX_MUTED_USERS) {
          return Failures.fail(KithErrors.CONFLICT, "at most " + MAX_MUTED_USERS + " users can be muted");
        }
        return records.muteUser(actor, userId, true).compose(v -> records.preferences(actor));
      });
    });
  }

  @Override
  public Future<JsonObject> unmuteUser(long actor, long userId) {
    return guard(actor, () -> records.muteUser(actor, userId, false).compose(v -> records.preferences(actor)));
  }

  // ---------------------------------------------------------------- producers' side

  /**
   * Stores a notification made by a producer (already checked against preferences, blocks and visibility): the
   * record first, then the Redis side; pushes it and the new counts when it is new. A duplicate (same recipient and
   * dedupe key) changes nothing. With a {@code slot} (null for none), the notification replaces the older one of the
   * recipient holding that slot, counting it ({@link NotificationRecords#settle}); the push names the replaced id.
   */
  Future<Void> store(long to, String type, String key, String slot, JsonObject fields) {
    long id;
    try {
      id = platform.ids().next();
    } catch (IllegalStateException e) {
      return Future.failedFuture(e);
    }
    JsonObject record = fields.copy().put("_id", id).put("to", to).put("type", type)
        .put("created", System.currentTimeMillis()).put("unread", true).put("key", key);
    if (slot != null) {
      record.put("slot", slot).put("count", 1L);
    }
    return records.insert(record)
        .compose(stored -> slot == null ? Future.succeededFuture(stored) : settle(stored))
        .compose(stored -> stored == null ? Future.succeededFuture() : hot.insert(stored).compose(result -> {
          // ours: this delivery made the record (an earlier delivery's record is found by its key, with its own id)
          boolean ours = stored.getLong("_id") == id;
          // an earlier delivery made it: it was pushed then, unless it never reached Redis (stored now, pushed now)
          if (!ours && (result.stored() == HotStore.Stored.DUPLICATE
              || result.stored() == HotStore.Stored.SIDE_MISSING)) {
            return Future.succeededFuture();
          }
          // Redis holding the record this delivery just made: a rebuild ran meanwhile and loaded it from MongoDB, and
          // nobody pushed it yet
          boolean loadedByRebuild = ours && result.stored() == HotStore.Stored.DUPLICATE;
          if (result.stored() == HotStore.Stored.SUPERSEDED) {
            // a newer one took the slot in Redis after this one settled: its settling deleted this record already
            return records.delete(to, List.of(stored.getLong("_id")));
          }
          Future<JsonObject> counts;
          if (result.stored() == HotStore.Stored.SIDE_MISSING) {
            // Redis lost this user's side: the record has the notification; rebuilding now gives the counts to push
            counts = hot.counts(to);
          } else if (loadedByRebuild) {
            // with a slot, that rebuild may have loaded it before it was settled (the count it had before taking the
            // slot): drop the side so that it is rebuilt from the settled record, then push as above
            counts = (slot == null ? Future.<Void>succeededFuture() : hot.invalidate(to)).compose(v -> hot.counts(to));
          } else {
            List<Long> gone = new ArrayList<>(result.evicted());
            gone.addAll(result.replaced());
            counts = (gone.isEmpty() ? Future.<Void>succeededFuture() : records.delete(to, gone))
                .map(v -> result.counts());
          }
          return counts.compose(c -> views(to, List.of(stringRecord(stored))).map(views -> {
            var bus = platform.vertx().eventBus();
            JsonObject envelope = new JsonObject().put("kind", Notifications.PUSH_NOTIFICATION)
                .put("notification", views.get(0));
            if (!result.replaced().isEmpty()) {
              envelope.put("replaces", new JsonArray(result.replaced()));
            }
            bus.publish(Addresses.user(to), envelope);
            bus.publish(Addresses.user(to), unreadEnvelope(c));
            return null;
          }));
        }));
  }

  /**
   * Settles a record's slot: the record (with its count) when it is the slot's newest, else null after removing it
   * (a newer one of the slot was stored first).
   */
  private Future<JsonObject> settle(JsonObject stored) {
    return records.settle(stored).compose(shown -> shown != null ? Future.succeededFuture(shown)
        : removeForUser(stored.getLong("to"), List.of(stored.getLong("_id"))).map(v -> (JsonObject) null));
  }

  /** Deletes every notification the record holds matching {@code filter} (a system delete), batch by batch. */
  Future<Void> purge(JsonObject filter) {
    return records.find(filter).compose(found -> {
      if (found.isEmpty()) {
        return Future.succeededFuture();
      }
      Map<Long, List<Long>> byUser = idsByUser(found);
      List<Future<Void>> each = new ArrayList<>();
      byUser.forEach((user, ids) -> each.add(removeForUser(user, ids)));
      return Future.all(each).compose(v -> found.size() < NotificationRecords.PURGE_BATCH
          ? Future.succeededFuture() : purge(filter));
    });
  }

  /**
   * Marks read every unread notification the record holds matching {@code filter} (a system mark, such as a
   * conversation read in messaging), batch by batch; pushes the new counts of each user whose counts changed. The
   * candidates come from the record; then, as for a user's own change, Redis decides which of them were unread
   * (marking them and fixing the counters atomically) and the record follows with exactly those ids. A candidate
   * stored in the record but not yet in Redis (its producer is between the two writes) therefore stays unread in
   * both stores rather than diverging.
   */
  Future<Void> markReadWhere(JsonObject filter) {
    return records.find(filter.copy().put("unread", true)).compose(found -> {
      if (found.isEmpty()) {
        return Future.succeededFuture();
      }
      Map<Long, List<Long>> byUser = idsByUser(found);
      List<Future<Integer>> each = new ArrayList<>();
      byUser.forEach((user, ids) -> each.add(hot.markIds(user, ids).compose(c -> records.markRead(user, c.ids())
          .map(v -> {
            pushCounts(user, c);
            return c.ids().size();
          }))));
      // a full batch may have more behind it (the ones just marked no longer match); a batch in which Redis changed
      // nothing would only be found again, so it ends the rounds
      return Future.all(each).compose(all -> {
        int changed = all.<Integer>list().stream().mapToInt(Integer::intValue).sum();
        return found.size() < NotificationRecords.PURGE_BATCH || changed == 0 ? Future.succeededFuture()
            : markReadWhere(filter);
      });
    });
  }

  /** The ids of records ({@code {_id, to}}) grouped by recipient. */
  static Map<Long, List<Long>> idsByUser(List<JsonObject> found) {
    Map<Long, List<Long>> byUser = new HashMap<>();
    found.forEach(r -> byUser.computeIfAbsent(r.getLong("to"), u -> new ArrayList<>()).add(r.getLong("_id")));
    return byUser;
  }

  /** The records matching {@code filter} (at most one batch), for re-checks such as visibility after an edit. */
  Future<List<JsonObject>> find(JsonObject filter) {
    return records.find(filter);
  }

  /** Removes these notifications of one user from the record and from its Redis side (if present). */
  Future<Void> removeForUser(long user, List<Long> ids) {
    return records.delete(user, ids).compose(v -> hot.removeIfPresent(user, ids)).map(c -> {
      pushCounts(user, c);
      return null;
    });
  }

  // ---------------------------------------------------------------- helpers

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
    return feeds.visiblePosts(actor, new ArrayList<>(posts)).compose(visible -> {
      Set<Long> ok = new HashSet<>();
      visible.getJsonArray("items", new JsonArray()).forEach(p -> ok.add(((Number) p).longValue()));
      List<JsonObject> shown = new ArrayList<>();
      List<Long> gone = new ArrayList<>();
      for (JsonObject r : found) {
        boolean seen = POST_FIELDS.stream().allMatch(f -> !r.containsKey(f) || ok.contains(Long.parseLong(r.getString(f))));
        if (seen) {
          shown.add(r);
        } else {
          gone.add(id(r));
        }
      }
      if (gone.isEmpty()) {
        return Future.succeededFuture(shown);
      }
      LOG.debug("Removing {} notifications of {} about posts they can no longer see", gone.size(), actor);
      return hot.deleteIds(actor, gone).compose(c -> records.delete(actor, c.ids()).map(v -> {
        pushCounts(actor, c);
        return shown;
      }));
    });
  }

  /** Client views of stored records (string fields as Redis holds them), with the actors' summaries. */
  private Future<List<JsonObject>> views(long viewer, List<JsonObject> stored) {
    Set<Long> actors = new LinkedHashSet<>();
    stored.forEach(r -> {
      if (r.containsKey("from_user")) {
        actors.add(Long.parseLong(r.getString("from_user")));
      }
    });
    return summaries(viewer, actors).map(people -> {
      List<JsonObject> out = new ArrayList<>();
      for (JsonObject r : stored) {
        JsonObject v = new JsonObject().put("id", id(r)).put("type", r.getString("type")).put("to_user", viewer)
            .put("created", Long.parseLong(r.getString("created"))).put("unread", "1".equals(r.getString("unread")));
        for (String f : Notifications.FIELDS) {
          if (r.containsKey(f)) {
            v.put(f, Long.parseLong(r.getString(f)));
          }
        }
        for (String f : Notifications.NUMBERS) {
          if (r.containsKey(f)) {
            v.put(f, Long.parseLong(r.getString(f)));
          }
        }
        for (String f : Notifications.TEXTS) {
          if (r.containsKey(f)) {
            v.put(f, r.getString(f));
          }
        }
        for (String f : Notifications.LISTS) {
          if (r.containsKey(f)) {
            String joined = r.getString(f);
            v.put(f, new JsonArray(joined.isEmpty() ? List.of() : List.of((Object[]) joined.split(","))));
          }
        }
        if (v.containsKey("from_user") && people.containsKey(v.getLong("from_user"))) {
          v.put("actor", people.get(v.getLong("from_user")));
        }
        out.add(v);
      }
      return out;
    });
  }

  /** Profile summaries by id; decoration only, so a failure leaves them out rather than failing the read. */
  private Future<Map<Long, JsonObject>> summaries(long viewer, Set<Long> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    return accounts.summaries(viewer, new ArrayList<>(ids)).map(found -> {
      Map<Long, JsonObject> out = new HashMap<>();
      for (String key : found.fieldNames()) {
        if (found.getValue(key) instanceof JsonObject) {
          out.put(Long.parseLong(key), found.getJsonObject(key));
        }
      }
      return out;
    }).recover(e -> {
      LOG.warn("Could not read user summaries for notifications: {}", e.toString());
      return Future.succeededFuture(Map.of());
    });
  }

  /** A record as Redis holds it (every value a string, unread as 1/0). */
  private static JsonObject stringRecord(JsonObject record) {
    JsonObject out = new JsonObject().put("id", Long.toString(record.getLong("_id")))
        .put("type", record.getString("type")).put("created", Long.toString(record.getLong("created")))
        .put("unread", record.getBoolean("unread", true) ? "1" : "0");
    List<String> pairs = HotStore.fieldPairs(record);
    for (int i = 0; i + 1 < pairs.size(); i += 2) {
      out.put(pairs.get(i), pairs.get(i + 1));
    }
    return out;
  }

  private void pushCounts(long user, HotStore.Change change) {
    if (!change.ids().isEmpty() && change.counts() != null) {
      platform.vertx().eventBus().publish(Addresses.user(user), unreadEnvelope(change.counts()));
    }
  }

  private static JsonObject unreadEnvelope(JsonObject counts) {
    return new JsonObject().put("kind", Notifications.PUSH_UNREAD).put("counts", counts);
  }

  private static long id(JsonObject stored) {
    return Long.parseLong(stored.getString("id"));
  }

  private static <T> Future<T> guard(long actor, Supplier<Future<T>> body) {
    if (actor < 1) {
      return Failures.fail(KithErrors.UNAUTHENTICATED, "a user is required");
    }
    return Failures.guard(body);
  }
}
