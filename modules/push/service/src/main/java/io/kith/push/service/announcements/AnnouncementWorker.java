package io.kith.push.service.announcements;

import io.kith.accounts.api.AccountsInternal;
import io.kith.notifications.api.NotificationsInternal;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Tells everyone of an announcement in the background, never in the request: every {@code push.announcements.poll-ms}
 * a node claims a running job (a lease, so two nodes never tell one batch), reads the next
 * {@code push.announcements.batch} active accounts after the job's cursor from accounts, stores their notifications
 * through notifications (idempotent per user by the job's key, so a batch retried after a crash tells nobody twice)
 * and moves the cursor. A told batch is followed by the next one at once, or as late as
 * {@code push.announcements.accounts-per-second} asks, rather than at the next poll: one batch in flight per node, the
 * pace set by how fast notifications stores. Deleted and pending-deletion accounts are not in accounts' walk.
 */
final class AnnouncementWorker {

  /** How long a claimed batch may take before another node takes the job over. */
  static final long LEASE_MS = 60_000;

  private final Vertx vertx;
  private final AnnouncementStore store;
  private final AccountsInternal accounts;
  private final NotificationsInternal notifications;
  private final AnnouncementsSettings settings;
  private long timer = -1;
  private boolean busy;
  private boolean stopped;

  AnnouncementWorker(Vertx vertx, AnnouncementStore store, AccountsInternal accounts,
                     NotificationsInternal notifications, AnnouncementsSettings settings) {
    this.vertx = vertx;
    this.store = store;
    this.accounts = accounts;
    this.notifications = notifications;
    this.settings = settings;
  }

  void start() {
    timer = vertx.setPeriodic(settings.pollMs(), id -> run());
  }

  void stop() {
    stopped = true;
    if (timer >= 0) {
      vertx.cancelTimer(timer);
    }
  }

  /** One batch, then the next without waiting for the poll while a job goes on (paced by the rate). */
  private void run() {
    if (busy || stopped) {
      return;
    }
    busy = true;
    long started = System.nanoTime();
    step().onComplete(ar -> {
      busy = false;
      if (ar.succeeded() && ar.result() > 0 && !stopped) {
        long spent = (System.nanoTime() - started) / 1_000_000;
        vertx.setTimer(Math.max(1, settings.minMillis(ar.result()) - spent), t -> run());
      }
    });
  }

  /** One batch of the oldest due job, if any; how many accounts it told (0: nothing to do). */
  private Future<Integer> step() {
    long now = System.currentTimeMillis();
    return store.due(now, 1).compose(jobs -> jobs.isEmpty() ? Future.succeededFuture(0)
        : store.claim(jobs.get(0).getLong("_id"), now, now + LEASE_MS)
            .compose(job -> job == null ? Future.succeededFuture(0) : batch(job)));
  }

  private Future<Integer> batch(JsonObject job) {
    return accounts.activeUsers(job.getLong("after", 0L), settings.batch()).compose(page -> {
      List<Long> users = page.getJsonArray("ids", new JsonArray()).stream().map(o -> ((Number) o).longValue())
          .toList();
      Future<JsonObject> told = users.isEmpty() ? Future.succeededFuture(new JsonObject())
          : notifications.notifySystem(users, job.getString("type"), job.getJsonObject("fields"), job.getString("key"));
      // at least 1 while the walk goes on, so that an empty page before its end still moves to the next batch
      int count = page.getLong("next") == null ? users.size() : Math.max(1, users.size());
      return told.compose(v -> store.advance(job.getLong("_id"), page.getLong("next"), users.size()))
          .map(v -> count);
    });
  }
}
