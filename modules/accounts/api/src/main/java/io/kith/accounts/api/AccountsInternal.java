package io.kith.accounts.api;

import io.kith.platform.bus.ServiceProxies;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The accounts operations that only other domains and the gateway's bridge machinery call, apart from
 * {@link AccountsService}: they take no acting user and trust their caller's word (who is connected, whose settings
 * to read). Bound by the accounts module at {@link #ADDRESS}, which no bridge lets a client send to; the gateway's
 * HTTP routes never see this interface (an architecture test keeps it so).
 */
@ProxyGen
@VertxGen
public interface AccountsInternal {

  /** Event-bus address of the internal operations. */
  String ADDRESS = "kith.accounts.internal";

  /** A proxy to the internal operations (on any node of the cluster that runs accounts). */
  @GenIgnore
  static AccountsInternal proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, AccountsInternal.class, ADDRESS);
  }

  /**
   * Which of these users exist and whether each requires approval of new followers:
   * {@code {"<id>": {follow_approval: bool}}}; unknown ids are absent. At most 1,000 ids.
   */
  Future<JsonObject> followSettings(List<Long> userIds);

  /**
   * Whether each of up to 1,000 users has a live bridge connection now, whatever their presence mode (no viewer: it
   * answers what each user would see of themselves). One pipelined Redis round trip, not counted against any user's
   * presence-query limit; used by notifications to tell only offline users of a direct message.
   *
   * @return {@code {"<id>": online (bool)}} for every distinct id asked
   */
  Future<JsonObject> onlineAmong(List<Long> userIds);

  /**
   * What push needs of each of up to 1,000 recipients in one call: {@link #onlineAmong}'s answer and the locale the
   * account's texts are written in, read from the profile cache (MongoDB only on a cache miss). Every profile write
   * updates that cache, so a changed locale is answered at once.
   *
   * @return {@code {"<id>": {online (bool), locale ("en", "zh-CN", or null for an account without one, unknown,
   *     pending deletion or suspended)}}} for every distinct id asked
   */
  Future<JsonObject> recipientsAmong(List<Long> userIds);

  /**
   * Ids of the active accounts (neither pending deletion nor erased) above {@code after}, ascending, {@code limit}
   * (1..1,000) of them: {@code {ids: [...], next}}, {@code next} being the {@code after} of the following page or
   * null at the end. For walks over everyone in bounded pages (an announcement).
   */
  Future<JsonObject> activeUsers(long after, int limit);

  /**
   * Called by the gateway when a bridge connection of {@code userId} is authenticated ({@code open} true) or closed.
   * Connections are counted in Redis with a heartbeat expiry, so a crashed node leaves no ghost.
   */
  Future<Void> connectionChanged(long userId, String connectionId, boolean open);

  /**
   * Called by the gateway periodically with the connections it holds: {@code {"<userId>": ["<connectionId>", ...]}}.
   */
  Future<Void> connectionsAlive(JsonObject connections);

  /**
   * Suspends an account (moderation decided it): {@code untilMillis} is when it ends (epoch ms; 0 = permanent). Every
   * session and device token ends at once, the account is hidden like a missing one and its login is refused with
   * {@code account_suspended} until then; its verified email (or phone) is told with the reason. A new suspension
   * replaces the one in force. {@code user_not_found} for an unknown or deleted account.
   */
  Future<Void> suspend(long userId, long untilMillis, String reason);

  /** Ends a suspension (an unsuspend or an overturned appeal); nothing for an account not suspended. */
  Future<Void> unsuspend(long userId);

  /**
   * Limits an account (moderation decided it) until {@code untilMillis} (epoch ms; 0 = permanent): its posts leave the
   * public surfaces for everyone but itself and its followers, people search and nearby leave it out, and it may
   * start no direct conversation with someone who does not follow it. A new limit replaces the one in force;
   * {@code user_not_found} for an unknown or deleted account.
   */
  Future<Void> limit(long userId, long untilMillis, String reason);

  /** Ends a limit; nothing for an account not limited. */
  Future<Void> unlimit(long userId);

  /**
   * Which of up to 1,000 users are limited now: {@code {"<id>": true}} for each limited one, nothing for the others.
   * Read from the accounts' profile cache (one Redis round trip when warm), so a domain can ask it per page.
   */
  Future<JsonObject> limitedAmong(List<Long> userIds);

  /**
   * The settings of a reader that other domains apply to what they show them: {@code {hide_filtered}} (hide posts
   * and comments the operators' content filters match); the defaults for an unknown user. From the profile cache.
   */
  Future<JsonObject> readerSettings(long userId);

  /**
   * The id of the account holding {@code username} (any case) for an operator's lookup: unlike
   * {@link AccountsService#findByUsername}, a suspended, limited or pending-deletion account is found too (moderation
   * checks the caller's role first). {@code user_not_found} for no such account, or one erased.
   */
  Future<Long> idOfUsername(String username);

  /**
   * An account's standing for an operator's record (moderation checks the caller's role first):
   * {@code {state, until}} with {@code state} the one in force, the most severe first: {@code pending_deletion},
   * {@code suspended}, {@code limited} or {@code active}; {@code until} when it ends (epoch ms; null when permanent or
   * active). {@code user_not_found} for no such account, or one erased.
   */
  Future<JsonObject> accountState(long userId);

  /**
   * The user whose suspension {@code appealToken} (from a refused login) belongs to, while it is valid and the account
   * still suspended; 0 otherwise. Moderation files a suspended user's appeal with it.
   */
  Future<Long> suspendedBy(String appealToken);
}
