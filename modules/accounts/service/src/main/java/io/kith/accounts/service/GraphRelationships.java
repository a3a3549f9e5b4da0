package io.kith.accounts.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * {@link Relationships} answered by the relations service (counts by its internal operations), in batches of at most
 * 1,000 ids.
 *
 * <p>When no node of the cluster runs relations at all (the event bus has no handler for its address), the graph is
 * treated as empty, as {@link Relationships#NONE} does, and a warning is logged: a deployment without the relations
 * module has no friends and no blocks. Any other failure (a timeout) fails the request rather than risk showing a
 * blocked user.
 */
final class GraphRelationships implements Relationships {

  private static final Logger LOG = LoggerFactory.getLogger(GraphRelationships.class);
  private static final int BATCH = 1_000;

  private final RelationsService relations;
  private final RelationsInternal relationsInternal;
  private volatile boolean warned;

  GraphRelationships(RelationsService relations, RelationsInternal relationsInternal) {
    this.relations = relations;
    this.relationsInternal = relationsInternal;
  }

  @Override
  public Future<Set<Long>> friendsAmong(long viewer, Collection<Long> userIds) {
    return matching(viewer, userIds, r -> r.getBoolean("friend", false));
  }

  @Override
  public Future<Set<Long>> blockedEitherWay(long viewer, Collection<Long> userIds) {
    return matching(viewer, userIds, r -> r.getBoolean("blocking", false) || r.getBoolean("blocked_by", false));
  }

  @Override
  public Future<JsonObject> counts(long userId) {
    return relationsInternal.counts(userId).recover(e -> absent(e) ? Future.succeededFuture(new JsonObject())
        : Future.failedFuture(e));
  }

  @Override
  public Future<JsonObject> between(long viewer, long other) {
    if (viewer == other) {
      return Future.succeededFuture(new JsonObject().put("blocked", false).put("friend", false));
    }
    return relations.relationships(viewer, List.of(other)).map(map -> {
      JsonObject r = map.getJsonObject(Long.toString(other), new JsonObject());
      return new JsonObject()
          .put("blocked", r.getBoolean("blocking", false) || r.getBoolean("blocked_by", false))
          .put("friend", r.getBoolean("friend", false));
    }).recover(e -> absent(e) ? Future.succeededFuture(new JsonObject().put("blocked", false).put("friend", false))
        : Future.failedFuture(e));
  }

  @Override
  public Future<JsonObject> friendIds(long userId, String cursor, int limit) {
    return relationsInternal.friendIds(userId, PageRequest.after(cursor, limit)).map(Page::toJson)
        .recover(e -> absent(e) ? Future.succeededFuture(new JsonObject().put("items", new JsonArray()).putNull("next"))
            : Future.failedFuture(e));
  }

  private Future<Set<Long>> matching(long viewer, Collection<Long> userIds, Predicate<JsonObject> test) {
    List<Long> ids = new ArrayList<>(new LinkedHashSet<>(userIds));
    ids.remove(viewer);
    if (ids.isEmpty()) {
      return Future.succeededFuture(Set.of());
    }
    List<Future<JsonObject>> batches = new ArrayList<>();
    for (int i = 0; i < ids.size(); i += BATCH) {
      batches.add(relations.relationships(viewer, ids.subList(i, Math.min(ids.size(), i + BATCH))));
    }
    return Future.all(batches).<Set<Long>>map(all -> {
      Set<Long> out = new HashSet<>();
      for (int i = 0; i < all.size(); i++) {
        JsonObject map = all.resultAt(i);
        map.forEach(e -> {
          if (e.getValue() instanceof JsonObject && test.test((JsonObject) e.getValue())) {
            out.add(Long.parseLong(e.getKey()));
          }
        });
      }
      return out;
    }).recover(e -> absent(e) ? Future.succeededFuture(Set.of()) : Future.failedFuture(e));
  }

  private boolean absent(Throwable e) {
    Throwable t = e;
    while (t != null) {
      if (t instanceof ReplyException && ((ReplyException) t).failureType() == ReplyFailure.NO_HANDLERS) {
        if (!warned) {
          warned = true;
          LOG.warn("No node runs the relations module: accounts treats everyone as a non-friend and nobody as blocked");
        }
        return true;
      }
      t = t.getCause();
    }
    return false;
  }
}
