package io.kith.activities.service;

import io.kith.accounts.api.AccountsService;
import io.kith.activities.api.Activities;
import io.kith.activities.api.ActivitiesErrors;
import io.kith.activities.api.events.ActivityInvited;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.store.MongoErrors;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The organiser inviting users: open and not over → room for more invitations → quota → who may be invited (existing
 * friends, no block) → each invitation → {@code ActivityInvited}. The answer never tells who got one.
 */
final class Invitations {

  private final ActivitiesSettings settings;
  private final ParticipantStore participants;
  private final Effects effects;
  private final Quotas quotas;
  private final ActivityViews views;
  private final RelationsInternal relations;
  private final AccountsService accounts;

  Invitations(ActivitiesSettings settings, ParticipantStore participants, Effects effects, Quotas quotas,
              ActivityViews views, RelationsInternal relations, AccountsService accounts) {
    this.settings = settings;
    this.participants = participants;
    this.effects = effects;
    this.quotas = quotas;
    this.views = views;
    this.relations = relations;
    this.accounts = accounts;
  }

  /** See {@link io.kith.activities.api.ActivitiesService#invite}. */
  Future<JsonObject> invite(long actor, long activityId, List<Long> userIds) {
    return Failures.guard(() -> {
      Input.requireUser(actor);
      if (userIds == null || userIds.isEmpty() || userIds.size() > Activities.MAX_INVITES) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "users",
            "invite 1 to " + Activities.MAX_INVITES + " users at a time");
      }
      Set<Long> wanted = new LinkedHashSet<>();
      for (Long u : userIds) {
        if (u == null || u <= 0) {
          return Failures.failField(KithErrors.VALIDATION_FAILED, "users", "users must be user ids");
        }
        if (u != actor) {
          wanted.add(u);
        }
      }
      List<Long> list = new ArrayList<>(wanted);
      // the answer is the same whoever the ids are: it names every id the call covered, never who got an invitation
      JsonObject answer = new JsonObject().put("invited", new JsonArray(list));
      return views.organisersOwn(actor, activityId).compose(doc -> inviteAll(actor, doc, list)).map(v -> answer);
    });
  }

  private Future<Void> inviteAll(long actor, JsonObject doc, List<Long> list) {
    if (list.isEmpty()) {
      return openAndNotOver(doc);
    }
    return openAndNotOver(doc)
        .compose(v -> roomFor(doc.getLong("_id"), list.size()))
        .compose(v -> quotas.throttleBy("invitees", actor, list.size(), settings.inviteesPerHour(), Quotas.HOUR,
            "users invited per hour"))
        .compose(v -> eligible(actor, list))
        .compose(eligible -> inviteEach(doc, eligible))
        .compose(invited -> invited.isEmpty() ? Future.<Void>succeededFuture()
            : effects.emit(new ActivityInvited(doc.getLong("_id"), doc.getLong("organiser"), doc.getString("title"),
                doc.getLong("start"), invited)));
  }

  private static Future<Void> openAndNotOver(JsonObject doc) {
    if (Activities.CANCELLED.equals(doc.getString("status"))) {
      return Failures.fail(ActivitiesErrors.ACTIVITY_CANCELLED, "the activity was cancelled");
    }
    if (doc.getLong("end") <= System.currentTimeMillis()) {
      return Failures.fail(ActivitiesErrors.ACTIVITY_STARTED, "the activity is over");
    }
    return Future.succeededFuture();
  }

  /** An activity holds at most {@code max-invitees} invitations. */
  private Future<Void> roomFor(long activityId, int more) {
    return participants.invitedCount(activityId).compose(held -> held + more > settings.maxInvitees()
        ? Failures.failField(KithErrors.VALIDATION_FAILED, "users", "an activity holds at most "
            + settings.maxInvitees() + " invitations (" + held + " now)")
        : Future.succeededFuture());
  }

  /** The users of {@code list} that exist and the organiser may invite, in order. */
  private Future<List<Long>> eligible(long actor, List<Long> list) {
    return accounts.summaries(actor, list).compose(found -> relations.ties(actor, list).map(ties -> list.stream()
        .filter(u -> found.containsKey(Long.toString(u)))
        .filter(u -> mayInvite(ties.getJsonObject(Long.toString(u))))
        .toList()));
  }

  /** The organiser invites friends only (mutual follows), and nobody in a block with them either way. */
  private static boolean mayInvite(JsonObject tie) {
    return tie != null && tie.getBoolean("friend", false) && !Access.blocked(tie);
  }

  /** Invites each user; answers those newly invited. */
  private Future<List<Long>> inviteEach(JsonObject doc, List<Long> eligible) {
    List<Future<Long>> each = new ArrayList<>();
    eligible.forEach(u -> each.add(inviteOne(doc, u)));
    return Future.all(each).map(all -> each.stream().map(Future::result).filter(Objects::nonNull).toList());
  }

  /** Invites one user; answers the id when newly invited, null when already invited or taking part. */
  private Future<Long> inviteOne(JsonObject doc, long user) {
    long id = doc.getLong("_id");
    return participants.find(id, user).compose(part -> part == null ? firstPart(doc, user)
        : invitePart(doc, user, part));
  }

  /** A user with no part yet: a new invited participation (a concurrent one makes it try again). */
  private Future<Long> firstPart(JsonObject doc, long user) {
    long id = doc.getLong("_id");
    long now = System.currentTimeMillis();
    return participants.insert(id, user, Activities.NONE, true, 0L, doc.getLong("start"), now)
        .compose(made -> effects.participant(made, doc).map(user))
        .recover(e -> MongoErrors.isDuplicateKey(e) ? inviteOne(doc, user) : Future.failedFuture(e));
  }

  /**
   * A user with a part already: nothing while invited, joined or waiting; else invited again (a concurrent change makes
   * it try again).
   */
  private Future<Long> invitePart(JsonObject doc, long user, JsonObject part) {
    String status = part.getString("status");
    if (part.getBoolean("invited", false) || Activities.JOINED.equals(status)
        || Activities.WAITLISTED.equals(status)) {
      return Future.succeededFuture(null);
    }
    long id = doc.getLong("_id");
    return participants.transition(id, user, List.of(status),
            new JsonObject().put("invited", true).put("status", Activities.NONE))
        .compose(made -> made == null ? inviteOne(doc, user) : effects.participant(made, doc).map(user));
  }
}
