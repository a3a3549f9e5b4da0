package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.accounts.api.events.ProfileUpdated;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.events.Event;
import io.kith.platform.events.EventPublisher;
import io.vertx.core.CompositeFuture;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reading a profile as the reader may see it, the owner's edits, and the summaries and follow settings other domains
 * ask for. The profile model itself (fields, validation, views) is {@link Profiles}.
 */
final class ProfileAccess {

  private final AccountsSettings settings;
  private final AccountStore store;
  private final ProfileCache cache;
  private final NearbyStore nearby;
  private final Relationships relationships;
  private final Throttles throttles;
  private final PresencePush push;
  private final EventPublisher events;
  private final ProfilePhotos photos;
  private final Verification verification;

  ProfileAccess(AccountsSettings settings, AccountStore store, ProfileCache cache, NearbyStore nearby,
                Relationships relationships, Throttles throttles, PresencePush push, EventPublisher events,
                ProfilePhotos photos, Verification verification) {
    this.verification = verification;
    this.settings = settings;
    this.store = store;
    this.cache = cache;
    this.nearby = nearby;
    this.relationships = relationships;
    this.throttles = throttles;
    this.push = push;
    this.events = events;
    this.photos = photos;
  }

  Future<JsonObject> profile(long actor, long userId) {
    // reading one's own profile is not counted; the count runs beside the read, not before it
    Future<Void> allowed = actor == userId ? Future.succeededFuture()
        : throttles.perMinute("profile", actor, settings.profileReadsPerMinute(), "too many profile reads");
    return Future.all(allowed, cache.get(userId)).map(both -> both.<JsonObject>resultAt(1)).compose(account -> {
      if (account == null) {
        return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
      }
      if (actor == userId) {
        return relationships.counts(userId).map(counts -> Profiles.ownView(account).mergeIn(counts));
      }
      // one question to relations for both the block and the friendship, beside the counts
      return Future.all(relationships.between(actor, userId), relationships.counts(userId))
          .compose(r -> otherView(account, r));
    });
  }

  /** Another user's profile, given {between, counts}: missing across a block, else the public view. */
  private static Future<JsonObject> otherView(JsonObject account, CompositeFuture r) {
    JsonObject between = r.resultAt(0);
    if (between.getBoolean("blocked", false)) {
      // across a block either way the account answers exactly as a missing one does (as by username, search and
      // lookups): any partial view would be one no ordinary account shows, and so would tell of the block
      return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
    }
    return Future.succeededFuture(
        Profiles.publicView(account, between.getBoolean("friend", false)).mergeIn(r.<JsonObject>resultAt(1)));
  }

  Future<JsonObject> updateProfile(long actor, JsonObject changes) {
    return store.byId(actor).compose(current -> Failures.guard(() -> {
      if (current == null) {
        return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
      }
      JsonObject change = Profiles.validateChanges(changes);
      keepVerified(current, change, "email", Profiles.EMAIL_PENDING);
      keepVerified(current, change, "phone", Profiles.PHONE_PENDING);
      String modeBefore = Profiles.settingsOf(current).getString("presence");
      boolean modeSet = change.getJsonObject("set").containsKey("settings.presence");
      Future<Void> admitted = throttles.perMinute("profile-update", actor, settings.profileUpdatesPerMinute(),
          "too many profile updates");
      return admitted.compose(v -> photos.attach(actor, change))
          .compose(v -> store.update(actor, change.getJsonObject("set"), change.getJsonArray("unset")))
          .compose(updated -> updated == null
              ? Failures.<JsonObject>fail(AccountsErrors.USER_NOT_FOUND, "no such user")
              : afterUpdate(actor, change, modeSet, modeBefore, updated));
    }));
  }

  /**
   * What follows a stored profile change: the cache, leaving nearby when no longer visible, the event, and the
   * presence push when the change set the presence mode to another one.
   */
  private Future<JsonObject> afterUpdate(long actor, JsonObject change, boolean modeSet, String modeBefore,
                                         JsonObject updated) {
    JsonObject now = Profiles.settingsOf(updated);
    List<Future<?>> after = new ArrayList<>();
    after.add(cache.put(updated));
    if (!now.getBoolean("nearby_visible") || "invisible".equals(now.getString("presence"))) {
      after.add(nearby.remove(actor));
    }
    events.publish(new ProfileUpdated(actor, Event.strings(change.getJsonArray("fields"))));
    // a new email or phone answers the same whether or not it is taken: the outcome (a code, or a notice that it
    // belongs to a verified account) goes to the identifier itself
    for (String channel : List.of("email", "phone")) {
      String target = change.getJsonObject("set").getString(Verification.pendingField(channel));
      if (target != null) {
        verification.sendQuietly(actor, channel, target, Messages.locale(updated.getString("locale"), null));
      }
    }
    if (modeSet && !now.getString("presence").equals(modeBefore)) {
      after.add(push.presenceChanged(actor, now.getString("presence"), true));
    }
    return Future.join(after).transform(x -> Future.succeededFuture(Profiles.ownView(updated)));
  }

