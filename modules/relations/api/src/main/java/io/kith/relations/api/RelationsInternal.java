package io.kith.relations.api;

import io.kith.platform.bus.ServiceProxies;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The graph queries other domains ask of relations, apart from {@link RelationsService}: they take no acting user, or
 * answer what a user is to others without the checks a client's question gets (blocks, existence), so they trust
 * their caller. Bound by the relations module at {@link #ADDRESS}, which no bridge lets a client send to; the
 * gateway's HTTP routes never see this interface (an architecture test keeps it so).
 */
@ProxyGen
@VertxGen
public interface RelationsInternal {

  /** Event-bus address of the internal operations. */
  String ADDRESS = "kith.relations.internal";

  /** A proxy to the internal operations (on any node of the cluster that runs relations). */
  @GenIgnore
  static RelationsInternal proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, RelationsInternal.class, ADDRESS);
  }

  /** Exact {@code {following_count, follower_count, friend_count}} of {@code userId}, whoever asks. */
  Future<JsonObject> counts(long userId);

  /**
   * The flags other domains check on every read, for up to 1,000 users, answered from Redis hot sets without touching
   * MongoDB: {@code {"<id>": {following, friend, blocking, blocked_by, muting, hidden_from}}} as in
   * {@link RelationsService#relationships} (no tags, groups or requests).
   */
  Future<JsonObject> ties(long viewer, List<Long> userIds);

  /**
   * A page of {@code author}'s followers who may receive the author's posts: not hidden from by the author and not
   * blocked either way. {@code {items: [ids], friends: [ids], next}}, up to 10,000 per page, newest follower first;
   * {@code friends} are those of the items who are the author's friends (in the same order); {@code next} is null on
   * the last page.
   */
  Future<Page> eligibleFollowers(long author, PageRequest page);

  /** A page of the ids {@code userId} follows, newest first: {@code {items: [ids], next}}, up to 1,000 per page. */
  Future<Page> followingIds(long userId, PageRequest page);

  /** A page of {@code userId}'s friends' ids, newest first: {@code {items: [ids], next}}, up to 1,000 per page. */
  Future<Page> friendIds(long userId, PageRequest page);

  /**
   * Who placed {@code viewer} in a contact tag or friend group: {@code {"<ownerId>": {tags: [...], groups: [ids]}}},
   * at most 5,000 owners.
   */
  Future<JsonObject> placements(long viewer);

  /**
   * The same for up to 1,000 given owners only, complete whatever the viewer's other placements: what a visibility
   * check of these authors' posts needs.
   */
  Future<JsonObject> placementsBy(long viewer, List<Long> owners);
}
