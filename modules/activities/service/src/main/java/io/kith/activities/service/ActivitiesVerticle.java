package io.kith.activities.service;

import io.kith.accounts.api.AccountsEvents;
import io.kith.accounts.api.AccountsService;
import io.kith.accounts.api.events.AccountDeleted;
import io.kith.activities.api.ActivitiesInternal;
import io.kith.activities.api.ActivitiesService;
import io.kith.feeds.api.MediaClient;
import io.kith.messaging.api.MessagingInternal;
import io.kith.platform.media.MediaAttachments;
import io.kith.platform.Platform;
import io.kith.platform.bus.ServiceBindings;
import io.kith.platform.events.ErasureSteps;
import io.kith.platform.events.EventConsumer;
import io.kith.platform.events.Exports;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * Wires the activities stores, the service and its feature files, discussion and block consumers and sweep; loads
 * the current activities into Redis (warm start); binds the service on {@link ActivitiesService#ADDRESS} and its
 * internal operations on {@link ActivitiesInternal#ADDRESS}.
 */
public final class ActivitiesVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(ActivitiesVerticle.class);

  private final Platform platform;
  private ServiceBindings bindings;
  private MessageConsumer<JsonObject> mediaAccess;
  private Discussion discussion;
  private Reminders reminders;
  private Blocks blocks;
  private EventConsumer erasure;
  private MessageConsumer<JsonObject> export;

  /** Creates the verticle on a node's platform. */
  public ActivitiesVerticle(Platform platform) {
    this.platform = platform;
  }

  /**
   * Builds the module's pieces, then starts them in order and binds the services. Why one long method: it only
   * wires, and the whole wiring (what each piece is built from, what starts before what) reads best in one place.
   */
  @Override
  public Future<?> start() {
    ActivitiesSettings settings = ActivitiesSettings.from(platform.config().section("activities"));
    ActivityStore activities = new ActivityStore(platform.mongo());
    ParticipantStore participants = new ParticipantStore(platform.mongo());
    HotActivities hot = new HotActivities(platform.redis(), settings.warmMillis());
    WarmStart loader = new WarmStart(activities, participants, hot, settings.warmMillis());
    Effects effects = new Effects(platform, hot, loader);
    Seats seats = new Seats(activities, participants, effects, platform.ids(), settings);
    RelationsInternal relations = RelationsInternal.proxy(vertx);
    AccountsService accounts = AccountsService.proxy(vertx);
    Quotas quotas = new Quotas(platform);
    Covers covers = new Covers(vertx, MediaClient.create(vertx));
    ActivityViews views = new ActivityViews(activities, participants, hot, loader, relations, accounts);
    Edits edits = new Edits(settings, activities, participants, hot, seats, effects, covers, views, relations);
    ActivitiesServiceImpl service = new ActivitiesServiceImpl(
        new Creation(platform.ids(), settings, activities, hot, effects, quotas, covers, views),
        edits,
        new Invitations(settings, participants, effects, quotas, views, relations, accounts),
        new Joining(seats, effects, views),
        new Participants(hot, seats, effects, views, relations, accounts),
        views,
        new OwnLists(settings, activities, participants, hot, loader, views),
        new Nearby(settings, hot, views),
        new FriendsActivities(settings, hot, views, relations, accounts));
    discussion = new Discussion(platform, settings, activities, participants, effects, MessagingInternal.proxy(vertx));
    blocks = new Blocks(platform, activities, participants, seats, effects, relations);
    Erasure erasing = new Erasure(platform, activities, participants, seats, edits, effects, hot);
    reminders = new Reminders(platform, settings, activities, participants, hot, loader, effects, relations);
    return activities.ensureIndexes()
        .compose(v -> participants.ensureIndexes())
        .compose(v -> activities.renameOldCoordinates())
        .onSuccess(n -> {
          if (n > 0) {
            LOG.info("Renamed the coordinates of {} activities stored with their old names to place.lat and "
                + "place.lon", n);
          }
        })
        .compose(v -> loader.loadAll().<Void>mapEmpty().recover(e -> {
          // reads load what they miss one by one, and the sweep retries the whole load
          LOG.warn("Warm start of activities failed: {}", e.toString());
          return Future.succeededFuture();
        }))
        .compose(v -> discussion.start())
        .compose(v -> MediaAttachments.serveAccess(vertx, MediaAttachments.ACTIVITY,
            (viewer, activity) -> views.visibleOne(viewer, activity).map(h -> true)))
        .map(consumer -> mediaAccess = consumer)
        .compose(v -> blocks.start())
        .compose(v -> ErasureSteps.consume(platform.events(), AccountsEvents.DOMAIN, Erasure.GROUP,
            AccountsEvents.ACCOUNT_DELETED, e -> AccountDeleted.fromJson(e.payload()).userId(), erasing::erase))
        .map(c -> erasure = c)
        .map(v -> export = Exports.serve(vertx, Erasure.DOMAIN,
            new AccountExport(activities, participants, views, Exports.MAX_RECORDS)))
        .compose(v -> {
          reminders.start();
          bindings = new ServiceBindings(vertx);
          return Future.all(bindings.bind(ActivitiesService.class, service, ActivitiesService.ADDRESS),
              bindings.bind(ActivitiesInternal.class, new ActivitiesInternalImpl(views,
                  new ModeratorRemovals(activities, effects, edits)), ActivitiesInternal.ADDRESS));
        });
  }

  @Override
  public Future<?> stop() {
    if (reminders != null) {
      reminders.stop();
    }
    Future<Void> consumer = discussion == null ? Future.succeededFuture() : discussion.stop();
    Future<Void> blocked = blocks == null ? Future.succeededFuture() : blocks.stop();
    Future<Void> media = mediaAccess == null ? Future.succeededFuture() : mediaAccess.unregister();
    Future<Void> erasing = erasure == null ? Future.succeededFuture() : erasure.stop();
    Future<Void> exporting = export == null ? Future.succeededFuture() : export.unregister();
    return Future.all(List.of(consumer, blocked, media, erasing, exporting))
        .compose(v -> bindings == null ? Future.succeededFuture() : bindings.unregister());
  }
}