  /**
   * Setting the identifier the account has verified already changes nothing: the claim that would wait for a code is
   * dropped instead (so is an earlier one waiting), and no code is sent.
   */
  private static void keepVerified(JsonObject current, JsonObject change, String channel, String pendingField) {
    JsonObject set = change.getJsonObject("set");
    String wanted = set.getString(pendingField);
    if (wanted != null && wanted.equals(current.getString(channel.equals("email") ? "email_lc" : "phone"))) {
      set.remove(pendingField);
      change.getJsonArray("unset").add(pendingField);
    }
  }

  Future<JsonObject> summaries(long viewer, List<Long> userIds) {
    if (userIds == null || userIds.size() > AccountsServiceImpl.MAX_IDS) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "ids", "at most " + AccountsServiceImpl.MAX_IDS + " ids");
    }
    return cache.getAll(userIds).map(found -> {
      JsonObject out = new JsonObject();
      found.forEach((id, account) -> out.put(Long.toString(id), Profiles.summary(account)));
      return out;
    });
  }

  /** The locale of each account among {@code userIds} that has one: {@code {"<id>": locale}}; the others absent. */
  Future<JsonObject> locales(List<Long> userIds) {
    return cache.getAll(userIds).map(found -> {
      JsonObject out = new JsonObject();
      found.forEach((id, account) -> {
        if (account.getValue("locale") instanceof String locale) {
          out.put(Long.toString(id), locale);
        }
      });
      return out;
    });
  }

  /** See {@link io.kith.accounts.api.AccountsInternal#activeUsers}. */
  Future<JsonObject> activeUsers(long after, int limit) {
    if (after < 0 || limit < 1 || limit > AccountsServiceImpl.MAX_IDS) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "limit", "limit must be between 1 and "
          + AccountsServiceImpl.MAX_IDS + ", after at least 0");
    }
    return store.activeIdsAfter(after, limit).map(ids -> new JsonObject().put("ids", new JsonArray(ids))
        .put("next", ids.size() < limit ? null : ids.get(ids.size() - 1)));
  }

  /** See {@link io.kith.accounts.api.AccountsInternal#idOfUsername}. */
  Future<Long> idOfUsername(String username) {
    if (username == null || username.isBlank() || username.length() > 30) {
      return Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user");
    }
    return store.idOfUsername(username.trim().toLowerCase(Locale.ROOT)).compose(id -> id == null
        ? Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user") : Future.succeededFuture(id));
  }

  /** See {@link io.kith.accounts.api.AccountsInternal#accountState}. */
  Future<JsonObject> accountState(long userId) {
    return store.byId(userId).compose(account -> account == null || Deletion.erased(account)
        ? Failures.fail(AccountsErrors.USER_NOT_FOUND, "no such user")
        : Future.succeededFuture(AccountState.of(account)));
  }

  /** See {@link io.kith.accounts.api.AccountsInternal#readerSettings}. */
  Future<JsonObject> readerSettings(long userId) {
    return cache.getAll(List.of(userId)).map(found -> {
      JsonObject account = found.get(userId);
      JsonObject settings = account == null ? Profiles.DEFAULT_SETTINGS : Profiles.settingsOf(account);
      return new JsonObject().put("hide_filtered", settings.getBoolean("hide_filtered"));
    });
  }

  Future<JsonObject> followSettings(List<Long> userIds) {
    if (userIds == null || userIds.size() > AccountsServiceImpl.MAX_IDS) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "ids", "at most " + AccountsServiceImpl.MAX_IDS + " ids");
    }
    return cache.getAll(userIds).map(found -> {
      JsonObject out = new JsonObject();
      found.forEach((id, account) -> out.put(Long.toString(id),
          new JsonObject().put("follow_approval", Profiles.settingsOf(account).getBoolean("follow_approval"))));
      return out;
    });
  }
}
