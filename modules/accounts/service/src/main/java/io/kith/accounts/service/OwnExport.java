package io.kith.accounts.service;

import io.kith.platform.events.Exports;
import io.kith.platform.token.SessionInfo;
import io.kith.platform.token.Sessions;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Accounts' own part of an export ({@link Exports#serve} at {@code kith.export.accounts}), in one page:
 * {@code profile.json} (the profile and settings as {@code GET /me} shows them), {@code identities.json} (each email
 * and phone, verified or waiting for its code), {@code sessions.json} (device label, created, last used) and
 * {@code devices.json} (the known device tokens' dates). No secret leaves: no password hash, no token, no session id,
 * no token hash.
 */
final class OwnExport implements Exports.Source {

  private final ProfileAccess profiles;
  private final AccountStore store;
  private final Sessions sessions;
  private final KnownDevices devices;

  OwnExport(ProfileAccess profiles, AccountStore store, Sessions sessions, KnownDevices devices) {
    this.profiles = profiles;
    this.store = store;
    this.sessions = sessions;
    this.devices = devices;
  }

  @Override
  public Future<Exports.Page> page(long user, String cursor) {
    return Future.all(profiles.profile(user, user), store.byId(user), sessions.list(user), devices.list(user))
        .map(all -> {
          List<Exports.Record> records = new ArrayList<>();
          records.add(new Exports.Record("profile.json", all.resultAt(0)));
          identities(all.resultAt(1)).forEach(i -> records.add(new Exports.Record("identities.json", i)));
          for (SessionInfo s : all.<List<SessionInfo>>resultAt(2)) {
            records.add(new Exports.Record("sessions.json", new JsonObject().put("device", s.device())
                .put("created", s.created()).put("last_used", s.lastUsed())));
          }
          all.<List<JsonObject>>resultAt(3).forEach(d -> records.add(new Exports.Record("devices.json", d)));
          return new Exports.Page(records, null);
        });
  }

  /** The account's emails and phones with their verified flags (a verified one and one waiting may both exist). */
  private static List<JsonObject> identities(JsonObject account) {
    List<JsonObject> out = new ArrayList<>();
    if (account == null) {
      return out;
    }
    String[][] fields = {{"email", "email", "true"}, {"email", Profiles.EMAIL_PENDING, "false"},
        {"phone", "phone", "true"}, {"phone", Profiles.PHONE_PENDING, "false"}};
    for (String[] f : fields) {
      String value = account.getString(f[1]);
      if (value != null) {
        out.add(new JsonObject().put("type", f[0]).put("value", value).put("verified", Boolean.parseBoolean(f[2])));
      }
    }
    return out;
  }
}
