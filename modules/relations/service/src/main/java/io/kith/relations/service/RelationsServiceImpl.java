package io.kith.relations.service;

import io.kith.accounts.api.AccountsService;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.text.UserText;
import io.kith.platform.page.VisiblePages;
import io.kith.relations.api.RelationsErrors;
import io.kith.relations.api.RelationsEvents;
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
import java.util.Set;
import java.util.function.Function;

/** The relations service: every rule about edges between users, decided from the acting user's id. */
final class RelationsServiceImpl implements RelationsService {

  private static final Logger LOG = LoggerFactory.getLogger(RelationsServiceImpl.class);
  static final int MAX_GROUPS = 100;
  static final int MAX_GROUP_MEMBERS = 5_000;
  static final int MAX_PER_CALL = 500;
  static final int MAX_TAGS = 200;
  static final int MAX_TAG_LENGTH = 30;
  static final int MAX_GROUP_NAME = 40;
  static final int MAX_OUTGOING = 10_000;
  static final int MAX_IDS = 1_000;
  static final int MAX_PAGE = 100;
  static final int MAX_STREAM_PAGE = 1_000;
  /**
   * Page of {@link #eligibleFollowers}: the whole follower list of an author who is fanned out (the feeds' default
   * celebrity threshold) fits one page, one query instead of ten.
   */
  static final int MAX_FOLLOWER_PAGE = 10_000;
  /** The author's sets an eligible-follower page asks: the first three exclude a follower, the last flags a friend. */
  private static final List<String> ELIGIBILITY_SETS = List.of(HotSets.HIDES, HotSets.BLOCKS, HotSets.BLOCKED_BY,
      HotSets.FRIENDS);
  private static final int EXCLUDED = 0b0111;
  private static final int FRIEND = 0b1000;
  static final int MAX_PLACEMENTS = 5_000;
  private static final long MINUTE = 60_000L;

  private final Platform platform;
  private final EdgeStore edges;
  private final HotSets sets;
  private final GroupStore groups;
  private final TagStore tags;
  private final AccountsService accounts;
  private final FollowerLists followerLists;
  private final RelationsSettings settings;
  private final RateLimiter limiter;

  RelationsServiceImpl(Platform platform, EdgeStore edges, HotSets sets, FollowerLists followerLists, GroupStore groups,
                       TagStore tags, AccountsService accounts) {
    this.platform = platform;
    this.edges = edges;
    this.sets = sets;
    this.followerLists = followerLists;
    this.groups = groups;
    this.tags = tags;
    this.accounts = accounts;
    this.settings = RelationsSettings.from(platform.config().section("relations"));
    this.limiter = new RateLimiter(platform.redis());
  }

  // ---------------------------------------------------------------- follow

  @Override
  public Future<JsonObject> follow(long actor, long target) {
    return throttleFollows(actor).compose(t -> other(actor, target))
        .compose(approval -> sets.contains(HotSets.BLOCKS, actor, target).compose(blocking -> {
      if (blocking) {
        return Failures.<JsonObject>fail(RelationsErrors.BLOCKING, "you block this user; unblock them first");
      }
      return sets.contains(HotSets.BLOCKED_BY, actor, target).compose(blocked -> {
        if (blocked) {
          // the blocker looks absent to the blocked user, as their profile does (404 by id and by username): a
          // pending request to a user whose profile is missing would be something no ordinary account shows
          return Failures.<JsonObject>fail(RelationsErrors.USER_NOT_FOUND, "no such user");
        }
        return edges.exists(EdgeStore.FOLLOW, actor, target).compose(already -> {
          if (already) {
            return Future.succeededFuture(state("following"));
          }
          return withinLimit(actor, EdgeStore.FOLLOW).compose(v -> {
            if (approval) {
              return edges.insert(EdgeStore.REQUEST, actor, target).map(created -> {
                if (created) {
                  emit(RelationsEvents.FOLLOW_REQUESTED, actor, target);
                }
                return state("requested");
              });
            }
            return doFollow(actor, target).map(x -> state("following"));
          });
        });
      });
    }));
  }

  private static JsonObject state(String s) {
    return new JsonObject().put("state", s);
  }

  /** Creates the follow edge a→b with its counts, hot set, event and friendship. */
  private Future<Void> doFollow(long a, long b) {
    return edges.insert(EdgeStore.FOLLOW, a, b).compose(created -> {
      if (!created) {
        return Future.succeededFuture();
      }
      return Future.all(edges.inc(a, "following", 1), edges.incFollowers(b, 1),
              sets.add(HotSets.FOLLOWING, a, b), edges.delete(EdgeStore.REQUEST, a, b))
          .compose(x -> {
            emit(RelationsEvents.USER_FOLLOWED, a, b);
            return formFriendshipIfMutual(a, b);
          })
          // a block committed while this follow was being made wins: undo the follow
          .compose(x -> Future.all(edges.exists(EdgeStore.BLOCK, a, b), edges.exists(EdgeStore.BLOCK, b, a)))
          .compose(blocks -> blocks.<Boolean>resultAt(0) || blocks.<Boolean>resultAt(1)
              ? removeFollow(a, b) : Future.succeededFuture());
    });
  }

