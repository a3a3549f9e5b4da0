package io.kith.activities.api;

import io.kith.platform.bus.ServiceProxies;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The activities operations that only other domains call, apart from {@link ActivitiesService}: they answer for
 * whichever viewer the caller names. Bound by the activities module at {@link #ADDRESS}, which no bridge lets a client
 * send to; the gateway's HTTP routes never see this interface (an architecture test keeps it so).
 */
@ProxyGen
@VertxGen
public interface ActivitiesInternal {

  /** Event-bus address of the internal operations. */
  String ADDRESS = "kith.activities.internal";

  /** A proxy to the internal operations (on any node of the cluster that runs activities). */
  @GenIgnore
  static ActivitiesInternal proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, ActivitiesInternal.class, ADDRESS);
  }

  /**
   * Which of up to 1,000 activities {@code viewer} may see, by the same rule as {@link ActivitiesService#activity}:
   * {@code {items: [ids]}}.
   */
  Future<JsonObject> visibleActivities(long viewer, List<Long> activityIds);

  /**
   * Removes an activity on a moderator's decision, keeping the record for review with {@code removal}
   * ({@code {by, reason, report_id, at}}) on it: it is cancelled if open (its participants are told, as for the
   * organiser's cancel) and seen by nobody any more, its organiser included. Answers {@code {owner}} (the organiser);
   * repeating it changes nothing; a missing one is {@code activity_not_found}.
   */
  Future<JsonObject> removeByModerator(long activityId, JsonObject removal);

  /** An activity as moderators review it, removed or not; {@code activity_not_found}. */
  Future<JsonObject> contentForModerator(long activityId);
}
