package io.kith.gateway;

import io.kith.activities.api.ActivitiesInternal;
import io.kith.activities.api.ActivitiesService;
import io.kith.gateway.bridge.AccountsPresence;
import io.kith.gateway.bridge.DomainRooms;
import io.kith.gateway.bridge.RoomAccess;
import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.gateway.http.AccountsRoutes;
import io.kith.gateway.http.ActivitiesRoutes;
import io.kith.gateway.http.ApiRoutes;
import io.kith.gateway.http.ClientAddress;
import io.kith.gateway.http.MediaRoutes;
import io.kith.gateway.http.MessagingRoutes;
import io.kith.gateway.http.ModerationRoutes;
import io.kith.gateway.http.OperatorRoutes;
import io.kith.gateway.http.NotificationsRoutes;
import io.kith.gateway.http.PushTargetsRoutes;
import io.kith.gateway.http.ApiKeysRoutes;
import io.kith.gateway.http.ServerRoutes;
import io.kith.gateway.http.WebhooksRoutes;
import io.kith.gateway.http.WhiteboardRoutes;
import io.kith.messaging.api.MessagingInternal;
import io.kith.messaging.api.MessagingService;
import io.kith.messaging.api.WhiteboardInternal;
import io.kith.messaging.api.WhiteboardService;
import io.kith.moderation.api.ContentFiltersService;
import io.kith.moderation.api.ModerationService;
import io.kith.notifications.api.NotificationsService;
import io.kith.push.api.PushTargetsService;
import io.kith.push.api.ApiKeysService;
import io.kith.push.api.SystemNotificationsService;
import io.kith.push.api.WebhooksService;
import io.kith.gateway.http.FeedsRoutes;
import io.kith.gateway.http.FilterRoutes;
import io.kith.gateway.http.HealthRoutes;
import io.kith.feeds.api.FeedsInternal;
import io.kith.feeds.api.FeedsService;
import io.kith.gateway.http.RelationsRoutes;
import io.kith.feeds.api.MediaClient;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.RelationsService;
import io.kith.gateway.http.AuthRoutes;
import io.kith.gateway.http.SystemRoutes;
import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;

import io.vertx.core.json.JsonArray;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/** The gateway module: HTTP API and event-bus bridges. Starts after every domain service of its node. */
public final class GatewayModule implements KithModule {

  @Override
  public String name() {
    return "gateway";
  }

  @Override
  public int order() {
    return 1000;
  }

  @Override
  public Future<String> deploy(Platform platform) {
    int configured = platform.config().section("http").getInteger("instances", 0);
    int instances = configured > 0 ? configured : Math.max(1, Runtime.getRuntime().availableProcessors());
    Set<String> trusted = new HashSet<>();
    platform.config().section("http").getJsonArray("trusted-proxies", new JsonArray())
        .forEach(p -> trusted.add(String.valueOf(p)));
    List<ApiRoutes> routes = List.of(
        new SystemRoutes(),
        new AuthRoutes(platform.sessions(), AccountsService.proxy(platform.vertx())),
        new AccountsRoutes(AccountsService.proxy(platform.vertx()), new ClientAddress(trusted)),
        new RelationsRoutes(RelationsService.proxy(platform.vertx())),
        new FeedsRoutes(FeedsService.proxy(platform.vertx())),
        new MediaRoutes(MediaClient.create(platform.vertx())),
        new NotificationsRoutes(NotificationsService.proxy(platform.vertx())),
        new MessagingRoutes(MessagingService.proxy(platform.vertx())),
        new WhiteboardRoutes(WhiteboardService.proxy(platform.vertx())),
        new ActivitiesRoutes(ActivitiesService.proxy(platform.vertx())),
        new ModerationRoutes(ModerationService.proxy(platform.vertx())),
        new OperatorRoutes(ModerationService.proxy(platform.vertx()), platform),
        new PushTargetsRoutes(PushTargetsService.proxy(platform.vertx())),
        new WebhooksRoutes(WebhooksService.proxy(platform.vertx())),
        new ApiKeysRoutes(ApiKeysService.proxy(platform.vertx())),
        new ServerRoutes(AccountsService.proxy(platform.vertx()),
            SystemNotificationsService.proxy(platform.vertx())),
        new FilterRoutes(ContentFiltersService.proxy(platform.vertx())));
    // the internal addresses too: the bridges and the services behind the routes call them
    HealthRoutes.addServiceChecks(platform, List.of(AccountsService.ADDRESS, AccountsInternal.ADDRESS,
        RelationsService.ADDRESS, RelationsInternal.ADDRESS, FeedsService.ADDRESS, FeedsInternal.ADDRESS,
        NotificationsService.ADDRESS, MessagingService.ADDRESS, MessagingInternal.ADDRESS, WhiteboardService.ADDRESS,
        WhiteboardInternal.ADDRESS, ActivitiesService.ADDRESS, ActivitiesInternal.ADDRESS, ModerationService.ADDRESS));
    AccountsPresence presence = new AccountsPresence(AccountsInternal.proxy(platform.vertx()));
    RoomAccess rooms = new DomainRooms(MessagingInternal.proxy(platform.vertx()),
        WhiteboardInternal.proxy(platform.vertx()));
    return GatewayVerticle.loadContract(platform.vertx()).compose(contract -> platform.vertx().deployVerticle(
        () -> new GatewayVerticle(platform, routes, rooms, presence, contract),
        new DeploymentOptions().setInstances(instances)));
  }
}