  private Future<Void> formFriendshipIfMutual(long a, long b) {
    return edges.exists(EdgeStore.FOLLOW, b, a).compose(mutual -> {
      if (!mutual) {
        return Future.succeededFuture();
      }
      return Future.all(addFriendEdge(a, b), addFriendEdge(b, a)).compose(added -> {
        long low = Math.min(a, b);
        boolean canonicalNew = low == a ? added.<Boolean>resultAt(0) : added.<Boolean>resultAt(1);
        if (canonicalNew) {
          emit(RelationsEvents.FRIENDSHIP_FORMED, a, b);
        }
        // a concurrent unfollow may have removed a follow edge meanwhile: re-check so no stale friendship stays
        return Future.all(edges.exists(EdgeStore.FOLLOW, a, b), edges.exists(EdgeStore.FOLLOW, b, a))
            .compose(still -> still.<Boolean>resultAt(0) && still.<Boolean>resultAt(1)
                ? Future.succeededFuture() : endFriendship(a, b));
      });
    });
  }

  private Future<Boolean> addFriendEdge(long a, long b) {
    return edges.insert(EdgeStore.FRIEND, a, b).compose(created -> !created ? Future.succeededFuture(false)
        : Future.all(edges.inc(a, "friends", 1), sets.add(HotSets.FRIENDS, a, b)).map(x -> true));
  }

  private Future<Boolean> removeFriendEdge(long a, long b) {
    return edges.delete(EdgeStore.FRIEND, a, b).compose(deleted -> !deleted ? Future.succeededFuture(false)
        : Future.all(edges.inc(a, "friends", -1), sets.remove(HotSets.FRIENDS, a, b),
            groups.removeEverywhere(a, b)).map(x -> true));
  }

  private Future<Void> endFriendship(long a, long b) {
    return Future.all(removeFriendEdge(a, b), removeFriendEdge(b, a)).map(removed -> {
      long low = Math.min(a, b);
      boolean canonicalGone = low == a ? removed.<Boolean>resultAt(0) : removed.<Boolean>resultAt(1);
      if (canonicalGone) {
        emit(RelationsEvents.FRIENDSHIP_ENDED, a, b);
      }
      return null;
    });
  }

  @Override
  public Future<Void> unfollow(long actor, long target) {
    if (actor == target) {
      return Failures.fail(RelationsErrors.SELF_RELATION, "you cannot unfollow yourself");
    }
    return throttleFollows(actor).compose(t -> removeFollow(actor, target));
  }

  /** Counts a follow or unfollow of {@code actor}: {@code rate_limited} past {@code follows-per-minute}. */
  private Future<Void> throttleFollows(long actor) {
    return limiter.enforce("rl:relations:follows:" + actor, MINUTE, settings.followsPerMinute(),
        "too many follows and unfollows (at most " + settings.followsPerMinute() + " a minute); retry later");
  }

  /** Counts a block or unblock of {@code actor}: {@code rate_limited} past {@code blocks-per-minute}. */
  private Future<Void> throttleBlocks(long actor) {
    return limiter.enforce("rl:relations:blocks:" + actor, MINUTE, settings.blocksPerMinute(),
        "too many blocks and unblocks (at most " + settings.blocksPerMinute() + " a minute); retry later");
  }

  /** Removes a→b (and a pending request a→b) with counts, hot set, events and friendship. */
  private Future<Void> removeFollow(long a, long b) {
    return edges.delete(EdgeStore.REQUEST, a, b)
        .compose(v -> edges.delete(EdgeStore.FOLLOW, a, b))
        .compose(deleted -> {
          if (!deleted) {
            return Future.succeededFuture();
          }
          return Future.all(edges.inc(a, "following", -1), edges.incFollowers(b, -1),
                  sets.remove(HotSets.FOLLOWING, a, b))
              .compose(x -> {
                emit(RelationsEvents.USER_UNFOLLOWED, a, b);
                return endFriendship(a, b);
              });
        });
  }

  @Override
  public Future<JsonObject> followers(long viewer, long userId, int limit, String cursor) {
    return Failures.guard(() -> {
      Long before = before(cursor);
      return visibleList(viewer, userId).compose(v -> shownPage(viewer, BLOCKED_EITHER_WAY,
          (older, count) -> edges.page(EdgeStore.FOLLOW, "b", userId, older, count), "a", before, clamp(limit)));
    });
  }

