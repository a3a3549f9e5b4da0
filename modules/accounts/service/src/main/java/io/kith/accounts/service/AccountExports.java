package io.kith.accounts.service;

import io.kith.accounts.api.AccountsErrors;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.store.MongoErrors;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * What a user asks of their exports: a new one (one at a time, a few a day), their status and list, and where a
 * ready archive lies for the download. The building is {@link ExportJobs}'s, started at once on this node.
 */
final class AccountExports {

  private static final long DAY_MILLIS = 86_400_000L;

  private final Platform platform;
  private final ExportSettings settings;
  private final ExportStore store;
  private final RateLimiter limiter;
  private final Runnable kick;

  /**
   * @param kick starts a sweep of this node's {@link ExportJobs} (the new export is built without waiting for the
   *             next periodic sweep)
   */
  AccountExports(Platform platform, ExportSettings settings, ExportStore store, RateLimiter limiter, Runnable kick) {
    this.platform = platform;
    this.settings = settings;
    this.store = store;
    this.limiter = limiter;
    this.kick = kick;
  }

  /** The per-user export limit's key (erased with the account). */
  static String limitKey(long user) {
    return "rl:accounts:export:" + user;
  }

  Future<JsonObject> request(long actor) {
    return store.active(actor).compose(active -> active != null ? inProgress()
        : limiter.enforce(limitKey(actor), DAY_MILLIS, settings.perDay(),
                "at most " + settings.perDay() + " exports a day; retry later")
            .compose(v -> store.insert(platform.ids().next(), actor, System.currentTimeMillis()))
            .recover(e -> MongoErrors.isDuplicateKey(e) ? inProgress() : Future.failedFuture(e))
            .map(doc -> {
              kick.run();
              return ExportStore.view(doc, System.currentTimeMillis());
            }));
  }

  private static <T> Future<T> inProgress() {
    return Failures.fail(AccountsErrors.EXPORT_IN_PROGRESS,
        "an export is already being built; wait until it is ready or failed");
  }

  Future<JsonObject> status(long actor, long id) {
    return own(actor, id).map(doc -> ExportStore.view(doc, System.currentTimeMillis()));
  }

  Future<JsonObject> list(long actor) {
    long now = System.currentTimeMillis();
    return store.list(actor).map(all -> {
      JsonArray items = new JsonArray();
      all.forEach(doc -> items.add(ExportStore.view(doc, now)));
      return new JsonObject().put("items", items);
    });
  }

  Future<JsonObject> file(long actor, long id) {
    return own(actor, id).compose(doc -> {
      JsonObject view = ExportStore.view(doc, System.currentTimeMillis());
      String state = view.getString("state");
      if (ExportStore.EXPIRED.equals(state)) {
        return Failures.fail(AccountsErrors.EXPORT_EXPIRED, "the export expired and was deleted; ask for a new one");
      }
      if (!ExportStore.READY.equals(state) || doc.getString("file") == null) {
        return Failures.fail(AccountsErrors.EXPORT_NOT_READY, "the export is " + state + ", not ready");
      }
      return Future.succeededFuture(new JsonObject()
          .put("path", settings.dir().resolve(doc.getString("file")).toAbsolutePath().toString())
          .put("size", doc.getLong("size")).put("filename", "kith-export-" + id + ".zip"));
    });
  }

  /** The actor's export {@code id}; another user's answers exactly as a missing one. */
  private Future<JsonObject> own(long actor, long id) {
    return store.find(actor, id).compose(doc -> doc == null
        ? Failures.fail(AccountsErrors.EXPORT_NOT_FOUND, "no export " + id)
        : Future.succeededFuture(doc));
  }
}
