package io.kith.activities.service;

import io.kith.accounts.api.AccountsService;
import io.kith.activities.api.Activities;
import io.kith.activities.api.ActivitiesErrors;
import io.kith.activities.api.ActivitiesEvents;
import io.kith.activities.api.ActivitiesService;
import io.kith.feeds.api.MediaClient;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.store.MongoErrors;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** The activities rules; see {@link ActivitiesService} and the module README. */
final class ActivitiesServiceImpl implements ActivitiesService {

  private static final Logger LOG = LoggerFactory.getLogger(ActivitiesServiceImpl.class);

  private static final long HOUR = 3_600_000L;
  /** Rounds of reading further when filtering leaves a list page short. */
  private static final int LIST_ROUNDS = 5;
  /** Friends' joined activities looked at per friend. */
  private static final int PER_FRIEND = 20;
  /** Friends shown per activity in {@link #friendsActivities}. */
  private static final int FRIENDS_SHOWN = 5;
  /** Most ids of one relations or accounts batch question. */
  private static final int BATCH = 1_000;

  private final Platform platform;
  private final ActivitiesSettings settings;
  private final ActivityStore activities;
  private final ParticipantStore participants;
  private final HotActivities hot;
  private final WarmStart loader;
  private final Seats seats;
  private final Effects effects;
  private final RelationsService relations;
  private final AccountsService accounts;
  private final MediaClient media;
  private final RateLimiter limiter;

  ActivitiesServiceImpl(Platform platform, ActivitiesSettings settings, ActivityStore activities,
                        ParticipantStore participants, HotActivities hot, WarmStart loader, Seats seats,
                        Effects effects, RelationsService relations, AccountsService accounts, MediaClient media) {
    this.platform = platform;
    this.settings = settings;
    this.activities = activities;
    this.participants = participants;
    this.hot = hot;
    this.loader = loader;
    this.seats = seats;
    this.effects = effects;
    this.relations = relations;
    this.accounts = accounts;
    this.media = media;
    this.limiter = new RateLimiter(platform.redis());
  }

  // ---------------------------------------------------------------- organiser

  @Override
  public Future<JsonObject> create(long actor, JsonObject body) {
    return Failures.guard(() -> {
      requireUser(actor);
      long now = System.currentTimeMillis();
      JsonObject draft = ActivityDraft.create(body, now, settings.maxParticipants());
      return throttle("create", actor, settings.createsPerHour(), HOUR, "activities per hour")
          .compose(v -> checkCover(actor, draft.getJsonObject("cover")))
          .compose(v -> {
            long id = platform.ids().next();
            long start = draft.getLong("start");
            JsonObject doc = draft.copy().put("_id", id).put("organiser", actor).put("status", Activities.OPEN)
                .put("joined_count", 0).put("waiting", 0).putNull("discussion").put("disc_dirty", false)
                .put("remind_at", remindAt(start, now)).put("reminded", false)
                .put("created", now).put("updated", now).put("v", 1L);
            return activities.insert(doc)
                .compose(x -> hot.putActivity(doc, true, now).recover(e -> effects.activity(doc)))
                .compose(x -> effects.emit(ActivitiesEvents.ACTIVITY_CREATED, Effects.base(doc)
                    .put("start", start).put("end", doc.getLong("end"))
                    .put("visibility", doc.getString("visibility"))))
                .compose(x -> viewOf(actor, doc, null));
          });
    });
  }

  /** When the reminder of an activity starting at {@code start} is due; null when that is already past. */
  private Long remindAt(long start, long now) {
    long at = start - settings.reminderBeforeSeconds() * 1000L;
    return at >= now ? at : null;
  }

  @Override
  public Future<JsonObject> update(long actor, long activityId, JsonObject changes) {
    return Failures.guard(() -> {
      requireUser(actor);
      JsonObject ch = ActivityDraft.changes(changes, settings.maxParticipants());
      return organisersOwn(actor, activityId).compose(doc -> {
        long now = System.currentTimeMillis();
        if (doc.getLong("end") <= now) {
          return Failures.fail(ActivitiesErrors.ACTIVITY_STARTED, "the activity is over");
        }
        long start = ch.containsKey("start") ? ch.getLong("start") : doc.getLong("start");
        long end = ch.containsKey("end") ? ch.getLong("end") : doc.getLong("end");
        boolean startChanged = start != doc.getLong("start");
        ActivityDraft.checkTimes(start, end, now, startChanged);
        List<String> changed = new ArrayList<>();
        for (String field : ActivityDraft.FIELDS) {
          if (ch.containsKey(field) && !same(ch.getValue(field), doc.getValue(field))) {
            changed.add(field);
          }
        }
        if (changed.isEmpty()) {
          return viewOf(actor, doc, null);
        }
        JsonObject set = new JsonObject();
        changed.forEach(f -> set.put(f, ch.getValue(f)));
        if (startChanged) {
          set.put("remind_at", remindAt(start, now)).put("reminded", false);
        }
        Integer newCap = null;
        if (changed.contains("capacity")) {
          Integer capacity = ch.getInteger("capacity");
          newCap = capacity == null ? settings.maxParticipants() : capacity;
        }
        Integer capFilter = newCap;
        Future<Void> cover = changed.contains("cover") ? checkCover(actor, ch.getJsonObject("cover"))
            : Future.succeededFuture();
        return cover.compose(v -> activities.update(activityId, actor, set, capFilter, now)).compose(updated -> {
          if (updated == null) {
            return activities.byId(activityId).compose(d -> {
              if (d != null && Activities.CANCELLED.equals(d.getString("status"))) {
                return Failures.fail(ActivitiesErrors.ACTIVITY_CANCELLED, "the activity was cancelled");
              }
              if (d != null && capFilter != null && d.getInteger("joined_count", 0) > capFilter) {
                return Failures.failField(KithErrors.VALIDATION_FAILED, "capacity", "capacity cannot be below the "
                    + d.getInteger("joined_count") + " participants who joined");
              }
              return Failures.fail(KithErrors.CONFLICT, "the activity changed meanwhile; try again");
            });
          }
          return afterUpdate(updated, changed, startChanged)
              .compose(v -> activities.byId(activityId))
              .compose(latest -> viewOf(actor, latest == null ? updated : latest, null));
        });
      });
    });
  }

