package io.kith.accounts.service;

import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Collection;
import java.util.Set;

/**
 * What accounts needs to know about the social graph: who among some users is the viewer's friend (for "friends"
 * audiences and friends-only presence) and who blocked the viewer or is blocked by them (never shown in lookups,
 * nearby or presence). The relations domain provides the real answer; until it exists, {@link #NONE} treats everyone
 * as a non-friend and nobody as blocked.
 */
interface Relationships {

  /** No graph: no friends, no blocks. */
  Relationships NONE = new Relationships() {
    @Override
    public Future<Set<Long>> friendsAmong(long viewer, Collection<Long> userIds) {
      return Future.succeededFuture(Set.of());
    }

    @Override
    public Future<Set<Long>> blockedEitherWay(long viewer, Collection<Long> userIds) {
      return Future.succeededFuture(Set.of());
    }

    @Override
    public Future<JsonObject> counts(long userId) {
      return Future.succeededFuture(new JsonObject());
    }

    @Override
    public Future<JsonObject> between(long viewer, long other) {
      return Future.succeededFuture(new JsonObject().put("blocked", false).put("friend", false));
    }

    @Override
    public Future<JsonObject> friendIds(long userId, String cursor, int limit) {
      return Future.succeededFuture(new JsonObject().put("items", new JsonArray()).putNull("next"));
    }
  };

  /** The subset of {@code userIds} who are friends of {@code viewer}. */
  Future<Set<Long>> friendsAmong(long viewer, Collection<Long> userIds);

  /** The subset of {@code userIds} who blocked {@code viewer} or whom {@code viewer} blocked. */
  Future<Set<Long>> blockedEitherWay(long viewer, Collection<Long> userIds);

  /** {@code following_count}, {@code follower_count}, {@code friend_count} of a user (empty when unknown). */
  Future<JsonObject> counts(long userId);

  /** Both answers about one other user in one question: {@code {blocked: either way, friend}}. */
  Future<JsonObject> between(long viewer, long other);

  /**
   * A page of the user's friends' ids (for pushing presence to them): {@code {items: [ids], next: <cursor or null>}};
   * {@code cursor} is the previous page's {@code next}, null for the first page.
   */
  Future<JsonObject> friendIds(long userId, String cursor, int limit);
}
