package io.kith.messaging.api;

import io.kith.platform.bus.ServiceProxies;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The messaging operations that only other domains and the gateway's bridge machinery call, apart from
 * {@link MessagingService}: room access for the bridges and the groups another domain manages, which trust their
 * caller to name the right user or owner. Bound by the messaging module at {@link #ADDRESS}, which no bridge lets a
 * client send to; the gateway's HTTP routes never see this interface (an architecture test keeps it so).
 */
@ProxyGen
@VertxGen
public interface MessagingInternal {

  /** Event-bus address of the internal operations. */
  String ADDRESS = "kith.messaging.internal";

  /** A proxy to the internal operations (on any node of the cluster that runs messaging). */
  @GenIgnore
  static MessagingInternal proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, MessagingInternal.class, ADDRESS);
  }

  /**
   * Whether {@code userId} may listen on room {@code roomId} ({@code kith.room.<roomId>}): for a group room
   * {@code "g<groupId>"}, whether the user is a member now. Unknown or malformed rooms answer false. Called by the
   * gateway when a bridge client registers on a room address.
   */
  Future<Boolean> mayListen(long userId, String roomId);

  /**
   * A group managed by another domain (an activity's discussion): made on the first call for {@code ref} (e.g.
   * {@code "activity:<id>"}, 1..100 characters) with {@code owner} as its owner and only member, and answered again
   * (the same group) on later calls with the same {@code ref}. {@code spec}: {@code {name (1..50 characters)}}.
   * Answers the group view. Users cannot join, be invited to, or be kicked from a managed group: its members change
   * only through {@link #setManagedMembers}; they may leave it (muting the chat) and are put back by the next
   * {@code setManagedMembers} that adds them.
   */
  Future<JsonObject> managedGroup(long owner, String ref, JsonObject spec);

  /**
   * Adds and removes members of a managed group (at most 500 ids in all per call); only the group's owner may.
   * Idempotent: adding a member or removing a non-member changes nothing. Removed members lose the room at once.
   * The member cap does not apply (the managing domain has its own capacity).
   */
  Future<Void> setManagedMembers(long owner, long groupId, List<Long> add, List<Long> remove);

  /**
   * The message {@code messageId} when {@code viewer} is a member of its conversation (and it is neither recalled nor
   * removed): {@code {sender, conversation, group?}}; {@code message_not_found} otherwise, exactly as a missing one.
   */
  Future<JsonObject> messageSeenBy(long viewer, long messageId);

  /**
   * Removes a {@code "message"} or {@code "group"} on a moderator's decision, keeping the record for review with
   * {@code removal} ({@code {by, reason, report_id, at}}) on it: a message keeps its sequence and reads as
   * {@code {id, seq, removed: true}} without content; a group is dissolved for its members. Answers {@code {owner}}
   * (the sender or the group's owner); repeating it changes nothing; a missing one is {@code message_not_found} /
   * {@code group_not_found}.
   */
  Future<JsonObject> removeByModerator(String type, long id, JsonObject removal);

  /**
   * A {@code "message"} or {@code "group"} as moderators review it, removed or not (a removed message's content is in
   * its {@code removal}); {@code message_not_found} / {@code group_not_found}.
   */
  Future<JsonObject> contentForModerator(String type, long id);
}
