package io.kith.gateway.bridge;

import io.kith.platform.bus.Addresses;
import io.kith.platform.bus.Membership;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Set;

/**
 * Tells this node's bridge clients to catch up when the node loses cluster members, or gains members back after
 * losing some (a partition healing, a node coming back): while members were apart, pushes published on the other
 * side never reached this node's connections, and the connections stayed open, so their clients would not know. Each
 * authenticated user here gets one {@value #PUSH_RESYNC} push on {@code kith.user.<id>} (published on this node only:
 * the other nodes judge their own clients), and the client catches up the way it does after a reconnect (history by
 * {@code seq}, lists by {@code since_id}). A member joining a cluster that lost none (scaling out) changes nothing a
 * client saw, so it sends nothing.
 */
public final class ClusterResync {

  /** Kind of the push that tells a client to catch up. */
  public static final String PUSH_RESYNC = "resync";
  private static final Logger LOG = LoggerFactory.getLogger(ClusterResync.class);
  private static final DeliveryOptions LOCAL = new DeliveryOptions().setLocalOnly(true);

  private final Vertx vertx;
  private final BridgeGuard guard;
  // members lost and not seen coming back yet; changed on the gateway's context only
  private int missing;

  private ClusterResync(Vertx vertx, BridgeGuard guard) {
    this.vertx = vertx;
    this.guard = guard;
  }

  /** Starts telling {@code guard}'s clients to catch up on the membership changes {@code membership} reports. */
  public static void install(Vertx vertx, Membership membership, BridgeGuard guard) {
    ClusterResync resync = new ClusterResync(vertx, guard);
    membership.onChange(resync::changed);
  }

  private void changed(Membership.Change change) {
    if (change.left()) {
      missing++;
    } else if (missing > 0) {
      missing--;
    } else {
      return;
    }
    Set<Long> users = guard.boundUsers();
    LOG.info("Cluster member {} ({} now): telling {} bridge user(s) here to catch up", change.left() ? "left"
        : "back", change.members(), users.size());
    JsonObject push = new JsonObject().put("kind", PUSH_RESYNC);
    users.forEach(user -> vertx.eventBus().publish(Addresses.user(user), push, LOCAL));
  }
}
