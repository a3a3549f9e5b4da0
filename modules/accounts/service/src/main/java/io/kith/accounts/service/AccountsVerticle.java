package io.kith.accounts.service;

import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.AccountsService;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.RelationsService;
import io.kith.relations.api.UserDirectory;
import io.kith.platform.Platform;
import io.kith.platform.bus.ServiceBindings;
import io.kith.platform.events.Exports;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.media.MediaAttachments;
import io.kith.platform.outbound.Outbound;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wires the accounts stores and service, binds the service on {@link AccountsService#ADDRESS}, its internal operations
 * on {@link AccountsInternal#ADDRESS} and the relations {@link UserDirectory} port on its address.
 */
public final class AccountsVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(AccountsVerticle.class);

  private final Platform platform;
  private ServiceBindings bindings;
  private MessageConsumer<JsonObject> photoAccess;
  private Passwords passwords;
  private long sweeper = -1;
  private long deletionSweeper = -1;
  private long exportSweeper = -1;
  private MessageConsumer<JsonObject> exportPart;
  private Outbound outbound;

  /** Creates the verticle on a node's platform. */
  public AccountsVerticle(Platform platform) {
    this.platform = platform;
  }

  @Override
  public Future<?> start() {
    AccountsSettings settings = AccountsSettings.from(platform.config().section("accounts"));
    Deletion.Settings deletionSettings = Deletion.Settings.from(platform.config().section("accounts"));
    AccountStore store = new AccountStore(platform.mongo());
    ProfileCache cache = new ProfileCache(platform.redis(), store, settings.profileCacheTtlSeconds());
    PresenceStore presence = new PresenceStore(platform.redis(), settings.presenceExpirySeconds() * 1000L);
    NearbyStore nearby = new NearbyStore(platform.redis(), settings.nearbyTtlSeconds() * 1000L);
    passwords = new Passwords(vertx, settings.argon2Threads(), settings.argon2MaxQueued(), settings.argon2MemoryKib(),
        settings.argon2Iterations());
    if ((long) settings.argon2MemoryKib() * settings.argon2Iterations() < Passwords.WEAKEST_RECOMMENDED) {
      LOG.warn("accounts.argon2-memory-kib {} and argon2-iterations {} are below OWASP's recommended Argon2id cost: "
          + "new password hashes are cheap to crack; use this for tests only", settings.argon2MemoryKib(),
          settings.argon2Iterations());
    }
    outbound = Outbound.create(vertx, platform.config());
    LOG.info("Accounts messages: {}", outbound.description());
    CodeStore codes = new CodeStore(platform.mongo());
    KnownDevices devices = new KnownDevices(platform.mongo(), platform.redis());
    Messenger messenger = new Messenger(vertx, outbound, new Messages());
    ExportSettings exportSettings = ExportSettings.from(platform.config().section("accounts"),
        platform.config().section("kith"));
    ExportStore exportStore = new ExportStore(platform.mongo());
    ExportJobs exportJobs = new ExportJobs(platform, exportSettings, exportStore, new ExportMail(store, messenger));
    AccountExports exports = new AccountExports(platform, exportSettings, exportStore,
        new RateLimiter(platform.redis()), () -> sweepExports(exportJobs));
    AccountsServiceImpl service = new AccountsServiceImpl(platform, settings, store, cache, passwords, presence, nearby,
        new GraphRelationships(RelationsService.proxy(vertx), RelationsInternal.proxy(vertx)), devices, codes,
        messenger, deletionSettings, exports);
    AccountsInternal internal = service.internal();
    return Future.all(store.ensureIndexes(), codes.ensureIndexes(), devices.ensureIndexes(),
        exportStore.ensureIndexes()).compose(v -> {
      bindings = new ServiceBindings(vertx);
      Future<?> bound = Future.all(bindings.bind(AccountsService.class, service, AccountsService.ADDRESS),
          bindings.bind(AccountsInternal.class, internal, AccountsInternal.ADDRESS),
          // the port relations declares so that it needs no accounts api (no cycle between the two domains)
          bindings.bind(UserDirectory.class, new RelationsDirectory(service, internal), UserDirectory.ADDRESS));
      sweeper = vertx.setPeriodic(60_000, id -> nearby.sweep()
          .onFailure(e -> LOG.warn("Sweeping expired nearby positions failed: {}", e.toString())));
      DeletionSweeper deletions = new DeletionSweeper(platform, deletionSettings, cache, nearby, exportJobs);
      deletionSweeper = vertx.setPeriodic(deletionSettings.sweepSeconds() * 1000L, id -> deletions.sweep()
          .onFailure(e -> LOG.warn("Sweeping due account deletions failed: {}", e.toString())));
      exportSweeper = vertx.setPeriodic(exportSettings.sweepSeconds() * 1000L, id -> sweepExports(exportJobs));
      exportPart = Exports.serve(vertx, AccountsEvents.DOMAIN, service.ownExport());
      return bound
          .compose(all -> MediaAttachments.serveAccess(vertx, MediaAttachments.PROFILE, service::mayReadPhoto))
          .map(consumer -> photoAccess = consumer)
          .compose(x -> exportPart.completion());
    });
  }

  private void sweepExports(ExportJobs jobs) {
    jobs.sweep().onFailure(e -> LOG.warn("Sweeping exports failed: {}", e.toString()));
  }

  @Override
  public Future<?> stop() {
    if (sweeper >= 0) {
      vertx.cancelTimer(sweeper);
    }
    if (deletionSweeper >= 0) {
      vertx.cancelTimer(deletionSweeper);
    }
    if (exportSweeper >= 0) {
      vertx.cancelTimer(exportSweeper);
    }
    if (passwords != null) {
      passwords.close();
    }
    return Future.all(outbound == null ? Future.succeededFuture() : outbound.close(),
        bindings == null ? Future.succeededFuture() : bindings.unregister(),
        photoAccess == null ? Future.succeededFuture() : photoAccess.unregister(),
        exportPart == null ? Future.succeededFuture() : exportPart.unregister());
  }
}