  @Override
  public Future<JsonObject> following(long viewer, long userId, int limit, String cursor) {
    return Failures.guard(() -> {
      Long before = before(cursor);
      return visibleList(viewer, userId).compose(v -> shownPage(viewer, BLOCKED_EITHER_WAY,
          (older, count) -> edges.page(EdgeStore.FOLLOW, "a", userId, older, count), "b", before, clamp(limit)));
    });
  }

  /** Most rows one page of a list of users reads past users hidden from the viewer. */
  static final int MAX_LIST_SCAN = 5_000;
  /** The viewer's sets whose users another user's lists leave out: a block either way, as likers and comments do. */
  private static final List<String> BLOCKED_EITHER_WAY = List.of(HotSets.BLOCKS, HotSets.BLOCKED_BY);
  /**
   * The viewer's sets whose users the viewer's own lists (tags, mutes, hides) leave out: those who block the viewer,
   * who look absent to them everywhere else; users the viewer blocks stay, the viewer knows of that.
   */
  private static final List<String> BLOCKING_VIEWER = List.of(HotSets.BLOCKED_BY);

  /** A row as a list shows it: the row id (the cursor) and the {user, since} item. */
  private record Shown(long row, JsonObject item) {
  }

  /**
   * A page of a list of users ({@code rows} of {_id, at} with the user in {@code field}) without the users in the
   * viewer's {@code hiding} sets, filled up to the limit from older rows, its cursor the last user shown: neither the
   * page nor the cursor tells the viewer that a user who blocks them is on the list.
   */
  private Future<JsonObject> shownPage(long viewer, List<String> hiding, VisiblePages.Rows<JsonObject, Long> rows,
                                       String field, Long before, int limit) {
    return VisiblePages.read(rows, batch -> shownTo(viewer, hiding, batch, field), r -> r.getLong("_id"), Shown::row,
        before, limit, MAX_LIST_SCAN).map(page -> {
          JsonArray items = new JsonArray();
          page.items().forEach(shown -> items.add(shown.item()));
          return new JsonObject().put("items", items).put("next", page.next() == null ? null : page.next().toString());
        });
  }

