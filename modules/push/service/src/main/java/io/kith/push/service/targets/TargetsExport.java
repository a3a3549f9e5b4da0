package io.kith.push.service.targets;

import io.kith.platform.events.Exports;
import io.kith.push.service.delivery.Preferences;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Push's part of an account export ({@link Exports#serve} at {@code kith.export.push}), in one page:
 * {@code targets.json} (each device or browser the user registered, as {@code GET /me/push-targets} shows it) and
 * {@code preferences.json} (the push preferences in force, as {@code GET /me/push-preferences} shows them, the
 * defaults for a user who never set any). One page suffices: a user holds at most
 * {@code push.max-targets-per-user} targets, and the page is capped below {@link Exports#MAX_RECORDS} in case two
 * registrations raced past the bound.
 */
final class TargetsExport implements Exports.Source {

  /** Push's domain name in an export ({@code push/<name>.json} in the archive). */
  static final String DOMAIN = "push";

  private final TargetRecords records;
  private final Preferences preferences;

  TargetsExport(TargetRecords records, Preferences preferences) {
    this.records = records;
    this.preferences = preferences;
  }

  @Override
  public Future<Exports.Page> page(long user, String cursor) {
    return Future.all(records.of(user, Exports.MAX_RECORDS - 1), preferences.of(user)).map(all -> {
      List<Exports.Record> out = new ArrayList<>();
      all.<List<JsonObject>>resultAt(0)
          .forEach(t -> out.add(new Exports.Record("targets.json", Targets.view(t))));
      out.add(new Exports.Record("preferences.json", all.resultAt(1)));
      return new Exports.Page(out, null);
    });
  }
}
