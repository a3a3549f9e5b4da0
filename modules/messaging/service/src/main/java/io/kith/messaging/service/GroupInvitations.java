package io.kith.messaging.service;

import io.kith.accounts.api.UserSummaries;
import static io.kith.messaging.service.Groups.ADMIN;
import static io.kith.messaging.service.Groups.OWNER;
import static io.kith.messaging.service.Groups.isMember;

import io.kith.accounts.api.AccountsService;
import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingErrors;
import io.kith.messaging.api.events.GroupInvited;
import io.kith.messaging.api.events.InvitationDeclined;
import io.kith.messaging.api.events.InvitationExpired;
import io.kith.platform.Platform;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.events.Event;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Inviting friends to a group, the invitations a user holds, declining one, and the sweep of expired ones.
 */
final class GroupInvitations {

  private final Platform platform;
  private final MessagingSettings settings;
  private final GroupStore groups;
  private final AccountsService accounts;
  private final Groups access;
  private final GroupNotices notices;

  GroupInvitations(Platform platform, MessagingSettings settings, GroupStore groups, AccountsService accounts,
                   Groups access, GroupNotices notices) {
    this.platform = platform;
    this.settings = settings;
    this.groups = groups;
    this.accounts = accounts;
    this.access = access;
    this.notices = notices;
  }

