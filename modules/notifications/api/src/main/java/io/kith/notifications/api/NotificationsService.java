package io.kith.notifications.api;

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
 * A user's notifications: what happened to them (new followers, requests, friends, comments, replies, likes,
 * reposts, mentions; chat messages while offline, chat mentions, group invitations and removals; activity changes,
 * cancellations, joins, removals, invitations and reminders), filtered queries, exact unread counts, mark read,
 * delete, a grouped view and preferences. Notifications are made by the service itself from the domain events of
 * relations, feeds, messaging and activities; there is no method to make one.
 *
 * <p>Every method takes the acting user first and works on that user's notifications only: there is no way to name
 * another user's list, and ids of notifications that are not the actor's are ignored exactly like ids that do not
 * exist.
 *
 * <p><b>Notification view</b>: {@code {id, type, to_user, created, unread, from_user?, actor?: <user summary>,
 * post?, comment?, reply_to?, repost?, activity?, group?, conversation?, message?, title?, preview?, place?, count?,
 * start?, end?, changed?: [names]}} (see {@link Notifications} for which type carries what).
 *
 * <p><b>Query</b> ({@link #list}): {@code {types: [type...], where: {field: value}, offset}} with the page request's
 * {@code max_id, since_id, limit}, every member optional (the service reads them as one query, so they may also stand
 * in the query as before). {@code types} (up to all of {@link Notifications#TYPES}) keeps those types; {@code where}
 * holds equality conditions on {@link Notifications#FIELDS} (positive ids) and {@code unread} (boolean), all of which
 * must hold; {@code max_id} keeps older notifications, {@code since_id} newer ones; {@code offset} (0..1,000) skips
 * matches; {@code limit} is 1..100 (default 20). An unknown type or field, or a value of the wrong kind, fails with
 * {@code validation_failed} naming it ({@code types}, {@code where.<field>}, {@code limit}, ...).
 *
 * <p><b>Condition</b> ({@link #markReadWhere}, {@link #deleteWhere}): {@code {types, where}} as in a query, at least
 * one of them given.
 *
 * <p><b>Counts</b>: {@code {total, by_type: {<type>: n}}} (every type present), the actor's unread notifications.
 */
@ProxyGen
@VertxGen
public interface NotificationsService {

  /** Event-bus address of the service. */
  String ADDRESS = "kith.notifications";

  /** A proxy to the service (on any node of the cluster). */
  @GenIgnore
  static NotificationsService proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, NotificationsService.class, ADDRESS);
  }

  /**
   * The actor's notifications matching {@code query}, newest first: {@code {items: [views], next_max_id, newest_id}}.
   * Pass {@code next_max_id} as the {@code page}'s {@code max_id} for older ones (null when the list is known to end
   * here) and {@code newest_id} as its {@code since_id} to fetch what arrived since (a reconnecting client does this);
   * the page's {@code limit} bounds it. A notification
   * about a post the actor can no longer see is left out (and removed).
   */
  Future<Page> list(long actor, JsonObject query, PageRequest page);

  /**
   * The same page as {@link #list}, as the HTTP body of every list ({@link Page#toApiJson()}: {@code {items,
   * next_cursor, newest_id}}) already encoded. A string crosses the local event bus as it is, where the page as JSON
   * would be copied whole, and the caller writes it without encoding it again: the gateway's list route uses this.
   */
  Future<String> listJson(long actor, JsonObject query, PageRequest page);

  /**
   * The actor's notifications folded by type and object ("A, B and 12 others liked your post"), groups ordered by
   * their newest notification: {@code {items: [{type, latest: <view>, count, unread, actor_count, actors: [up to 3
   * summaries, newest first]}], next_max_id}}. {@code query}: {@code {types}}; {@code page}: {@code max_id} (groups
   * whose newest is older) and {@code limit}.
   */
  Future<Page> grouped(long actor, JsonObject query, PageRequest page);

  /** The actor's unread counts, answered from counters (O(1)): {@code {total, by_type}}. */
  Future<JsonObject> unreadCounts(long actor);

  /**
   * Marks the actor's notifications with these ids (1..1,000) read; others' ids and unknown ids are ignored. The
   * three mark-read calls count together against {@code notifications.mark-reads-per-minute}; past it they are
   * {@code rate_limited} with {@code retry_after}.
   *
   * @return {@code {changed: n, counts}}
   */
  Future<JsonObject> markRead(long actor, List<Long> ids);

  /** Marks every notification of the actor read: {@code {changed, counts}}. */
  Future<JsonObject> markAllRead(long actor);

  /** Marks the actor's notifications matching {@code condition} read: {@code {changed, counts}}. */
  Future<JsonObject> markReadWhere(long actor, JsonObject condition);

  /** Deletes the actor's notifications with these ids (1..1,000): {@code {deleted: n, counts}}. */
  Future<JsonObject> delete(long actor, List<Long> ids);

  /** Deletes the actor's notifications matching {@code condition}: {@code {deleted: n, counts}}. */
  Future<JsonObject> deleteWhere(long actor, JsonObject condition);

  /** The actor's preferences: {@code {muted_types: [types], muted_users: [ids]}}. */
  Future<JsonObject> preferences(long actor);

  /**
   * Replaces the members given of the actor's preferences ({@code muted_types}: known types; {@code muted_users}: up
   * to 1,000 ids, not the actor). Muting stops new notifications only. Returns the preferences.
   */
  Future<JsonObject> setPreferences(long actor, JsonObject preferences);

  /** Stops notifications from {@code userId} (idempotent); returns the preferences. */
  Future<JsonObject> muteUser(long actor, long userId);

  /** Undoes {@link #muteUser} (idempotent); returns the preferences. */
  Future<JsonObject> unmuteUser(long actor, long userId);
}
