package io.kith.relations.service;

import io.kith.platform.error.Failures;
import io.kith.platform.events.EventPublisher;
import io.kith.relations.api.RelationsErrors;
import io.kith.relations.api.events.FollowRequestAccepted;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static io.kith.relations.service.Paging.before;
import static io.kith.relations.service.Paging.clamp;

/** Follow requests to a user who approves followers: the incoming and outgoing lists, accepting and rejecting. */
final class Requests {

  private final EdgeStore edges;
  private final HotSets sets;
  private final Follows follows;
  private final UserLists lists;
  private final EventPublisher events;

  Requests(EdgeStore edges, HotSets sets, Follows follows, UserLists lists, EventPublisher events) {
    this.edges = edges;
    this.sets = sets;
    this.follows = follows;
    this.lists = lists;
    this.events = events;
  }

  Future<JsonObject> incomingRequests(long actor, int limit, String cursor) {
    return Failures.guard(() -> {
      int n = clamp(limit);
      Future<List<JsonObject>> rows = edges.page(EdgeStore.REQUEST, "b", actor, before(cursor), n).compose(list ->
          sets.among(HotSets.BLOCKS, actor, list.stream().map(r -> r.getLong("a")).toList())
              .map(blocked -> withoutBlocked(list, blocked)));
      return lists.page(rows, n, "a", actor);
    });
  }

  /** Keeps the full page for the cursor, drops the rows of users the actor blocks. */
  private static List<JsonObject> withoutBlocked(List<JsonObject> list, Set<Long> blocked) {
    List<JsonObject> kept = new ArrayList<>();
    for (JsonObject r : list) {
      kept.add(blocked.contains(r.getLong("a")) ? r.copy().put("a", -1L) : r);
    }
    return kept;
  }

  Future<JsonObject> outgoingRequests(long actor, int limit, String cursor) {
    return Failures.guard(() -> lists.page(edges.page(EdgeStore.REQUEST, "a", actor, before(cursor), clamp(limit)),
        clamp(limit), "b", actor));
  }

  Future<Void> acceptRequest(long actor, long requester) {
    return sets.contains(HotSets.BLOCKS, actor, requester).compose(blocking -> blocking
        ? Failures.<Boolean>fail(RelationsErrors.REQUEST_NOT_FOUND, "no pending request from this user")
        : edges.delete(EdgeStore.REQUEST, requester, actor)).compose(existed -> {
      if (!existed) {
        return Failures.fail(RelationsErrors.REQUEST_NOT_FOUND, "no pending request from this user");
      }
      return follows.doFollow(requester, actor).map(v -> {
        events.publish(new FollowRequestAccepted(actor, requester));
        return null;
      });
    });
  }

  Future<Void> rejectRequest(long actor, long requester) {
    return edges.delete(EdgeStore.REQUEST, requester, actor).compose(existed -> existed ? Future.succeededFuture()
        : Failures.fail(RelationsErrors.REQUEST_NOT_FOUND, "no pending request from this user"));
  }
}