  Future<JsonObject> invite(long actor, long groupId, List<Long> users) {
    return Failures.guard(() -> {
      if (users == null || users.isEmpty()) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "users", "name 1 to " + Messaging.MAX_INVITEES
            + " users to invite");
      }
      List<Long> invitees = GroupInput.ids(new JsonArray(new ArrayList<>(users)), "users", actor);
      return access.asMember(actor, groupId).compose(seen -> inviteAs(actor, seen, invitees));
    });
  }

  /** A member's invitation, in steps: the group is not managed, the rate, friends only, bans, then the writes. */
  private Future<JsonObject> inviteAs(long actor, Groups.Seen seen, List<Long> invitees) {
    if (seen.managed()) {
      return Failures.fail(MessagingErrors.GROUP_MANAGED, "members of this group follow its activity");
    }
    long groupId = seen.id();
    return access.throttle("rl:messaging:invitations:" + actor, 3_600_000L, settings.invitationsPerHour(),
        "invitation requests")
        .compose(v -> access.friendsOf(actor, invitees, "users"))
        .compose(v -> groups.banned(groupId, invitees))
        .compose(banned -> liftBans(seen, banned))
        .compose(v -> writeInvitations(actor, seen, invitees));
  }

  /** Invitees removed from the group: only the owner or an admin invites them back, which lifts the ban. */
  private Future<Void> liftBans(Groups.Seen seen, Set<Long> banned) {
    if (banned.isEmpty()) {
      return Future.<Void>succeededFuture();
    }
    if (!OWNER.equals(seen.role()) && !ADMIN.equals(seen.role())) {
      return Failures.<Void>failField(MessagingErrors.BANNED_FROM_GROUP, "users", "removed from this group "
          + "(only its owner or an admin can invite them back): " + banned);
    }
    // the owner or an admin inviting a kicked user lifts the ban
    return groups.unban(seen.id(), new ArrayList<>(banned));
  }

  /** Writes the invitations of the invitees outside the group; the ones written are told and make the event. */
  private Future<JsonObject> writeInvitations(long actor, Groups.Seen seen, List<Long> invitees) {
    long now = System.currentTimeMillis();
    List<Long> outside = invitees.stream().filter(u -> !isMember(seen.doc(), u)).toList();
    List<Future<Boolean>> writes = outside.stream().map(u -> groups.invite(seen.id(), u, actor, now)).toList();
    return Future.all(writes).map(x -> {
      JsonArray invited = new JsonArray();
      for (int i = 0; i < outside.size(); i++) {
        if (writes.get(i).result()) {
          invited.add(outside.get(i));
        }
      }
      if (!invited.isEmpty()) {
        notices.publish(new GroupInvited(seen.doc().getLong("_id"), seen.doc().getString("name"),
            seen.doc().getString("group_kind"), actor, Event.longs(invited)));
        for (Object u : invited) {
          long user = ((Number) u).longValue();
          platform.vertx().eventBus().publish(Addresses.user(user), new JsonObject()
              .put("kind", Messaging.PUSH_GROUP_INVITED).put("group", access.view(seen.doc(), null, true))
              .put("by", actor));
        }
      }
      return new JsonObject().put("invited", invited);
    });
  }

  Future<JsonObject> invitations(long actor, JsonObject query) {
    return Failures.guard(() -> {
      JsonObject q = query == null ? new JsonObject() : query;
      int limit = GroupInput.limit(q, "limit", 20, 100);
      long[] cursor = GroupInput.cursor(q, "before");
      return groups.invitations(actor, cursor == null ? null : cursor[0], cursor == null ? null : cursor[1],
          limit + 1).compose(found -> invitationsPage(actor, found, limit));
    });
  }

  /** One page of the invitations found (one more than the limit when there are more): their groups and inviters. */
  private Future<JsonObject> invitationsPage(long actor, List<JsonObject> found, int limit) {
    boolean more = found.size() > limit;
    List<JsonObject> page = more ? found.subList(0, limit) : found;
    if (page.isEmpty()) {
      return Future.succeededFuture(new JsonObject().put("items", new JsonArray()).putNull("next"));
    }
    Future<List<JsonObject>> docs = groups.light(page.stream().map(i -> i.getLong("group")).toList());
    Future<JsonObject> people = UserSummaries.lookup(accounts, actor, page.stream().map(i -> i.getLong("by")).toList());
    return Future.all(docs, people).map(v -> {
      Map<Long, JsonObject> byId = new HashMap<>();
      docs.result().forEach(d -> byId.put(d.getLong("_id"), d));
      JsonArray items = new JsonArray();
      for (JsonObject inv : page) {
        JsonObject doc = byId.get(inv.getLong("group"));
        if (doc != null) {
          long by = inv.getLong("by");
          items.add(new JsonObject().put("group", access.view(doc, null, true))
              .put("by", UserSummaries.of(people.result(), by))
              .put("created", inv.getLong("created")));
        }
      }
      JsonObject last = page.get(page.size() - 1);
      return new JsonObject().put("items", items)
          .put("next", more ? last.getLong("created") + "_" + last.getLong("group") : null);
    });
  }

  Future<Void> decline(long actor, long groupId) {
    return groups.dropInvitation(groupId, actor).map(dropped -> {
      if (dropped) {
        notices.publish(new InvitationDeclined(groupId, actor));
      }
      return null;
    });
  }

  /** Expired invitations one sweep round removes. */
  static final int SWEEP_BATCH = 500;
  /** Rounds one sweep runs at most (the next sweep goes on where it stopped). */
  static final int SWEEP_ROUNDS = 20;

  /**
   * Removes expired invitations, oldest first, in rounds of {@link #SWEEP_BATCH} (at most {@link #SWEEP_ROUNDS}), one
   * after the other, and tells each removal with an {@code InvitationExpired {group, user, expired_at}} event
   * (notifications drops the invitation's notification made before {@code expired_at}: one made for a new invitation
   * is younger). Every node may sweep at once: an invitation is removed only if it is still the one found (not renewed
   * since), so only one sweeper removes it and tells. Answers how many this sweep removed.
   */
  Future<Integer> sweepInvitations() {
    return sweepRound(0, 0);
  }

  private Future<Integer> sweepRound(int round, int removed) {
    return groups.expired(SWEEP_BATCH).compose(found -> {
      Future<Integer> chain = Future.succeededFuture(removed);
      for (JsonObject inv : found) {
        chain = chain.compose(n -> dropExpired(inv, n));
      }
      return chain.compose(n -> found.size() == SWEEP_BATCH && round + 1 < SWEEP_ROUNDS ? sweepRound(round + 1, n)
          : Future.succeededFuture(n));
    });
  }

  /** Removes one expired invitation if it is still the one found, and tells it; answers {@code n} plus that one. */
  private Future<Integer> dropExpired(JsonObject inv, int n) {
    return groups.dropExpired(inv).map(dropped -> {
      if (!dropped) {
        return n;
      }
      long expiredAt = inv.getLong("created") + settings.invitationMillis();
      notices.publish(new InvitationExpired(inv.getLong("group"), inv.getLong("user"), expiredAt));
      return n + 1;
    });
  }
}