  /** Redis copies, participants' lists, promotions and the event after an edit. */
  private Future<Void> afterUpdate(JsonObject doc, List<String> changed, boolean startChanged) {
    long id = doc.getLong("_id");
    Future<List<Long>> joined = participants.joinedIds(id, settings.maxParticipants());
    return effects.activity(doc).compose(v -> joined).compose(users -> {
      Future<List<Long>> told = toldOf(doc, users);
      Future<Void> moved = !startChanged ? Future.succeededFuture()
          : participants.setStart(id, doc.getLong("start"))
              .compose(x -> hot.restart(id, users, doc.getLong("start")).recover(e -> Future.succeededFuture()));
      Future<Void> promoted = changed.contains("capacity") || changed.contains("start")
          ? moved.compose(x -> seats.fill(id)) : moved;
      return promoted.compose(x -> told).compose(named -> effects.emit(ActivitiesEvents.ACTIVITY_UPDATED,
          Effects.base(doc).put("changed", new JsonArray(changed)).put("start", doc.getLong("start"))
              .put("end", doc.getLong("end")).put("place", doc.getJsonObject("place"))
              .put("participants", new JsonArray(named))));
    });
  }

  /**
   * The participants an event about the activity names: {@code users} without those in a block with the organiser.
   * When relations cannot answer nobody is named (logged): the edit is made, its event tells no one rather than
   * someone who should not be told.
   */
  private Future<List<Long>> toldOf(JsonObject doc, List<Long> users) {
    return Access.withoutBlocks(relations, doc.getLong("organiser"), users).recover(e -> {
      LOG.warn("Activity {}: participants not named in its event (relations: {})", doc.getLong("_id"), e.toString());
      return Future.succeededFuture(List.of());
    });
  }