  /** The rows of a batch whose user ({@code field}) exists and is in none of the viewer's {@code hiding} sets. */
  private Future<List<Shown>> shownTo(long viewer, List<String> hiding, List<JsonObject> batch, String field) {
    List<Long> ids = new ArrayList<>(new LinkedHashSet<>(batch.stream().map(r -> r.getLong(field)).toList()));
    if (ids.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    return sets.memberships(viewer, hiding, ids).compose(masks -> {
      List<Long> shown = new ArrayList<>();
      for (int i = 0; i < ids.size(); i++) {
        if (masks[i] == 0) {
          shown.add(ids.get(i));
        }
      }
      Future<JsonObject> summaries = shown.isEmpty() ? Future.succeededFuture(new JsonObject())
          : accounts.summaries(viewer, shown);
      return summaries.map(found -> {
        List<Shown> out = new ArrayList<>();
        for (JsonObject row : batch) {
          JsonObject user = found.getJsonObject(Long.toString(row.getLong(field)));
          if (user != null) {
            out.add(new Shown(row.getLong("_id"), new JsonObject().put("user", user).put("since", row.getLong("at"))));
          }
        }
        return out;
      });
    });
  }

  @Override
  public Future<JsonObject> friends(long actor, int limit, String cursor) {
    return Failures.guard(() -> page(edges.page(EdgeStore.FRIEND, "a", actor, before(cursor), clamp(limit)), clamp(limit),
        "b", actor));
  }

  @Override
  public Future<JsonObject> counts(long userId) {
    return edges.counts(userId);
  }

  @Override
  public Future<JsonObject> countsFor(long viewer, long userId) {
    return visibleList(viewer, userId).compose(v -> edges.counts(userId));
  }

  /** Another user's lists are visible unless a block stands between the two (then the user looks absent). */
  private Future<Void> visibleList(long viewer, long userId) {
    if (viewer == userId) {
      return Future.succeededFuture();
    }
    return blockedEitherWay(viewer, userId).compose(blocked -> blocked
        ? Failures.fail(RelationsErrors.USER_NOT_FOUND, "no such user")
        : accounts.followSettings(List.of(userId)).compose(found -> found.containsKey(Long.toString(userId))
            ? Future.succeededFuture()
            : Failures.fail(RelationsErrors.USER_NOT_FOUND, "no such user")));
  }

  private Future<Boolean> blockedEitherWay(long a, long b) {
    return Future.all(sets.contains(HotSets.BLOCKS, a, b), sets.contains(HotSets.BLOCKED_BY, a, b))
        .map(r -> r.<Boolean>resultAt(0) || r.<Boolean>resultAt(1));
  }

  // ---------------------------------------------------------------- requests

  @Override
  public Future<JsonObject> incomingRequests(long actor, int limit, String cursor) {
    return Failures.guard(() -> {
      int n = clamp(limit);
      Future<List<JsonObject>> rows = edges.page(EdgeStore.REQUEST, "b", actor, before(cursor), n).compose(list ->
          sets.among(HotSets.BLOCKS, actor, list.stream().map(r -> r.getLong("a")).toList()).map(blocked -> {
            // keep the full page for the cursor, drop the rows of users the actor blocks
            List<JsonObject> kept = new ArrayList<>();
            for (JsonObject r : list) {
              kept.add(blocked.contains(r.getLong("a")) ? r.copy().put("a", -1L) : r);
            }
            return kept;
          }));
      return page(rows, n, "a", actor);
    });
  }

  @Override
  public Future<JsonObject> outgoingRequests(long actor, int limit, String cursor) {
    return Failures.guard(() -> page(edges.page(EdgeStore.REQUEST, "a", actor, before(cursor), clamp(limit)), clamp(limit),
        "b", actor));
  }

  @Override
  public Future<Void> acceptRequest(long actor, long requester) {
    return sets.contains(HotSets.BLOCKS, actor, requester).compose(blocking -> blocking
        ? Failures.<Boolean>fail(RelationsErrors.REQUEST_NOT_FOUND, "no pending request from this user")
        : edges.delete(EdgeStore.REQUEST, requester, actor)).compose(existed -> {
      if (!existed) {
        return Failures.fail(RelationsErrors.REQUEST_NOT_FOUND, "no pending request from this user");
      }
      return doFollow(requester, actor).map(v -> {
        emit(RelationsEvents.FOLLOW_REQUEST_ACCEPTED, actor, requester);
        return null;
      });
    });
  }

  @Override
  public Future<Void> rejectRequest(long actor, long requester) {
    return edges.delete(EdgeStore.REQUEST, requester, actor).compose(existed -> existed ? Future.succeededFuture()
        : Failures.fail(RelationsErrors.REQUEST_NOT_FOUND, "no pending request from this user"));
  }

  // ---------------------------------------------------------------- friend groups

  @Override
  public Future<JsonObject> createGroup(long actor, String name) {
    return Failures.guard(() -> {
      String n = groupName(name);
      return groups.countGroups(actor).compose(count -> count >= MAX_GROUPS
          ? Failures.fail(RelationsErrors.LIMIT_REACHED, "at most " + MAX_GROUPS + " groups")
          : groups.create(actor, n).map(GroupStore::view));
    });
  }

  @Override
  public Future<JsonObject> renameGroup(long actor, long groupId, String name) {
    return Failures.guard(() -> groups.rename(actor, groupId, groupName(name)).map(GroupStore::view));
  }

  @Override
  public Future<Void> deleteGroup(long actor, long groupId) {
    return groups.delete(actor, groupId);
  }

  @Override
  public Future<JsonObject> groups(long actor) {
    return groups.list(actor).map(list -> {
      JsonArray items = new JsonArray();
      list.forEach(g -> items.add(GroupStore.view(g)));
      return new JsonObject().put("items", items);
    });
  }

  @Override
  public Future<JsonObject> addGroupMembers(long actor, long groupId, List<Long> userIds) {
    return Failures.guard(() -> {
      List<Long> ids = idList(userIds, MAX_PER_CALL, "ids");
      return groups.owned(actor, groupId).compose(group -> sets.among(HotSets.FRIENDS, actor, ids).compose(friends -> {
        List<Long> strangers = ids.stream().filter(id -> !friends.contains(id)).toList();
        if (!strangers.isEmpty()) {
          return Future.failedFuture(Failures.withExtra(RelationsErrors.NOT_FRIENDS,
              "only friends can be added to a group", new JsonObject().put("not_friends", new JsonArray(strangers))));
        }
        if (group.getLong("size", 0L) + ids.size() > MAX_GROUP_MEMBERS) {
          return Failures.fail(RelationsErrors.LIMIT_REACHED, "at most " + MAX_GROUP_MEMBERS + " members per group");
        }
        return groups.add(actor, groupId, ids).compose(x -> groups.owned(actor, groupId)).map(GroupStore::view);
      }));
    });
  }

  @Override
  public Future<JsonObject> removeGroupMembers(long actor, long groupId, List<Long> userIds) {
    return Failures.guard(() -> {
      List<Long> ids = idList(userIds, MAX_PER_CALL, "ids");
      return groups.owned(actor, groupId)
          .compose(g -> groups.remove(groupId, ids))
          .compose(x -> groups.owned(actor, groupId))
          .map(GroupStore::view);
    });
  }

  @Override
  public Future<JsonObject> groupMembers(long actor, long groupId, int limit, String cursor) {
    return Failures.guard(() -> groups.owned(actor, groupId).compose(g ->
        page(groups.members(groupId, before(cursor), clamp(limit)), clamp(limit), "member", actor)));
  }

  private static String groupName(String name) {
    String n = name == null ? "" : name.strip();
    if (n.isEmpty() || n.length() > MAX_GROUP_NAME) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "name", "name must be 1 to " + MAX_GROUP_NAME + " characters");
    }
    return UserText.line("name", n);
  }

  // ---------------------------------------------------------------- tags

  @Override
  public Future<Void> tagUser(long actor, long target, String tag) {
    return Failures.guard(() -> {
      String t = tagName(tag);
      return present(actor, target).compose(x -> tags.hasTag(actor, t)).compose(known -> {
        if (known) {
          return Future.succeededFuture();
        }
        return tags.distinctTagCount(actor).compose(n -> n >= MAX_TAGS
            ? Failures.fail(RelationsErrors.LIMIT_REACHED, "at most " + MAX_TAGS + " tags")
            : Future.succeededFuture());
      }).compose(x -> tags.tag(actor, target, t)).mapEmpty();
    });
  }

  @Override
  public Future<Void> untagUser(long actor, long target, String tag) {
    return Failures.guard(() -> tags.untag(actor, target, tagName(tag)));
  }

  @Override
  public Future<JsonObject> tags(long actor) {
    return tags.tags(actor).map(items -> new JsonObject().put("items", items));
  }

  @Override
  public Future<JsonObject> taggedUsers(long actor, String tag, int limit, String cursor) {
    return Failures.guard(() -> {
      String t = tagName(tag);
      return shownPage(actor, BLOCKING_VIEWER, (older, count) -> tags.tagged(actor, t, older, count), "target",
          before(cursor), clamp(limit));
    });
  }

  @Override
  public Future<JsonObject> tagsOn(long actor, long target) {
    return tags.on(actor, List.of(target)).map(rows -> {
      JsonArray items = new JsonArray();
      rows.forEach(r -> items.add(r.getString("tag")));
      return new JsonObject().put("items", items);
    });
  }

  private static String tagName(String tag) {
    String t = tag == null ? "" : tag.strip();
    if (t.isEmpty() || t.length() > MAX_TAG_LENGTH) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "tag", "tag must be 1 to " + MAX_TAG_LENGTH + " characters");
    }
    return UserText.line("tag", t);
  }

  // ---------------------------------------------------------------- blocks, mutes, hides

  @Override
  public Future<Void> block(long actor, long target) {
    return other(actor, target).compose(x -> throttleBlocks(actor)).compose(x -> withinLimit(actor, EdgeStore.BLOCK))
        .compose(x -> edges.insert(EdgeStore.BLOCK, actor, target))
        .compose(created -> Future.all(sets.add(HotSets.BLOCKS, actor, target),
                sets.add(HotSets.BLOCKED_BY, target, actor))
            .compose(x -> Future.all(removeFollow(actor, target), removeFollow(target, actor)))
            .compose(x -> edges.delete(EdgeStore.REQUEST, target, actor))
            .map(x -> {
              if (created) {
                emit(RelationsEvents.USER_BLOCKED, actor, target);
              }
              return null;
            }));
  }

  @Override
  public Future<Void> unblock(long actor, long target) {
    // requests a blocked user's follow stored while blocked (before such follows were refused) were never shown:
    // they go with the block
    return throttleBlocks(actor).compose(t -> edges.delete(EdgeStore.REQUEST, target, actor))
        .compose(x -> edges.delete(EdgeStore.BLOCK, actor, target))
        .compose(deleted ->
        Future.all(sets.remove(HotSets.BLOCKS, actor, target), sets.remove(HotSets.BLOCKED_BY, target, actor))
            .map(x -> {
              if (deleted) {
                emit(RelationsEvents.USER_UNBLOCKED, actor, target);
              }
              return null;
            }));
  }

  @Override
  public Future<JsonObject> blocks(long actor, int limit, String cursor) {
    return outgoingList(EdgeStore.BLOCK, actor, limit, cursor);
  }

  @Override
  public Future<Void> mute(long actor, long target) {
    return setEdge(EdgeStore.MUTE, HotSets.MUTES, actor, target);
  }

  @Override
  public Future<Void> unmute(long actor, long target) {
    return clearEdge(EdgeStore.MUTE, HotSets.MUTES, actor, target);
  }

  @Override
  public Future<JsonObject> mutes(long actor, int limit, String cursor) {
    return Failures.guard(() -> shownPage(actor, BLOCKING_VIEWER,
        (older, count) -> edges.page(EdgeStore.MUTE, "a", actor, older, count), "b", before(cursor), clamp(limit)));
  }

  @Override
  public Future<Void> hide(long actor, long target) {
    return setEdge(EdgeStore.HIDE, HotSets.HIDES, actor, target)
        .compose(v -> sets.add(HotSets.HIDDEN_BY, target, actor));
  }

  @Override
  public Future<Void> unhide(long actor, long target) {
    return clearEdge(EdgeStore.HIDE, HotSets.HIDES, actor, target)
        .compose(v -> sets.remove(HotSets.HIDDEN_BY, target, actor));
  }

  @Override
  public Future<JsonObject> hides(long actor, int limit, String cursor) {
    return Failures.guard(() -> shownPage(actor, BLOCKING_VIEWER,
        (older, count) -> edges.page(EdgeStore.HIDE, "a", actor, older, count), "b", before(cursor), clamp(limit)));
  }

  private Future<Void> setEdge(String type, String set, long actor, long target) {
    return present(actor, target).compose(x -> withinLimit(actor, type))
        .compose(x -> edges.insert(type, actor, target))
        .compose(created -> sets.add(set, actor, target));
  }

  private Future<Void> clearEdge(String type, String set, long actor, long target) {
    return edges.delete(type, actor, target).compose(x -> sets.remove(set, actor, target));
  }

  private Future<JsonObject> outgoingList(String type, long actor, int limit, String cursor) {
    return Failures.guard(() -> page(edges.page(type, "a", actor, before(cursor), clamp(limit)), clamp(limit), "b", actor));
  }

  // ---------------------------------------------------------------- queries for other domains

  @Override
  public Future<JsonObject> relationships(long viewer, List<Long> userIds) {
    return Failures.guard(() -> {
      List<Long> ids = idList(userIds, MAX_IDS, "ids");
      List<String> types = List.of(EdgeStore.FOLLOW, EdgeStore.REQUEST, EdgeStore.BLOCK, EdgeStore.MUTE,
          EdgeStore.HIDE);
      return Future.all(edges.between(viewer, ids, types), tags.on(viewer, ids), groups.membershipsOf(viewer, ids))
          .map(all -> {
            JsonObject out = new JsonObject();
            for (Long id : ids) {
              out.put(Long.toString(id), new JsonObject().put("following", false).put("followed_by", false)
                  .put("friend", false).put("requested", false).put("blocking", false).put("blocked_by", false)
                  .put("muting", false).put("hidden_from", false).put("tags", new JsonArray())
                  .put("groups", new JsonArray()));
            }
            List<JsonObject> found = all.resultAt(0);
            for (JsonObject e : found) {
              boolean outgoing = e.getLong("a") == viewer;
              long other = outgoing ? e.getLong("b") : e.getLong("a");
              JsonObject r = out.getJsonObject(Long.toString(other));
              if (r == null) {
                continue;
              }
              String flag = switch (e.getString("t")) {
                case EdgeStore.FOLLOW -> outgoing ? "following" : "followed_by";
                case EdgeStore.REQUEST -> outgoing ? "requested" : null;
                case EdgeStore.BLOCK -> outgoing ? "blocking" : "blocked_by";
                case EdgeStore.MUTE -> outgoing ? "muting" : null;
                case EdgeStore.HIDE -> outgoing ? null : "hidden_from";
                default -> null;
              };
              if (flag != null) {
                r.put(flag, true);
              }
            }
            out.forEach(entry -> {
              JsonObject r = (JsonObject) entry.getValue();
              r.put("friend", r.getBoolean("following") && r.getBoolean("followed_by"));
            });
            List<JsonObject> tagRows = all.resultAt(1);
            tagRows.forEach(t -> {
              JsonObject r = out.getJsonObject(Long.toString(t.getLong("target")));
              if (r != null) {
                r.getJsonArray("tags").add(t.getString("tag"));
              }
            });
            List<JsonObject> memberRows = all.resultAt(2);
            memberRows.forEach(m -> {
              JsonObject r = out.getJsonObject(Long.toString(m.getLong("member")));
              if (r != null) {
                r.getJsonArray("groups").add(m.getLong("g"));
              }
            });
            return out;
          });
    });
  }

  @Override
  public Future<JsonObject> eligibleFollowers(long author, int limit, String cursor) {
    return Failures.guard(() -> {
      int n = Math.max(1, Math.min(MAX_FOLLOWER_PAGE, limit));
      // a warm page (copy current, the four sets present) is one script call answering the sets with the list
      return followerLists.page(author, before(cursor), n, ELIGIBILITY_SETS).compose(read ->
          eligibilityMasks(author, read).map(masks -> {
            long[] followers = read.followers();
            List<Object> items = new ArrayList<>(followers.length);
            List<Object> friendItems = new ArrayList<>();
            for (int i = 0; i < followers.length; i++) {
              if ((masks[i] & EXCLUDED) == 0) {
                items.add(followers[i]);
                if ((masks[i] & FRIEND) != 0) {
                  friendItems.add(followers[i]);
                }
              }
            }
            return new JsonObject().put("items", new JsonArray(items)).put("friends", new JsonArray(friendItems))
                .put("next", read.next() == null ? null : Long.toString(read.next()));
          }));
    });
  }

  /**
   * The page's masks over {@link #ELIGIBILITY_SETS}, completed with the sets the page did not answer (missing from
   * Redis, or all of them for a page read from MongoDB): asked through the hot sets, which rebuild missing ones.
   */
  private Future<int[]> eligibilityMasks(long author, FollowerLists.Page page) {
    if (page.unanswered() == 0 || page.followers().length == 0) {
      return Future.succeededFuture(page.masks());
    }
    List<Integer> bits = new ArrayList<>();
    for (int i = 0; i < ELIGIBILITY_SETS.size(); i++) {
      if ((page.unanswered() & (1 << i)) != 0) {
        bits.add(i);
      }
    }
    List<Long> ids = new ArrayList<>(page.followers().length);
    for (long follower : page.followers()) {
      ids.add(follower);
    }
    return sets.memberships(author, bits.stream().map(ELIGIBILITY_SETS::get).toList(), ids).map(asked -> {
      int[] masks = page.masks();
      for (int j = 0; j < masks.length; j++) {
        for (int k = 0; k < bits.size(); k++) {
          if ((asked[j] & (1 << k)) != 0) {
            masks[j] |= 1 << bits.get(k);
          }
        }
      }
      return masks;
    });
  }

  /** The flags {@link #ties} answers, and the viewer's hot set behind each, in the same order. */
  private static final List<String> TIE_NAMES = List.of("following", "friend", "blocking", "blocked_by", "muting",
      "hidden_from");
  private static final List<String> TIE_SETS = List.of(HotSets.FOLLOWING, HotSets.FRIENDS, HotSets.BLOCKS,
      HotSets.BLOCKED_BY, HotSets.MUTES, HotSets.HIDDEN_BY);

  @Override
  public Future<JsonObject> ties(long viewer, List<Long> userIds) {
    return Failures.guard(() -> {
      List<Long> ids = idList(userIds, MAX_IDS, "ids");
      // the six sets share the viewer's hash tag: one script call answers them all when present
      return sets.memberships(viewer, TIE_SETS, ids).map(masks -> {
        JsonObject out = new JsonObject();
        for (int j = 0; j < ids.size(); j++) {
          JsonObject flags = new JsonObject();
          for (int i = 0; i < TIE_NAMES.size(); i++) {
            flags.put(TIE_NAMES.get(i), (masks[j] & (1 << i)) != 0);
          }
          out.put(Long.toString(ids.get(j)), flags);
        }
        return out;
      });
    });
  }

  @Override
  public Future<JsonObject> followingIds(long userId, int limit, String cursor) {
    return idPage(EdgeStore.FOLLOW, userId, limit, cursor);
  }

  @Override
  public Future<JsonObject> friendIds(long userId, int limit, String cursor) {
    return idPage(EdgeStore.FRIEND, userId, limit, cursor);
  }

  private Future<JsonObject> idPage(String type, long userId, int limit, String cursor) {
    return Failures.guard(() -> {
      int n = Math.max(1, Math.min(MAX_STREAM_PAGE, limit));
      return edges.page(type, "a", userId, before(cursor), n).map(page -> {
        JsonArray items = new JsonArray();
        page.forEach(e -> items.add(e.getLong("b")));
        return new JsonObject().put("items", items).put("next", nextCursor(page, n));
      });
    });
  }

  @Override
  public Future<JsonObject> placements(long viewer) {
    return placementsFrom(tags.placing(viewer, MAX_PLACEMENTS), groups.holding(viewer, MAX_PLACEMENTS));
  }

  @Override
  public Future<JsonObject> placementsBy(long viewer, List<Long> owners) {
    return Failures.guard(() -> {
      List<Long> ids = idList(owners, MAX_IDS, "owners");
      return placementsFrom(tags.placingBy(viewer, ids), groups.holdingBy(viewer, ids));
    });
  }

  private static Future<JsonObject> placementsFrom(Future<List<JsonObject>> tagsFound,
                                                   Future<List<JsonObject>> groupsFound) {
    return Future.all(tagsFound, groupsFound).map(all -> {
      JsonObject out = new JsonObject();
      Function<Long, JsonObject> entry = owner -> {
        JsonObject e = out.getJsonObject(Long.toString(owner));
        if (e == null) {
          e = new JsonObject().put("tags", new JsonArray()).put("groups", new JsonArray());
          out.put(Long.toString(owner), e);
        }
        return e;
      };
      List<JsonObject> tagRows = all.resultAt(0);
      tagRows.forEach(t -> entry.apply(t.getLong("owner")).getJsonArray("tags").add(t.getString("tag_lc")));
      List<JsonObject> groupRows = all.resultAt(1);
      groupRows.forEach(g -> entry.apply(g.getLong("owner")).getJsonArray("groups").add(g.getLong("g")));
      return out;
    });
  }

  // ---------------------------------------------------------------- helpers

  /**
   * Checks that {@code target} is another existing user; yields whether they require approval of followers.
   */
  /**
   * Like {@link #other}, and a user who blocks the actor is user_not_found too: they look absent to the actor, so
   * muting, hiding from or tagging them answers as for a missing user. (Blocking them back stays possible.)
   */
  private Future<Void> present(long actor, long target) {
    return other(actor, target).compose(x -> sets.contains(HotSets.BLOCKED_BY, actor, target))
        .compose(blocked -> blocked ? Failures.<Void>fail(RelationsErrors.USER_NOT_FOUND, "no such user")
            : Future.succeededFuture());
  }

  private Future<Boolean> other(long actor, long target) {
    if (actor == target) {
      return Failures.fail(RelationsErrors.SELF_RELATION, "not allowed on yourself");
    }
    if (target <= 0) {
      return Failures.fail(RelationsErrors.USER_NOT_FOUND, "no such user");
    }
    return accounts.followSettings(List.of(target)).compose(found -> {
      JsonObject s = found.getJsonObject(Long.toString(target));
      return s == null ? Failures.fail(RelationsErrors.USER_NOT_FOUND, "no such user")
          : Future.succeededFuture(s.getBoolean("follow_approval", false));
    });
  }

  private Future<Void> withinLimit(long actor, String type) {
    return edges.countOut(type, actor).compose(n -> n >= MAX_OUTGOING
        ? Failures.fail(RelationsErrors.LIMIT_REACHED, "at most " + MAX_OUTGOING + " of these per user")
        : Future.succeededFuture());
  }

  /** Hydrates a page of rows whose {@code field} holds the other user's id into {user, since} items. */
  private Future<JsonObject> page(Future<List<JsonObject>> rows, int limit, String field, long viewer) {
    return rows.compose(list -> {
      List<Long> ids = new ArrayList<>(new LinkedHashSet<>(list.stream().map(r -> r.getLong(field)).toList()));
      Future<JsonObject> summaries = ids.isEmpty() ? Future.succeededFuture(new JsonObject())
          : accounts.summaries(viewer, ids);
      return summaries.map(found -> {
        JsonArray items = new JsonArray();
        for (JsonObject row : list) {
          JsonObject user = found.getJsonObject(Long.toString(row.getLong(field)));
          if (user != null) {
            items.add(new JsonObject().put("user", user).put("since", row.getLong("at")));
          }
        }
        return new JsonObject().put("items", items).put("next", nextCursor(list, limit));
      });
    });
  }

  private static String nextCursor(List<JsonObject> page, int limit) {
    return page.size() < limit || page.isEmpty() ? null : Long.toString(page.get(page.size() - 1).getLong("_id"));
  }

  private static Long before(String cursor) {
    if (cursor == null || cursor.isEmpty()) {
      return null;
    }
    try {
      long v = Long.parseLong(cursor);
      if (v <= 0) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "cursor", "cursor must be the next value of a previous page");
    }
  }

  private static int clamp(int limit) {
    return Math.max(1, Math.min(MAX_PAGE, limit));
  }

  private static List<Long> idList(List<Long> ids, int max, String field) {
    if (ids == null || ids.isEmpty()) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, field + " must list at least one user id");
    }
    if (ids.size() > max) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, field, "at most " + max + " ids per call");
    }
    return List.copyOf(new LinkedHashSet<>(ids));
  }


  private void emit(String type, long from, long to) {
    platform.events().append(RelationsEvents.DOMAIN, type, new JsonObject().put("from", from).put("to", to))
        .onFailure(e -> LOG.error("Could not append {} {}->{}: {}", type, from, to, e.toString()));
  }
}
