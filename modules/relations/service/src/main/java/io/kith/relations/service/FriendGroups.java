package io.kith.relations.service;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.text.UserText;
import io.kith.relations.api.RelationsErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Set;

import static io.kith.relations.service.Paging.before;
import static io.kith.relations.service.Paging.clamp;
import static io.kith.relations.service.Paging.idList;

/** A user's named groups of their friends: create, rename, delete, list, add and remove members, list members. */
final class FriendGroups {

  static final int MAX_GROUPS = 100;
  static final int MAX_GROUP_MEMBERS = 5_000;
  static final int MAX_PER_CALL = 500;
  static final int MAX_GROUP_NAME = 40;

  private final GroupStore groups;
  private final HotSets sets;
  private final UserLists lists;

  FriendGroups(GroupStore groups, HotSets sets, UserLists lists) {
    this.groups = groups;
    this.sets = sets;
    this.lists = lists;
  }

  Future<JsonObject> createGroup(long actor, String name) {
    return Failures.guard(() -> {
      String n = groupName(name);
      return groups.countGroups(actor).compose(count -> count >= MAX_GROUPS
          ? Failures.fail(RelationsErrors.LIMIT_REACHED, "at most " + MAX_GROUPS + " circles")
          : groups.create(actor, n).map(GroupStore::view));
    });
  }

  Future<JsonObject> renameGroup(long actor, long groupId, String name) {
    return Failures.guard(() -> groups.rename(actor, groupId, groupName(name)).map(GroupStore::view));
  }

  Future<Void> deleteGroup(long actor, long groupId) {
    return groups.delete(actor, groupId);
  }

  Future<JsonObject> groups(long actor) {
    return groups.list(actor).map(list -> {
      JsonArray items = new JsonArray();
      list.forEach(g -> items.add(GroupStore.view(g)));
      return new JsonObject().put("items", items);
    });
  }

  Future<JsonObject> addGroupMembers(long actor, long groupId, List<Long> userIds) {
    return Failures.guard(() -> {
      List<Long> ids = idList(userIds, MAX_PER_CALL, "ids");
      return groups.owned(actor, groupId).compose(group -> sets.among(HotSets.FRIENDS, actor, ids)
          .compose(friends -> addFriends(actor, groupId, group, ids, friends)));
    });
  }

  /** Adds {@code ids} to the group when all are friends of the owner and the group has room for them. */
  private Future<JsonObject> addFriends(long actor, long groupId, JsonObject group, List<Long> ids,
                                        Set<Long> friends) {
    List<Long> strangers = ids.stream().filter(id -> !friends.contains(id)).toList();
    if (!strangers.isEmpty()) {
      return Future.failedFuture(Failures.withExtra(RelationsErrors.NOT_FRIENDS,
          "only friends can be added to a circle", new JsonObject().put("not_friends", new JsonArray(strangers))));
    }
    if (group.getLong("size", 0L) + ids.size() > MAX_GROUP_MEMBERS) {
      return Failures.fail(RelationsErrors.LIMIT_REACHED, "at most " + MAX_GROUP_MEMBERS + " members per circle");
    }
    return groups.add(actor, groupId, ids).compose(x -> groups.owned(actor, groupId)).map(GroupStore::view);
  }

  Future<JsonObject> removeGroupMembers(long actor, long groupId, List<Long> userIds) {
    return Failures.guard(() -> {
      List<Long> ids = idList(userIds, MAX_PER_CALL, "ids");
      return groups.owned(actor, groupId)
          .compose(g -> groups.remove(groupId, ids))
          .compose(x -> groups.owned(actor, groupId))
          .map(GroupStore::view);
    });
  }

  Future<JsonObject> groupMembers(long actor, long groupId, int limit, String cursor) {
    return Failures.guard(() -> groups.owned(actor, groupId).compose(g ->
        lists.page(groups.members(groupId, before(cursor), clamp(limit)), clamp(limit), "member", actor)));
  }

  private static String groupName(String name) {
    String n = name == null ? "" : name.strip();
    if (n.isEmpty() || n.length() > MAX_GROUP_NAME) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "name", "name must be 1 to " + MAX_GROUP_NAME + " characters");
    }
    return UserText.line("name", n);
  }
}
