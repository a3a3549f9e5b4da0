package io.kith.messaging.service;

import io.kith.messaging.api.MessagingInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The messaging operations other domains and the gateway call on trust; like {@link MessagingServiceImpl}, it only
 * delegates.
 */
final class MessagingInternalImpl implements MessagingInternal {

  private final Groups groups;
  private final ManagedGroups managed;
  private final ModeratorRemovals removals;

  MessagingInternalImpl(Groups groups, ManagedGroups managed, ModeratorRemovals removals) {
    this.groups = groups;
    this.managed = managed;
    this.removals = removals;
  }

  @Override
  public Future<Boolean> mayListen(long userId, String roomId) {
    return groups.mayListen(userId, roomId);
  }

  @Override
  public Future<JsonObject> managedGroup(long owner, String ref, JsonObject spec) {
    return managed.managed(owner, ref, spec);
  }

  @Override
  public Future<Void> setManagedMembers(long owner, long groupId, List<Long> add, List<Long> remove) {
    return managed.setManaged(owner, groupId, add, remove);
  }

  @Override
  public Future<JsonObject> messageSeenBy(long viewer, long messageId) {
    return removals.messageSeenBy(viewer, messageId);
  }

  @Override
  public Future<JsonObject> removeByModerator(String type, long id, JsonObject removal) {
    return removals.remove(type, id, removal);
  }

  @Override
  public Future<JsonObject> contentForModerator(String type, long id) {
    return removals.forModerator(type, id);
  }
}
