package io.kith.platform.bus;

import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Changes in the cluster membership as this node sees them, for the modules that must react: the gateway tells its
 * bridge clients to catch up, the event log claims the entries a departed node's consumers held. The app reports the
 * changes (from Hazelcast's membership listener); a node that is not clustered never reports any.
 */
public final class Membership {

  /**
   * One change.
   *
   * @param left    whether a member left (else one joined)
   * @param members the members this node counts after the change, itself included
   */
  public record Change(boolean left, int members) {
  }

  private record Listener(Context context, Handler<Change> handler) {
  }

  private final Vertx vertx;
  private final List<Listener> listeners = new CopyOnWriteArrayList<>();

  /** Creates the membership notices of {@code vertx}'s node. */
  public Membership(Vertx vertx) {
    this.vertx = vertx;
  }

  /**
   * Calls {@code handler} on each change, on the context that registered it (a verticle's event loop), so the handler
   * needs no locking of its verticle's state.
   */
  public void onChange(Handler<Change> handler) {
    listeners.add(new Listener(vertx.getOrCreateContext(), handler));
  }

  /** Reports a change (any thread: Hazelcast calls it on its event threads). */
  public void changed(Change change) {
    listeners.forEach(l -> l.context().runOnContext(v -> l.handler().handle(change)));
  }
}
