package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.accounts.api.events.ProfileUpdated;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.events.EventPublisher;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Locale;

/**
 * Changing one's username: the password first (a username is how people find and mention the account, so a stolen
 * session alone must not hand it over), then the cool-down since the previous change, then the change itself, which
 * reserves the name left for a while. The old name then finds nobody: following it to the new one would tell anyone
 * who knew the old name what the account is now called, which is what a rename is often meant to stop; the
 * reservation alone keeps anyone else from impersonating the old name meanwhile.
 */
final class UsernameChange {

  private static final long DAY_MS = 86_400_000L;

  private final AccountsSettings settings;
  private final AccountStore store;
  private final ProfileCache cache;
  private final Login login;
  private final EventPublisher events;

  UsernameChange(AccountsSettings settings, AccountStore store, ProfileCache cache, Login login,
                 EventPublisher events) {
    this.settings = settings;
    this.store = store;
    this.cache = cache;
    this.login = login;
    this.events = events;
  }

  Future<JsonObject> change(long actor, String username, String password) {
    return Failures.guard(() -> {
      String wanted = Profiles.username(username);
      return login.passwordConfirmed(actor, password, "password")
          .compose(v -> store.byId(actor))
          .compose(account -> account == null ? Failures.<JsonObject>fail(AccountsErrors.USER_NOT_FOUND, "no such user")
              : changed(account, wanted));
    });
  }

  private Future<JsonObject> changed(JsonObject account, String wanted) {
    long now = System.currentTimeMillis();
    String wantedLc = wanted.toLowerCase(Locale.ROOT);
    String currentLc = account.getString("username_lc");
    // taking back one's own reserved name undoes a change, so it is never held back by the cool-down
    boolean takingBack = AccountStore.reserves(account, wantedLc, now);
    long availableAt = account.getLong("username_changed", 0L) + settings.usernameChangeCooldownDays() * DAY_MS;
    if (!takingBack && availableAt > now) {
      return Future.failedFuture(Failures.withExtra(AccountsErrors.USERNAME_CHANGE_TOO_SOON,
          "the username was changed recently; it can change again after the cool-down",
          new JsonObject().put("available_at", availableAt).put("retry_after", (availableAt - now + 999) / 1000)));
    }
    JsonObject set = new JsonObject().put("username", wanted).put("username_lc", wantedLc)
        .put("username_changed", now).put(AccountStore.RESERVED, reservations(account, currentLc, wantedLc, now));
    // the unique index refuses a name in use; a name another account holds reserved is found by asking first
    return store.findConflict(new JsonObject().put("username_lc", wantedLc), account.getLong("_id"))
        .compose(conflict -> conflict != null ? Future.<JsonObject>failedFuture(conflict)
            : store.changeUsername(account.getLong("_id"), currentLc, set))
        .compose(this::announced);
  }

  /** After the change is stored: the cache (summaries everywhere show the new name) and the event naming the field. */
  private Future<JsonObject> announced(JsonObject updated) {
    if (updated == null) {
      return Failures.fail(KithErrors.CONFLICT, "the username changed concurrently; retry");
    }
    events.publish(new ProfileUpdated(updated.getLong("_id"), List.of("username")));
    return cache.put(updated).map(v -> Profiles.ownView(updated));
  }

  /**
   * The account's live reservations without the name being taken (back), plus the name being left (unless only its
   * case changes), held until {@code now} plus the reserve period.
   */
  private JsonArray reservations(JsonObject account, String currentLc, String wantedLc, long now) {
    JsonArray kept = new JsonArray();
    account.getJsonArray(AccountStore.RESERVED, new JsonArray()).forEach(r -> {
      JsonObject reservation = (JsonObject) r;
      if (reservation.getLong("until", 0L) > now && !wantedLc.equals(reservation.getString("name"))
          && !currentLc.equals(reservation.getString("name"))) {
        kept.add(reservation);
      }
    });
    if (!currentLc.equals(wantedLc) && settings.usernameReserveDays() > 0) {
      kept.add(new JsonObject().put("name", currentLc).put("until", now + settings.usernameReserveDays() * DAY_MS));
    }
    return kept;
  }
}
