package io.kith.accounts.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.events.AccountExportReady;
import io.kith.platform.Platform;
import io.kith.platform.events.Exports;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Files;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Builds exports in the background, never in a request. Every node sweeps (and the node that took a request at once);
 * a node claims one export at a time in MongoDB ({@link ExportStore#claim}) and renews its claim after every page, so
 * a job whose node died is taken over by another after {@code export-lease-seconds} and restarted from scratch (a
 * half-built archive is never resumed: its pages' cursors may no longer mean the same).
 *
 * <p>A job asks each configured domain for its part page by page ({@link Exports#fetch}, each page within
 * {@code export-page-timeout-ms}, retried {@code export-page-retries} times with doubling backoff) and writes it
 * through {@link ExportArchive} on a worker thread. A domain that does not answer, or answers a failure, fails the
 * whole export with a reason naming the domain: an archive is never offered as complete with a part missing. A
 * ready export is announced ({@link AccountExportReady}; notifications tells the user) and mailed to the verified
 * email. The same sweep deletes the archives of expired exports.
 */
final class ExportJobs {

  private static final Logger LOG = LoggerFactory.getLogger(ExportJobs.class);
  /** Exports one sweep builds or expires at most (the next sweep goes on). */
  static final int PER_SWEEP = 20;
  private static final long FIRST_BACKOFF_MS = 500;
  /** Attempts after which a job that keeps being interrupted (its node dying each time) fails instead. */
  static final int MAX_ATTEMPTS = 3;

  /** The job's identity while this node holds it. */
  private record Job(long id, long user, long createdAt, int attempt, String claim) {
  }

  private final Platform platform;
  private final Vertx vertx;
  private final ExportSettings settings;
  private final ExportStore store;
  private final ExportMail mail;
  private final String node = UUID.randomUUID().toString();
  private final AtomicBoolean running = new AtomicBoolean();

  ExportJobs(Platform platform, ExportSettings settings, ExportStore store, ExportMail mail) {
    this.platform = platform;
    this.vertx = platform.vertx();
    this.settings = settings;
    this.store = store;
    this.mail = mail;
  }

  /**
   * Builds the exports this node can claim and deletes expired archives; a sweep that finds the previous one still
   * running does nothing (one job at a time per node, so exports never crowd out requests).
   */
  Future<Integer> sweep() {
    if (!running.compareAndSet(false, true)) {
      return Future.succeededFuture(0);
    }
    return expire().compose(v -> build(0)).onComplete(ar -> running.set(false));
  }

  private Future<Integer> build(int done) {
    if (done >= PER_SWEEP) {
      return Future.succeededFuture(done);
    }
    long now = System.currentTimeMillis();
    String claim = node + ":" + now;
    return store.claim(claim, now, settings.leaseSeconds() * 1000L).compose(doc -> doc == null
        ? Future.succeededFuture(done)
        : start(new Job(doc.getLong("_id"), doc.getLong("user"), doc.getLong("created_at"),
            doc.getInteger("attempts", 1), claim))
            .compose(v -> build(done + 1)));
  }

  /** Runs a claimed job, unless it was interrupted too often: an export that kills its node must not loop. */
  private Future<Void> start(Job job) {
    if (job.attempt() > MAX_ATTEMPTS) {
      return fail(job, new IllegalStateException("the export was interrupted " + MAX_ATTEMPTS + " times"));
    }
    return run(job);
  }

  /** Builds one export to its end: ready, or failed with a reason. Never fails itself. */
  private Future<Void> run(Job job) {
    Future<ExportArchive> opened = vertx.executeBlocking(() -> {
      Files.createDirectories(settings.dir());
      return new ExportArchive(settings.dir(), job.id(), job.attempt(), settings.maxBytes());
    });
    return opened.compose(archive -> domains(job, archive, 0)
            .compose(v -> vertx.executeBlocking(() -> archive.finish(new JsonObject().put("user_id", job.user())
                .put("export_id", job.id()).put("created_at", job.createdAt()))))
            .compose(size -> ready(job, size))
            .recover(e -> vertx.executeBlocking(() -> {
              archive.abort();
              return null;
            }).transform(x -> Future.failedFuture(e))))
        .recover(e -> fail(job, e));
  }

  private Future<Void> domains(Job job, ExportArchive archive, int index) {
    if (index >= settings.domains().size()) {
      return Future.succeededFuture();
    }
    String domain = settings.domains().get(index);
    return pages(job, archive, domain, null)
        .compose(v -> vertx.executeBlocking(() -> {
          archive.closeDomain(domain);
          return null;
        }))
        .compose(v -> domains(job, archive, index + 1));
  }

  /** Writes the domain's pages from {@code cursor} on, renewing the claim after each. */
  private Future<Void> pages(Job job, ExportArchive archive, String domain, String cursor) {
    return page(domain, job.user(), cursor, 0)
        .compose(page -> vertx.executeBlocking(() -> {
          archive.append(page.records());
          return page;
        }))
        .compose(page -> blobs(job, archive, domain, page.records(), 0).map(v -> page.cursor()))
        .compose(next -> store.renew(job.id(), job.claim(), System.currentTimeMillis()).compose(mine -> {
          if (!mine) {
            return Future.failedFuture(new LostClaim());
          }
          if (next == null) {
            return Future.succeededFuture();
          }
          if (next.equals(cursor)) {
            return Future.failedFuture(new IllegalStateException(domain + " answered the same cursor twice"));
          }
          return pages(job, archive, domain, next);
        }));
  }

  /** Writes the bytes of every record of the page that names a blob, one after the other. */
  private Future<Void> blobs(Job job, ExportArchive archive, String domain, List<Exports.Record> records, int index) {
    if (index >= records.size()) {
      return Future.succeededFuture();
    }
    JsonObject blob = records.get(index).item().getJsonObject(Exports.BLOB);
    if (blob == null) {
      return blobs(job, archive, domain, records, index + 1);
    }
    return vertx.executeBlocking(() -> {
      archive.startBlob(domain, blob.getString("name"));
      return null;
    }).compose(v -> chunks(job, archive, domain, blob.getString("id"), 0))
        .compose(v -> vertx.executeBlocking(() -> {
          archive.endBlob();
          return null;
        }))
        .compose(v -> blobs(job, archive, domain, records, index + 1));
  }

  private Future<Void> chunks(Job job, ExportArchive archive, String domain, String id, int n) {
    return retried(() -> Exports.fetchBlob(vertx, domain, job.user(), id, n, settings.pageTimeoutMs()), domain, 0)
        .compose(chunk -> vertx.executeBlocking(() -> {
          archive.blobChunk(chunk.data());
          return chunk.chunks();
        }))
        .compose(chunks -> n + 1 < chunks ? chunks(job, archive, domain, id, n + 1) : Future.succeededFuture());
  }

  /** One page, retried with doubling backoff; a failure names the domain. */
  private Future<Exports.Page> page(String domain, long user, String cursor, int attempt) {
    return retried(() -> Exports.fetch(vertx, domain, user, cursor, settings.pageTimeoutMs()), domain, attempt);
  }

  private <T> Future<T> retried(Supplier<Future<T>> call, String domain, int attempt) {
    return call.get().recover(e -> {
      if (attempt >= settings.pageRetries()) {
        return Future.failedFuture(new IllegalStateException(reason(domain, e)));
      }
      Promise<Void> later = Promise.promise();
      vertx.setTimer(FIRST_BACKOFF_MS << attempt, t -> later.complete());
      return later.future().compose(v -> retried(call, domain, attempt + 1));
    });
  }

  static String reason(String domain, Throwable e) {
    if (e instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS) {
      return "the " + domain + " domain did not serve its part (no handler)";
    }
    if (e instanceof ReplyException re && re.failureType() == ReplyFailure.TIMEOUT) {
      return "the " + domain + " domain did not answer in time";
    }
    return "the " + domain + " domain failed: " + e.getMessage();
  }

  /** Another node took the job over (this one was too slow): leave the job to it. */
  private static final class LostClaim extends RuntimeException {
    LostClaim() {
      super("the export's claim was taken over by another node", null, false, false);
    }
  }

  private Future<Void> ready(Job job, long size) {
    long now = System.currentTimeMillis();
    long expires = now + settings.ttlMillis();
    return store.ready(job.id(), job.claim(), now, expires, size, ExportArchive.fileName(job.id()))
        .compose(mine -> {
          if (!mine) {
            return Future.<Void>failedFuture(new LostClaim());
          }
          mail.tell(job.user(), expires);
          return platform.events().publisher(AccountsEvents.DOMAIN)
              .append(new AccountExportReady(job.user(), job.id(), expires)).<Void>mapEmpty();
        });
  }

  private Future<Void> fail(Job job, Throwable e) {
    if (e instanceof LostClaim) {
      LOG.info("Export {} was taken over by another node", job.id());
      return Future.succeededFuture();
    }
    String reason = e instanceof ExportArchive.TooLarge || e instanceof IllegalStateException
        ? e.getMessage() : "the archive could not be written";
    LOG.warn("Export {} of user {} failed: {}", job.id(), job.user(), e.toString());
    return store.failed(job.id(), job.claim(), reason).<Void>mapEmpty()
        .recover(x -> {
          LOG.warn("Marking export {} failed did not work; it is retaken after the lease: {}", job.id(), x.toString());
          return Future.succeededFuture();
        });
  }

  /** Deletes the archives of ready exports past their expiry and marks them expired. */
  private Future<Void> expire() {
    return store.due(System.currentTimeMillis(), PER_SWEEP).compose(due -> {
      Future<Void> chain = Future.succeededFuture();
      for (JsonObject doc : due) {
        long id = doc.getLong("_id");
        chain = chain.compose(v -> vertx.executeBlocking(() -> Files.deleteIfExists(
                settings.dir().resolve(ExportArchive.fileName(id)))))
            .compose(v -> store.expired(id));
      }
      return chain;
    }).recover(e -> {
      LOG.warn("Deleting expired exports failed; the next sweep retries: {}", e.toString());
      return Future.succeededFuture();
    });
  }

  /** Deletes every export of an erased user, archives included; completes with how many there were. */
  Future<Long> erase(long user) {
    return store.all(user).compose(all -> vertx.executeBlocking(() -> {
      for (JsonObject doc : all) {
        ExportArchive.deleteAll(settings.dir(), doc.getLong("_id"));
      }
      return null;
    })).compose(v -> store.removeAll(user));
  }
}
