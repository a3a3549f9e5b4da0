package io.kith.messaging.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.messaging.api.MessagingErrors;
import io.kith.messaging.api.WhiteboardErrors;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.Erasures;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Erases a deleted account's messaging data when accounts appends {@code AccountDeleted} (consumer group
 * {@value #GROUP}, {@code once}-guarded), in idempotent steps recorded in the erasure report ({@link Erasures}, domain
 * {@value #DOMAIN}); a step the report holds is skipped, so a run resumed after a crash goes on where it stopped. The
 * steps, in order (module README, "Account erasure"): the boards the user owns are deleted and their ad-hoc board
 * memberships end (as a deletion and a removal do); their groups are left as a leave does (the room revoked, the owner
 * handed over or the group dissolved), each group's count recounted; dissolved groups stop naming them; invitations
 * and bans naming them go; the messages they sent go (the Redis windows of those conversations are dropped and each
 * conversation's last message is the newest left); their direct conversations mark them erased (the peer sees a
 * deleted user and keeps their own messages); their member documents, settings and rate-limit windows go.
 */
final class Erasure {

  /** Consumer group of this module on the accounts stream. */
  static final String GROUP = "messaging-erasure";
  /** The domain name of the erasure report. */
  static final String DOMAIN = "messaging";
  /** Things handled per round of a step. */
  private static final int BATCH = 100;
  /** The rate-limit windows kept per user (the per-conversation typing windows expire within seconds). */
  private static final List<String> RATE_LIMITS = List.of("send", "joins", "read", "groups", "invitations", "board");

  private final Platform platform;
  private final AccountDataStore store;
  private final MessageStore messages;
  private final MessagingServiceImpl service;
  private final WhiteboardServiceImpl boards;
  private final Erasures erasures;

  Erasure(Platform platform, AccountDataStore store, MessageStore messages, MessagingServiceImpl service,
          WhiteboardServiceImpl boards) {
    this.platform = platform;
    this.store = store;
    this.messages = messages;
    this.service = service;
    this.boards = boards;
    this.erasures = new Erasures(platform.mongo());
  }

  /** Handles one event of the accounts stream: {@code AccountDeleted} erases its user, anything else is ignored. */
  Future<?> handle(DomainEvent event) {
    if (!AccountsEvents.ACCOUNT_DELETED.equals(event.type())) {
      return Future.succeededFuture();
    }
    long user = AccountDeleted.fromJson(event.payload()).userId();
    return user <= 0 ? Future.succeededFuture() : erase(user);
  }

  /** Runs every step not recorded yet for {@code user}, then marks the report finished; answers the report. */
  Future<JsonObject> erase(long user) {
    return step(user, "boards", "boards", () -> each(after -> store.ownedBoards(user, after, BATCH),
            board -> gone(boards.delete(user, board))))
        .compose(v -> step(user, "board_memberships", "board_memberships",
            () -> each(after -> store.memberBoards(user, after, BATCH), board -> gone(boards.removeMember(user, board, user)))))
        .compose(v -> step(user, "groups", "group_memberships",
            () -> each(after -> store.groups(user, after, BATCH), group -> leave(user, group))))
        .compose(v -> step(user, "managed_groups", "managed_groups",
            () -> each(after -> store.ownedManagedGroups(user, after, BATCH), group -> service.dissolveErased(user, group))))
        .compose(v -> step(user, "dissolved_groups", "dissolved_groups", () -> store.releaseDissolved(user)))
        .compose(v -> step(user, "invitations", "invitations", () -> store.dropInvitations(user)))
        .compose(v -> step(user, "bans", "bans", () -> store.dropBans(user)))
        .compose(v -> step(user, "messages", "messages", () -> messages(user)))
        .compose(v -> step(user, "conversations", "direct_conversations", () -> store.markErased(user)))
        .compose(v -> step(user, "members", "member_documents", () -> store.deleteMemberDocs(user)))
        .compose(v -> step(user, "settings", "settings", () -> settings(user)))
        .compose(v -> step(user, "rate_limits", "rate_limits", () -> rateLimits(user)))
        .compose(v -> erasures.finish(DOMAIN, user));
  }

  /** Runs {@code work} unless the report holds {@code step}, then records it with the count {@code work} answers. */
  private Future<Void> step(long user, String step, String kind, Supplier<Future<Long>> work) {
    return erasures.done(DOMAIN, user, step).compose(done -> done ? Future.succeededFuture()
        : work.get().compose(count -> erasures.step(DOMAIN, user, step, kind, count)));
  }

  /**
   * Applies {@code action} to every id {@code page} finds, a page after the last id of the one before, so an id the
   * action could not take away is not met again; answers how many ids it met.
   */
  private static Future<Long> each(Function<Long, Future<List<Long>>> page, Function<Long, Future<Void>> action) {
    return each(page, action, null, 0L);
  }

  private static Future<Long> each(Function<Long, Future<List<Long>>> page, Function<Long, Future<Void>> action,
                                   Long after, long done) {
    return page.apply(after).compose(ids -> {
      if (ids.isEmpty()) {
        return Future.succeededFuture(done);
      }
      return inTurn(ids, action).compose(v -> each(page, action, ids.get(ids.size() - 1), done + ids.size()));
    });
  }

  /** A board change that met the board gone meanwhile has nothing left to do. */
  private static Future<Void> gone(Future<Void> change) {
    return change.recover(e -> Failures.is(e, WhiteboardErrors.BOARD_NOT_FOUND) ? Future.succeededFuture()
        : Future.failedFuture(e));
  }

  /** Leaves a group as a leave does (gone meanwhile: nothing to do), then recounts it. */
  private Future<Void> leave(long user, long group) {
    return service.leaveErased(user, group)
        .recover(e -> Failures.is(e, MessagingErrors.NOT_GROUP_MEMBER) || Failures.is(e, MessagingErrors.GROUP_NOT_FOUND)
            ? Future.succeededFuture() : Future.failedFuture(e))
        .compose(v -> store.recount(group));
  }

  /**
   * The user's messages: first the Redis windows of the conversations holding them (reads fall back to MongoDB, new
   * messages refill them), then the messages, then each conversation's last message is the newest one left.
   */
  private Future<Long> messages(long user) {
    return store.sentIn(user)
        .compose(conversations -> inTurn(conversations, c -> platform.redisApi()
            .del(List.of(RecentWindow.key(c))).mapEmpty()))
        .compose(v -> store.deleteSent(user))
        .compose(count -> store.lastFrom(user).compose(conversations -> inTurn(conversations,
            c -> messages.range(c, null, null, 1, false).compose(newest -> store.replaceLastFrom(c, user,
                newest.isEmpty() ? null : Conversations.view(newest.get(0)))))).map(count));
  }

  /**
   * Applies {@code action} to each id, one after the other: an erasure is background work, and a user with thousands
   * of groups or conversations must not take the store pools from the requests of everyone else.
   */
  private static Future<Void> inTurn(List<Long> ids, Function<Long, Future<Void>> action) {
    Future<Void> chain = Future.succeededFuture();
    for (long id : ids) {
      chain = chain.compose(v -> action.apply(id));
    }
    return chain;
  }

  /** The settings go, and every node's copy of them with the change notice a settings change sends. */
  private Future<Long> settings(long user) {
    return store.deleteSettings(user).map(n -> {
      service.settingsChanged(user);
      platform.vertx().eventBus().publish(SettingsCache.CHANGED, new JsonObject().put("user", user));
      return n;
    });
  }

  /** The user's rate-limit windows (one key each, as they may live on different cluster nodes); answers how many. */
  private Future<Long> rateLimits(long user) {
    List<Future<Long>> all = new ArrayList<>();
    RATE_LIMITS.forEach(kind -> all.add(platform.redisApi().del(List.of("rl:messaging:" + kind + ":" + user))
        .map(r -> r == null ? 0L : r.toLong())));
    return Future.all(all).map(v -> all.stream().mapToLong(Future::result).sum());
  }
}
