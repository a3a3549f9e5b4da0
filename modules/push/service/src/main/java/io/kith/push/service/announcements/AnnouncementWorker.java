package io.kith.push.service.announcements;

import io.kith.accounts.api.AccountsInternal;
import io.kith.notifications.api.NotificationsInternal;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells everyone of an announcement in the background, never in the request: every {@code push.announcements.poll-ms}
 * a node claims a running job (a lease, so two nodes never tell one batch), reads the next
 * {@code push.announcements.batch} active accounts after the job's cursor from accounts, stores their notifications
 * through notifications (idempotent per user by the job's key, so a batch retried after a crash tells nobody twice)
 * and moves the cursor. A told batch is followed by the next one at once, or as late as
 * {@code push.announcements.accounts-per-second} asks, rather than at the next poll: one batch in flight per node, the
 * pace set by how fast notifications stores. Deleted and pending-deletion accounts are not in accounts' walk.
 *
 * <p>A batch that fails (some of its notifications could not be stored: a MongoDB pool wait) leaves the cursor where
 * it was and is told again after a backoff, logged with how many failed; the recipients it told already are not told
 * twice. After {@value #MAX_FAILURES} failures in a row the job is given up ({@code state: failed}), logged at ERROR
 * with how many accounts it told.
 */
final class AnnouncementWorker {

  /** How long a claimed batch may take before another node takes the job over. */
  static final long LEASE_MS = 60_000;
  /** The first wait before a failed batch is told again; it doubles with each failure, up to {@link #LEASE_MS}. */
  static final long RETRY_BASE_MS = 1_000;
  /** Failures of one batch in a row after which its job is given up. */
  static final int MAX_FAILURES = 20;
  private static final Logger LOG = LoggerFactory.getLogger(AnnouncementWorker.class);

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
    }).recover(e -> failed(job, e));
  }

  /** Takes a failed batch up again after a backoff, or gives its job up; either way this step told nobody. */
  private Future<Integer> failed(JsonObject job, Throwable e) {
    long id = job.getLong("_id");
    long after = job.getLong("after", 0L);
    int failures = job.getInteger("failures", 0) + 1;
    if (failures >= MAX_FAILURES) {
      LOG.error("Announcement {} given up after {} failures in a row of its batch after account {}: {} accounts "
          + "told, the rest not: {}", id, failures, after, job.getLong("told", 0L), e.getMessage());
      return store.giveUp(id, failures).transform(ignored -> Future.succeededFuture(0));
    }
    long wait = Math.min(LEASE_MS, RETRY_BASE_MS << Math.min(failures - 1, 16));
    LOG.warn("Announcement {}: the batch after account {} failed ({} in a row), told again in {} ms: {}", id, after,
        failures, wait, e.getMessage());
    // if this write fails too, the claim's lease runs out and the batch is told again then
    return store.retryAt(id, System.currentTimeMillis() + wait, failures)
        .transform(ignored -> Future.succeededFuture(0));
  }
}