  private static boolean same(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return x.doubleValue() == y.doubleValue();
    }
    if (a instanceof JsonObject x && b instanceof JsonObject y) {
      if (!x.fieldNames().equals(y.fieldNames())) {
        return false;
      }
      for (String f : x.fieldNames()) {
        if (!same(x.getValue(f), y.getValue(f))) {
          return false;
        }
      }
      return true;
    }
    return Objects.equals(a, b);
  }

  @Override
  public Future<JsonObject> cancel(long actor, long activityId) {
    return Failures.guard(() -> {
      requireUser(actor);
      return organisersOwn(actor, activityId).compose(doc -> {
        if (Activities.CANCELLED.equals(doc.getString("status"))) {
          return viewOf(actor, doc, null);
        }
        return activities.cancel(activityId, actor, System.currentTimeMillis()).compose(cancelled -> {
          if (cancelled == null) {
            return activities.byId(activityId).compose(d -> viewOf(actor, d, null));
          }
          return effects.activity(cancelled)
              .compose(v -> participants.joinedIds(activityId, settings.maxParticipants()))
              .compose(joined -> toldOf(cancelled, joined))
              .compose(users -> effects.emit(ActivitiesEvents.ACTIVITY_CANCELLED, Effects.base(cancelled)
                  .put("start", cancelled.getLong("start")).put("participants", new JsonArray(users))))
              .compose(v -> viewOf(actor, cancelled, null));
        });
      });
    });
  }

  @Override
  public Future<JsonObject> invite(long actor, long activityId, List<Long> userIds) {
    return Failures.guard(() -> {
      requireUser(actor);
      if (userIds == null || userIds.isEmpty() || userIds.size() > Activities.MAX_INVITES) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "users",
            "invite 1 to " + Activities.MAX_INVITES + " users at a time");
      }
      Set<Long> wanted = new LinkedHashSet<>();
      for (Long u : userIds) {
        if (u == null || u <= 0) {
          return Failures.failField(KithErrors.VALIDATION_FAILED, "users", "users must be user ids");
        }
        if (u != actor) {
          wanted.add(u);
        }
      }
      List<Long> list = new ArrayList<>(wanted);
      // the answer is the same whoever the ids are: it names every id the call covered, never who got an invitation
      JsonObject answer = new JsonObject().put("invited", new JsonArray(list));
      return organisersOwn(actor, activityId).compose(doc -> openAndNotOver(doc)
          .compose(v -> list.isEmpty() ? Future.succeededFuture() : participants.invitedCount(activityId)
              .compose(held -> held + list.size() > settings.maxInvitees()
                  ? Failures.failField(KithErrors.VALIDATION_FAILED, "users", "an activity holds at most "
                      + settings.maxInvitees() + " invitations (" + held + " now)")
                  : Future.succeededFuture()))
          .compose(v -> list.isEmpty() ? Future.succeededFuture()
              : throttleBy("invitees", actor, list.size(), settings.inviteesPerHour(), HOUR, "users invited per hour"))
          .compose(v -> list.isEmpty() ? Future.succeededFuture(new JsonObject()) : accounts.summaries(actor, list))
          .compose(found -> list.isEmpty() ? Future.succeededFuture(List.<Long>of())
              : relations.ties(actor, list).map(ties -> list.stream()
                  .filter(u -> found.containsKey(Long.toString(u)))
                  .filter(u -> mayInvite(ties.getJsonObject(Long.toString(u))))
                  .toList()))
          .compose(eligible -> {
            List<Future<Long>> each = new ArrayList<>();
            eligible.forEach(u -> each.add(inviteOne(doc, u)));
            return Future.all(each).map(all -> {
              List<Long> invited = new ArrayList<>();
              each.forEach(f -> {
                if (f.result() != null) {
                  invited.add(f.result());
                }
              });
              return invited;
            });
          })
          .compose(invited -> invited.isEmpty() ? Future.<Void>succeededFuture()
              : effects.emit(ActivitiesEvents.ACTIVITY_INVITED, Effects.base(doc)
                  .put("start", doc.getLong("start")).put("invited", new JsonArray(invited))))
          .map(v -> answer));
    });
  }

  /** The organiser invites friends only (mutual follows), and nobody in a block with them either way. */
  private static boolean mayInvite(JsonObject tie) {
    return tie != null && tie.getBoolean("friend", false) && !Access.blocked(tie);
  }

  /** Invites one user; answers the id when newly invited, null when already invited or taking part. */
  private Future<Long> inviteOne(JsonObject doc, long user) {
    long id = doc.getLong("_id");
    return participants.find(id, user).compose(part -> {
      long now = System.currentTimeMillis();
      if (part == null) {
        return participants.insert(id, user, Activities.NONE, true, 0L, doc.getLong("start"), now)
            .compose(made -> effects.participant(made, doc).map(user))
            .recover(e -> MongoErrors.isDuplicateKey(e) ? inviteOne(doc, user) : Future.failedFuture(e));
      }
      String status = part.getString("status");
      if (part.getBoolean("invited", false) || Activities.JOINED.equals(status)
          || Activities.WAITLISTED.equals(status)) {
        return Future.succeededFuture(null);
      }
      return participants.transition(id, user, List.of(status),
              new JsonObject().put("invited", true).put("status", Activities.NONE))
          .compose(made -> made == null ? inviteOne(doc, user) : effects.participant(made, doc).map(user));
    });
  }

  @Override
  public Future<Void> removeParticipant(long actor, long activityId, long userId) {
    return Failures.guard(() -> {
      requireUser(actor);
      if (userId <= 0 || userId == actor) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "user", "user must be a participant's id");
      }
      return organisersOwn(actor, activityId).compose(doc -> seats.leave(doc, userId, true).compose(out ->
          out.changed() ? effects.emit(ActivitiesEvents.ACTIVITY_LEFT, Effects.base(doc).put("user", userId)
              .put("removed_by", actor)) : Future.succeededFuture()));
    });
  }

  /** The activity if the actor organises it; else not_organiser (visible) or activity_not_found. */
  private Future<JsonObject> organisersOwn(long actor, long activityId) {
    if (activityId <= 0) {
      return Failures.fail(ActivitiesErrors.ACTIVITY_NOT_FOUND, "no such activity");
    }
    return activities.byId(activityId).compose(doc -> {
      if (doc == null) {
        return Failures.fail(ActivitiesErrors.ACTIVITY_NOT_FOUND, "no such activity");
      }
      if (doc.getLong("organiser") == actor) {
        return Future.succeededFuture(doc);
      }
      return visibleOne(actor, activityId).compose(seen -> Failures.fail(ActivitiesErrors.NOT_ORGANISER,
          "only the organiser may do this"));
    });
  }

  private static Future<Void> openAndNotOver(JsonObject doc) {
    if (Activities.CANCELLED.equals(doc.getString("status"))) {
      return Failures.fail(ActivitiesErrors.ACTIVITY_CANCELLED, "the activity was cancelled");
    }
    if (doc.getLong("end") <= System.currentTimeMillis()) {
      return Failures.fail(ActivitiesErrors.ACTIVITY_STARTED, "the activity is over");
    }
    return Future.succeededFuture();
  }

  // ---------------------------------------------------------------- participants

  @Override
  public Future<JsonObject> join(long actor, long activityId) {
    return Failures.guard(() -> {
      requireUser(actor);
      return visibleOne(actor, activityId).compose(h -> {
        JsonObject doc = h.doc();
        if (doc.getLong("organiser") == actor) {
          return Failures.fail(ActivitiesErrors.ORGANISER_CANNOT_JOIN, "you organise this activity");
        }
        Future<JsonObject> refused = Seats.notJoinable(doc, System.currentTimeMillis());
        if (refused != null) {
          return refused;
        }
        return seats.join(doc, actor).compose(out -> membership(activityId, actor, out));
      });
    });
  }

  @Override
  public Future<JsonObject> leave(long actor, long activityId) {
    return Failures.guard(() -> {
      requireUser(actor);
      return one(actor, activityId).compose(h -> {
        if (h == null) {
          return Failures.fail(ActivitiesErrors.ACTIVITY_NOT_FOUND, "no such activity");
        }
        return seats.leave(h.doc(), actor, false).compose(out -> {
          if (out.changed()) {
            return effects.emit(ActivitiesEvents.ACTIVITY_LEFT, Effects.base(h.doc()).put("user", actor))
                .compose(v -> membership(activityId, actor, out));
          }
          // not taking part: answer only to someone who may see the activity
          return visibleOne(actor, activityId).compose(v -> membership(activityId, actor, out));
        });
      });
    });
  }

  /** The answer of join and leave: {@code {activity, status, position?, participant_count, waitlist_count}}. */
  private Future<JsonObject> membership(long activityId, long actor, Seats.Outcome out) {
    return one(actor, activityId).map(h -> {
      JsonObject doc = h == null ? out.activity() : h.doc();
      String status = out.status();
      if (Activities.NONE.equals(status) && out.participation() != null
          && out.participation().getBoolean("invited", false)) {
        status = Activities.INVITED;
      }
      JsonObject answer = new JsonObject().put("activity", activityId).put("status", status)
          .put("participant_count", doc.getInteger("joined_count", 0))
          .put("waitlist_count", doc.getInteger("waiting", 0));
      if (Activities.WAITLISTED.equals(status) && h != null && h.waitRank() != null) {
        answer.put("position", h.waitRank() + 1);
      }
      return answer;
    });
  }

  @Override
  public Future<JsonObject> participants(long viewer, long activityId, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = limit(q);
      Object s = q.getValue("status");
      String status = s == null ? Activities.JOINED : String.valueOf(s);
      if (!List.of(Activities.JOINED, Activities.WAITLISTED, Activities.INVITED).contains(status)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "status",
            "status must be joined, waitlisted or invited");
      }
      Long after = longCursor(q);
      return visibleOne(viewer, activityId).compose(h -> {
        long organiser = h.doc().getLong("organiser");
        boolean isOrganiser = viewer != 0 && viewer == organiser;
        if (!Activities.JOINED.equals(status) && !isOrganiser) {
          return Failures.fail(ActivitiesErrors.NOT_ORGANISER, "only the organiser sees who waits or is invited");
        }
        Future<List<long[]>> page = Activities.INVITED.equals(status)
            ? hot.invited(activityId).map(users -> users.stream().filter(u -> after == null || u > after)
                .limit(limit + 1L).map(u -> new long[] {u, u}).toList())
            : hot.joinedPage(activityId, status, after, limit + 1);
        return page.compose(rows -> {
          boolean more = rows.size() > limit;
          List<long[]> shown = more ? rows.subList(0, limit) : rows;
          List<Long> users = shown.stream().map(r -> r[0]).toList();
          Future<JsonObject> ties = viewer == 0 || users.isEmpty() ? Future.succeededFuture(new JsonObject())
              : relations.ties(viewer, users);
          Future<JsonObject> summaries = users.isEmpty() ? Future.succeededFuture(new JsonObject())
              : accounts.summaries(viewer, users);
          // invitees who joined or wait since are listed with that status
          Future<List<String>> statuses = Activities.INVITED.equals(status) ? hot.statuses(activityId, users)
              : Future.succeededFuture(users.stream().map(x -> status).toList());
          return Future.all(ties, summaries, statuses).map(v -> {
            JsonArray items = new JsonArray();
            for (int i = 0; i < shown.size(); i++) {
              long[] row = shown.get(i);
              String key = Long.toString(row[0]);
              JsonObject tie = ties.result().getJsonObject(key, new JsonObject());
              if (!isOrganiser && Access.blocked(tie)) {
                continue;
              }
              JsonObject item = new JsonObject()
                  .put("user", summaries.result().getJsonObject(key, new JsonObject().put("id", row[0])))
                  .put("status", statuses.result().get(i))
                  .put("friend", tie.getBoolean("friend", false));
              if (!Activities.INVITED.equals(status)) {
                item.put("since", IdGenerator.timeOf(row[1]));
              }
              items.add(item);
            }
            String next = more ? Long.toString(shown.get(shown.size() - 1)[1]) : null;
            return new JsonObject().put("items", items).put("next", next);
          });
        });
      });
    });
  }

  // ---------------------------------------------------------------- reading

  @Override
  public Future<JsonObject> activity(long viewer, long activityId) {
    return visibleOne(viewer, activityId).compose(h -> viewOf(viewer, h.doc(), h));
  }

  @Override
  public Future<JsonObject> visibleActivities(long viewer, List<Long> activityIds) {
    return Failures.guard(() -> {
      if (activityIds == null || activityIds.size() > Activities.MAX_VISIBLE_BATCH) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "activities",
            "ask about at most " + Activities.MAX_VISIBLE_BATCH + " activities");
      }
      List<Long> ids = activityIds.stream().filter(Objects::nonNull).filter(id -> id > 0).distinct().toList();
      return visibleMany(viewer, ids).map(seen -> new JsonObject().put("items",
          new JsonArray(seen.stream().map(h -> h.doc().getLong("_id")).toList())));
    });
  }

  @Override
  public Future<JsonObject> organised(long actor, JsonObject query) {
    return ownList(actor, query, true);
  }

  @Override
  public Future<JsonObject> joined(long actor, JsonObject query) {
    return ownList(actor, query, false);
  }

  private Future<JsonObject> ownList(long actor, JsonObject query, boolean own) {
    return Failures.guard(() -> {
      requireUser(actor);
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = limit(q);
      Object w = q.getValue("when");
      String when = w == null ? "upcoming" : String.valueOf(w);
      if (!List.of("upcoming", "past").contains(when)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "when", "when must be upcoming or past");
      }
      long[] cursor = startCursor(q);
      String key = own ? HotActivities.ownList(actor) : HotActivities.joinedList(actor);
      return hot.listComplete(key)
          .compose(complete -> complete ? Future.succeededFuture() : loader.rebuildList(actor, own))
          .compose(v -> "past".equals(when)
              ? pastPage(actor, key, own, cursor, limit)
              : upcomingPage(actor, key, own, cursor, limit));
    });
  }

  private Future<JsonObject> upcomingPage(long actor, String key, boolean own, long[] cursor, int limit) {
    long now = System.currentTimeMillis();
    // ongoing activities started at most the longest duration ago
    String min = cursor == null ? Long.toString(now - Activities.MAX_DURATION_MS) : Long.toString(cursor[0]);
    List<Hot2> page = new ArrayList<>();
    return scan(actor, key, own, min, "+inf", false, 0, LIST_ROUNDS, limit + 1, page, h -> {
      JsonObject d = h.doc();
      return d.getLong("end") > now && after(d, cursor);
    }).compose(v -> listAnswer(actor, page, limit));
  }

  private Future<JsonObject> pastPage(long actor, String key, boolean own, long[] cursor, int limit) {
    long now = System.currentTimeMillis();
    long windowStart = now - settings.warmMillis();
    String max = cursor == null ? Long.toString(now) : Long.toString(cursor[0]);
    List<Hot2> page = new ArrayList<>();
    return scan(actor, key, own, Long.toString(windowStart), max, true, 0, LIST_ROUNDS, limit + 1, page, h -> {
      JsonObject d = h.doc();
      return d.getLong("end") <= now && before(d, cursor) && d.getLong("start") >= windowStart;
    }).compose(exhausted -> {
      if (page.size() > limit || !exhausted) {
        return listAnswer(actor, page, limit);
      }
      // older than the Redis window: MongoDB
      Long cs = cursor == null || cursor[0] >= windowStart ? null : cursor[0];
      Long ci = cs == null ? null : cursor[1];
      int want = limit + 1 - page.size();
      Future<List<JsonObject>> older = own
          ? activities.organisedBefore(actor, windowStart, cs, ci, want)
          : participants.joinedBefore(actor, windowStart, cs, ci, want)
              .compose(parts -> activities.byIds(parts.stream().map(p -> p.getLong("activity")).toList())
                  .map(docs -> {
                    Map<Long, JsonObject> byId = new HashMap<>();
                    docs.forEach(d -> byId.put(d.getLong("_id"), d));
                    return parts.stream().map(p -> byId.get(p.getLong("activity"))).filter(Objects::nonNull)
                        .toList();
                  }));
      return older.compose(docs -> {
        List<Long> organisers = docs.stream().map(d -> d.getLong("organiser")).toList();
        return tiesOf(actor, organisers).compose(ties -> {
          for (JsonObject d : docs) {
            if (d.getLong("end") <= now
                && Access.canSee(actor, d, involvedByList(own), ties.get(d.getLong("organiser")))) {
              page.add(new Hot2(d, null));
            }
          }
          return listAnswer(actor, page, limit);
        });
      });
    });
  }

  /** An entry of a list page: the record, and the viewer's part when read from Redis. */
  private record Hot2(JsonObject doc, HotActivities.Hot hot) {
  }

  /** The part a user has in an activity of their joined list (read from MongoDB: they hold a place). */
  private static HotActivities.Hot involvedByList(boolean own) {
    return own ? null : new HotActivities.Hot(null, 0L, null, false, false, 0);
  }

  /**
   * Reads a user list from Redis in rounds until {@code want} entries pass {@code keep} (and the viewer may see them,
   * and for joined lists still holds a place); answers whether the list was read to its end.
   */
  private Future<Boolean> scan(long actor, String key, boolean own, String min, String max, boolean descending,
                               int offset, int rounds, int want, List<Hot2> page,
                               java.util.function.Predicate<HotActivities.Hot> keep) {
    int batch = Math.max(2 * want, 20);
    return hot.listRange(key, min, max, descending, offset, batch).compose(entries -> {
      List<Long> ids = entries.stream().map(e -> e[0]).toList();
      return visibleMany(actor, ids).map(seen -> {
        for (HotActivities.Hot h : seen) {
          if (page.size() >= want) {
            break;
          }
          if (!own && h.joinedAt() == null) {
            continue;
          }
          if (own && h.doc().getLong("organiser") != actor) {
            continue;
          }
          if (keep.test(h)) {
            page.add(new Hot2(h.doc(), h));
          }
        }
        return entries.size();
      }).compose(read -> {
        boolean end = read < batch;
        if (page.size() >= want || end || rounds <= 1) {
          return Future.succeededFuture(end);
        }
        return scan(actor, key, own, min, max, descending, offset + read, rounds - 1, want, page, keep);
      });
    });
  }

  private static boolean after(JsonObject d, long[] cursor) {
    if (cursor == null) {
      return true;
    }
    long s = d.getLong("start");
    return s > cursor[0] || s == cursor[0] && d.getLong("_id") > cursor[1];
  }

  private static boolean before(JsonObject d, long[] cursor) {
    if (cursor == null) {
      return true;
    }
    long s = d.getLong("start");
    return s < cursor[0] || s == cursor[0] && d.getLong("_id") < cursor[1];
  }

  private Future<JsonObject> listAnswer(long viewer, List<Hot2> page, int limit) {
    boolean more = page.size() > limit;
    List<Hot2> shown = more ? page.subList(0, limit) : page;
    return viewsOf(viewer, shown.stream().map(Hot2::doc).toList(), shown.stream().map(Hot2::hot).toList())
        .map(views -> {
          JsonObject last = shown.isEmpty() ? null : shown.get(shown.size() - 1).doc();
          return new JsonObject().put("items", new JsonArray(views))
              .put("next", more ? last.getLong("start") + "." + last.getLong("_id") : null);
        });
  }

  @Override
  public Future<JsonObject> nearby(long viewer, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      double lat = required(q, "latitude", 90);
      double lon = required(q, "longitude", 180);
      Object r = q.getValue("radius_km");
      if (!(r instanceof Number) || !Double.isFinite(((Number) r).doubleValue())
          || ((Number) r).doubleValue() <= 0 || ((Number) r).doubleValue() > Activities.MAX_RADIUS_KM) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "radius_km",
            "radius_km must be more than 0 and at most " + (int) Activities.MAX_RADIUS_KM);
      }
      double radius = ((Number) r).doubleValue();
      Object o = q.getValue("order");
      String order = o == null ? Activities.BY_START : String.valueOf(o);
      if (!List.of(Activities.BY_START, Activities.BY_DISTANCE).contains(order)) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "order", "order must be start or distance");
      }
      int limit = limit(q);
      int offset = offsetCursor(q);
      long now = System.currentTimeMillis();
      return hot.near(lat, lon, radius, settings.nearbyCandidates()).compose(hits -> {
        Map<Long, Double> distance = new LinkedHashMap<>();
        hits.forEach(h -> distance.put((long) h[0], h[1]));
        return visibleMany(viewer, new ArrayList<>(distance.keySet())).compose(seen -> {
          List<HotActivities.Hot> open = new ArrayList<>(seen.stream()
              .filter(h -> Activities.OPEN.equals(h.doc().getString("status"))
                  && Activities.PUBLIC.equals(h.doc().getString("visibility")) && h.doc().getLong("start") > now)
              .toList());
          Comparator<HotActivities.Hot> byId = Comparator.comparingLong(h -> h.doc().getLong("_id"));
          open.sort(Activities.BY_DISTANCE.equals(order)
              ? Comparator.<HotActivities.Hot>comparingDouble(h -> distance.get(h.doc().getLong("_id")))
                  .thenComparing(byId)
              : Comparator.<HotActivities.Hot>comparingLong(h -> h.doc().getLong("start")).thenComparing(byId));
          List<HotActivities.Hot> shown = open.subList(Math.min(offset, open.size()),
              Math.min(offset + limit, open.size()));
          return viewsOf(viewer, shown.stream().map(HotActivities.Hot::doc).toList(), shown).map(views -> {
            for (int i = 0; i < views.size(); i++) {
              double km = distance.get(shown.get(i).doc().getLong("_id"));
              views.get(i).put("distance_km", Math.round(km * 1000.0) / 1000.0);
            }
            return new JsonObject().put("items", new JsonArray(views))
                .put("next", offset + limit < open.size() ? Integer.toString(offset + limit) : null);
          });
        });
      });
    });
  }

  @Override
  public Future<JsonObject> friendsActivities(long viewer, JsonObject query) {
    return Failures.guard(() -> {
      requireUser(viewer);
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = limit(q);
      long[] cursor = startCursor(q);
      long now = System.currentTimeMillis();
      return friendsOf(viewer, null, new ArrayList<>()).compose(friends -> {
        List<Future<List<long[]>>> parts = new ArrayList<>();
        for (int i = 0; i < friends.size(); i += 500) {
          parts.add(hot.joinedByUsers(friends.subList(i, Math.min(friends.size(), i + 500)),
              cursor == null ? now : Math.max(now, cursor[0] - 1), PER_FRIEND));
        }
        return Future.all(parts).compose(all -> {
          Map<Long, List<Long>> whoJoined = new LinkedHashMap<>();
          for (Future<List<long[]>> f : parts) {
            for (long[] e : f.result()) {
              whoJoined.computeIfAbsent(e[0], k -> new ArrayList<>()).add(e[2]);
            }
          }
          return visibleMany(viewer, new ArrayList<>(whoJoined.keySet())).compose(seen -> {
            List<HotActivities.Hot> open = new ArrayList<>(seen.stream()
                .filter(h -> Activities.OPEN.equals(h.doc().getString("status"))
                    && h.doc().getLong("start") > now && after(h.doc(), cursor)
                    && h.doc().getLong("organiser") != viewer)
                .toList());
            open.sort(Comparator.<HotActivities.Hot>comparingLong(h -> h.doc().getLong("start"))
                .thenComparingLong(h -> h.doc().getLong("_id")));
            boolean more = open.size() > limit;
            List<HotActivities.Hot> shown = more ? open.subList(0, limit) : open;
            List<Long> shownFriends = shown.stream()
                .flatMap(h -> whoJoined.get(h.doc().getLong("_id")).stream().limit(FRIENDS_SHOWN)).distinct().toList();
            Future<JsonObject> summaries = shownFriends.isEmpty() ? Future.succeededFuture(new JsonObject())
                : accounts.summaries(viewer, shownFriends);
            return Future.all(viewsOf(viewer, shown.stream().map(HotActivities.Hot::doc).toList(), shown),
                summaries).map(v -> {
                  List<JsonObject> views = v.resultAt(0);
                  JsonObject names = v.resultAt(1);
                  for (int i = 0; i < views.size(); i++) {
                    JsonArray who = new JsonArray();
                    whoJoined.get(shown.get(i).doc().getLong("_id")).stream().limit(FRIENDS_SHOWN).forEach(f ->
                        who.add(names.getJsonObject(Long.toString(f), new JsonObject().put("id", f))));
                    views.get(i).put("friends", who);
                  }
                  JsonObject last = shown.isEmpty() ? null : shown.get(shown.size() - 1).doc();
                  return new JsonObject().put("items", new JsonArray(views))
                      .put("next", more ? last.getLong("start") + "." + last.getLong("_id") : null);
                });
          });
        });
      });
    });
  }

  private Future<List<Long>> friendsOf(long user, String cursor, List<Long> out) {
    return relations.friendIds(user, BATCH, cursor).compose(page -> {
      page.getJsonArray("items", new JsonArray()).forEach(id -> {
        if (out.size() < settings.friendsScan()) {
          out.add(((Number) id).longValue());
        }
      });
      String next = page.getString("next");
      return next == null || out.size() >= settings.friendsScan() ? Future.succeededFuture(out)
          : friendsOf(user, next, out);
    });
  }

  // ---------------------------------------------------------------- the activity as seen by someone

  /** One activity and the viewer's part in it, from Redis (loading it on a miss); null when it does not exist. */
  private Future<HotActivities.Hot> one(long viewer, long id) {
    if (id <= 0) {
      return Future.succeededFuture(null);
    }
    return many(viewer, List.of(id)).map(l -> l.isEmpty() ? null : l.get(0));
  }

  /** The activities that exist, with the viewer's part, in the order asked. */
  private Future<List<HotActivities.Hot>> many(long viewer, List<Long> ids) {
    if (ids.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return hot.read(ids, viewer).recover(e -> Future.succeededFuture(nulls(ids.size()))).compose(found -> {
      List<Integer> missing = new ArrayList<>();
      for (int i = 0; i < found.size(); i++) {
        if (found.get(i) == null) {
          missing.add(i);
        }
      }
      if (missing.isEmpty()) {
        return Future.succeededFuture(found);
      }
      List<Future<HotActivities.Hot>> loads = new ArrayList<>();
      for (int i : missing) {
        loads.add(loadOne(viewer, ids.get(i)));
      }
      return Future.all(loads).map(v -> {
        List<HotActivities.Hot> out = new ArrayList<>(found);
        for (int k = 0; k < missing.size(); k++) {
          out.set(missing.get(k), loads.get(k).result());
        }
        out.removeIf(Objects::isNull);
        return out;
      });
    });
  }

  private static List<HotActivities.Hot> nulls(int n) {
    List<HotActivities.Hot> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(null);
    }
    return out;
  }

  /** Loads a missed activity into Redis and reads it again; from MongoDB alone when Redis cannot serve it. */
  private Future<HotActivities.Hot> loadOne(long viewer, long id) {
    return loader.loadOne(id).recover(e -> activities.byId(id)).compose(doc -> {
      if (doc == null) {
        return Future.succeededFuture(null);
      }
      return hot.read(List.of(id), viewer).otherwise(nulls(1)).compose(again -> again.get(0) != null
          ? Future.succeededFuture(again.get(0))
          : participants.find(id, viewer).map(p -> fromRecord(doc, p)));
    });
  }

  private static HotActivities.Hot fromRecord(JsonObject doc, JsonObject part) {
    String status = part == null ? Activities.NONE : part.getString("status");
    return new HotActivities.Hot(doc, Activities.JOINED.equals(status) ? part.getLong("seq") : null,
        Activities.WAITLISTED.equals(status) ? 0L : null, part != null && part.getBoolean("invited", false),
        Activities.REMOVED.equals(status), doc.getInteger("waiting", 0));
  }

  /** One activity the viewer may see, else activity_not_found. */
  private Future<HotActivities.Hot> visibleOne(long viewer, long id) {
    return one(viewer, id).compose(h -> {
      if (h == null) {
        return Failures.fail(ActivitiesErrors.ACTIVITY_NOT_FOUND, "no such activity");
      }
      return visibleMany(viewer, h).compose(ok -> ok ? Future.succeededFuture(h)
          : Failures.fail(ActivitiesErrors.ACTIVITY_NOT_FOUND, "no such activity"));
    });
  }

  private Future<Boolean> visibleMany(long viewer, HotActivities.Hot h) {
    long organiser = h.doc().getLong("organiser");
    return tiesOf(viewer, List.of(organiser)).map(t -> Access.canSee(viewer, h.doc(), h, t.get(organiser)));
  }

  /** The activities that exist and the viewer may see, in the order asked. */
  private Future<List<HotActivities.Hot>> visibleMany(long viewer, List<Long> ids) {
    return many(viewer, ids).compose(found -> tiesOf(viewer, found.stream().map(h -> h.doc().getLong("organiser"))
        .toList()).map(ties -> found.stream().filter(h -> Access.canSee(viewer, h.doc(), h,
        ties.get(h.doc().getLong("organiser")))).toList()));
  }

  /** Relations flags of these organisers as seen by the viewer (empty for anonymous viewers and themselves). */
  private Future<Map<Long, JsonObject>> tiesOf(long viewer, List<Long> organisers) {
    List<Long> others = organisers.stream().distinct().filter(o -> o != viewer).toList();
    if (viewer == 0 || others.isEmpty()) {
      return Future.succeededFuture(Map.of());
    }
    List<Future<JsonObject>> parts = new ArrayList<>();
    for (int i = 0; i < others.size(); i += BATCH) {
      parts.add(relations.ties(viewer, others.subList(i, Math.min(others.size(), i + BATCH))));
    }
    return Future.all(parts).map(v -> {
      Map<Long, JsonObject> out = new HashMap<>();
      parts.forEach(p -> p.result().forEach(e -> out.put(Long.parseLong(e.getKey()), (JsonObject) e.getValue())));
      return out;
    });
  }

  private Future<JsonObject> viewOf(long viewer, JsonObject doc, HotActivities.Hot h) {
    return viewsOf(viewer, List.of(doc), h == null ? null : java.util.Collections.singletonList(h)).map(l -> l.get(0));
  }

  /** Activity views with organiser summaries and the viewer's part (from {@code hots}, or unknown when null). */
  private Future<List<JsonObject>> viewsOf(long viewer, List<JsonObject> docs, List<HotActivities.Hot> hots) {
    List<Long> organisers = docs.stream().map(d -> d.getLong("organiser")).distinct().toList();
    Future<JsonObject> summaries = organisers.isEmpty() ? Future.succeededFuture(new JsonObject())
        : accounts.summaries(viewer, organisers).otherwise(new JsonObject());
    return summaries.map(names -> {
      List<JsonObject> out = new ArrayList<>();
      for (int i = 0; i < docs.size(); i++) {
        JsonObject d = docs.get(i);
        HotActivities.Hot h = hots == null ? null : hots.get(i);
        long organiser = d.getLong("organiser");
        JsonObject me = new JsonObject();
        if (viewer != 0 && viewer == organiser) {
          me.put("status", Activities.ORGANISER);
        } else if (h != null) {
          me.put("status", h.status());
          if (h.waitRank() != null) {
            me.put("position", h.waitRank() + 1);
          }
        } else {
          me.put("status", Activities.NONE);
        }
        out.add(new JsonObject()
            .put("id", d.getLong("_id"))
            .put("organiser", names.getJsonObject(Long.toString(organiser), new JsonObject().put("id", organiser)))
            .put("title", d.getString("title"))
            .put("introduction", d.getString("introduction", ""))
            .put("start", d.getLong("start"))
            .put("end", d.getLong("end"))
            .put("place", d.getJsonObject("place"))
            .put("capacity", d.getInteger("capacity"))
            .put("waitlist", d.getBoolean("waitlist", false))
            .put("visibility", d.getString("visibility"))
            .put("cover", d.getJsonObject("cover"))
            .put("status", d.getString("status"))
            .put("participant_count", d.getInteger("joined_count", 0))
            .put("waitlist_count", d.getInteger("waiting", 0))
            .put("discussion", d.getLong("discussion"))
            .put("created", d.getLong("created"))
            .put("updated", d.getLong("updated"))
            .put("viewer", me));
      }
      return out;
    });
  }

  // ---------------------------------------------------------------- input

  private static void requireUser(long actor) {
    if (actor <= 0) {
      throw Failures.of(KithErrors.UNAUTHENTICATED, "sign in to do this");
    }
  }

  /**
   * Counts {@code weight} hits in the actor's window of {@code what} unless that would pass {@code max} (then
   * {@code rate_limited} with {@code retry_after}, and nothing is counted).
   */
  private Future<Void> throttleBy(String what, long actor, int weight, int max, long windowMillis, String unit) {
    return platform.redisApi().eval(List.of(WEIGHTED_HIT, "1", "rl:activities:" + what + ":" + actor,
        Integer.toString(weight), Integer.toString(max), Long.toString(windowMillis))).compose(r -> {
          if (r.get(0).toLong() < 0) {
            long ttl = Math.max(0, r.get(1).toLong());
            return Future.failedFuture(Failures.withExtra(KithErrors.RATE_LIMITED, "too many " + unit + "; at most "
                + max, new JsonObject().put("retry_after", Math.max(1, (ttl + 999) / 1000))));
          }
          return Future.succeededFuture();
        });
  }

  /** KEYS window; ARGV weight, max, window ms: {count, ttl}, count -1 when refused (nothing counted). */
  private static final String WEIGHTED_HIT =
      "local cur = tonumber(redis.call('get', KEYS[1]) or '0') "
          + "if cur + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return {-1, redis.call('pttl', KEYS[1])} end "
          + "local n = redis.call('incrby', KEYS[1], ARGV[1]) "
          + "local ttl = redis.call('pttl', KEYS[1]) "
          + "if ttl < 0 then redis.call('pexpire', KEYS[1], ARGV[3]) ttl = tonumber(ARGV[3]) end "
          + "return {n, ttl}";

  private Future<Void> throttle(String what, long actor, int max, long windowMillis, String unit) {
    return limiter.hit("rl:activities:" + what + ":" + actor, windowMillis).compose(w -> w.count() > max
        ? Future.failedFuture(Failures.withExtra(KithErrors.RATE_LIMITED, "too many " + unit + "; at most " + max,
            new JsonObject().put("retry_after", w.retryAfterSeconds())))
        : Future.succeededFuture());
  }

  /**
   * A cover {@code {media}} must be an image the organiser may read in the feeds media store (their own upload): the
   * download is opened (which checks it) and cancelled at once.
   */
  private Future<Void> checkCover(long actor, JsonObject cover) {
    if (cover == null || !cover.containsKey("media")) {
      return Future.succeededFuture();
    }
    long mediaId = cover.getLong("media");
    return media.read(actor, mediaId, null).transform(ar -> {
      if (ar.succeeded()) {
        JsonObject info = ar.result().info();
        ar.result().cancel();
        if (!"image".equals(info.getString("kind"))) {
          return Failures.failField(KithErrors.VALIDATION_FAILED, "cover.media", "the cover must be an image");
        }
        return Future.succeededFuture();
      }
      Throwable e = ar.cause();
      if ("media_not_found".equals(Failures.codeOf(e))) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "cover.media",
            "cover.media must be the id of an image you uploaded");
      }
      if (e instanceof ReplyException re && (re.failureType() == ReplyFailure.NO_HANDLERS
          || re.failureType() == ReplyFailure.TIMEOUT)) {
        return Failures.fail(KithErrors.UNAVAILABLE, "the media store did not answer; try again or use a cover url");
      }
      return Future.failedFuture(e);
    });
  }

  private static int limit(JsonObject q) {
    Object l = q.getValue("limit");
    if (l == null) {
      return Activities.DEFAULT_LIMIT;
    }
    if (!(l instanceof Integer || l instanceof Long) || ((Number) l).longValue() < 1
        || ((Number) l).longValue() > Activities.MAX_LIMIT) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "limit",
          "limit must be between 1 and " + Activities.MAX_LIMIT);
    }
    return ((Number) l).intValue();
  }

  private static Long longCursor(JsonObject q) {
    Object c = q.getValue("cursor");
    if (c == null) {
      return null;
    }
    try {
      return Long.parseLong(String.valueOf(c));
    } catch (NumberFormatException e) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "cursor", "cursor must be the next of a previous page");
    }
  }

  private static int offsetCursor(JsonObject q) {
    Long c = longCursor(q);
    if (c == null) {
      return 0;
    }
    if (c < 0 || c > 100_000) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "cursor", "cursor must be the next of a previous page");
    }
    return c.intValue();
  }

  /** A {@code "<start>.<id>"} cursor, or null. */
  private static long[] startCursor(JsonObject q) {
    Object c = q.getValue("cursor");
    if (c == null) {
      return null;
    }
    String[] parts = String.valueOf(c).split("\\.");
    try {
      if (parts.length != 2) {
        throw new NumberFormatException();
      }
      return new long[] {Long.parseLong(parts[0]), Long.parseLong(parts[1])};
    } catch (NumberFormatException e) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "cursor", "cursor must be the next of a previous page");
    }
  }

  private static double required(JsonObject q, String field, double bound) {
    Object v = q.getValue(field);
    if (v == null) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " is required");
    }
    return ActivityDraft.coordinate(v, field, bound);
  }
}
