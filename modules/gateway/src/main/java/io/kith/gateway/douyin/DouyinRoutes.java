package io.kith.gateway.douyin;

import io.kith.accounts.api.AccountsService;
import io.kith.feeds.api.FeedsService;
import io.kith.feeds.api.MediaClient;
import io.kith.gateway.http.ClientAddress;
import io.kith.messaging.api.MessagingService;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.token.AccessClaims;
import io.kith.platform.token.Sessions;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The douyin-compatible API: the routes of the "douyin simple-demo" app and its re-implementations under
 * {@code /douyin/}, mounted beside (not inside) the OpenAPI-validated {@code /api/v1} router, since those clients send
 * query or form parameters and expect HTTP 200 with {@code status_code} / {@code status_msg} whatever happens. Each
 * route calls the same service proxies as the native API, with the acting user taken from the verified {@code token}
 * parameter only, so visibility, blocks, limits and events are the services' own. See the gateway README, "Douyin
 * adapter".
 */
public final class DouyinRoutes {

  /** Path prefix of the douyin routes. */
  public static final String PREFIX = "/douyin";

  private final Vertx vertx;
  private final DouyinSettings settings;
  private final Sessions sessions;
  private final AccountsService accounts;
  private final ClientAddress clientAddress;
  private final DouyinVideos videos;
  private final DouyinSocial social;

  private DouyinRoutes(Vertx vertx, Platform platform, DouyinSettings settings) {
    this.vertx = vertx;
    this.settings = settings;
    this.sessions = platform.sessions();
    this.accounts = AccountsService.proxy(vertx);
    Set<String> trusted = new HashSet<>();
    platform.config().section("http").getJsonArray("trusted-proxies", new JsonArray())
        .forEach(p -> trusted.add(String.valueOf(p)));
    this.clientAddress = new ClientAddress(trusted);
    RelationsService relations = RelationsService.proxy(vertx);
    FeedsService feeds = FeedsService.proxy(vertx);
    DouyinViews views = new DouyinViews(accounts, relations, feeds);
    this.videos = new DouyinVideos(vertx, sessions, feeds, MediaClient.create(vertx), views, settings);
    this.social = new DouyinSocial(relations, MessagingService.proxy(vertx), views, settings);
  }

  /**
   * Mounts the douyin routes on {@code router} when {@code douyin.enabled} is on; the router's root handlers (request
   * ids, access log, deadline, security headers) apply to them as to every path.
   */
  public static void mount(Vertx vertx, Platform platform, Router router) {
    DouyinSettings settings = DouyinSettings.from(platform.config().section(DouyinSettings.SECTION));
    if (settings.enabled()) {
      // a failure in a sub-router is handled by the root router's failure handlers, in route order: this one comes
      // before the problem+json handler, so a douyin client gets its envelope also for a body over the limit
      router.route(PREFIX + "/*").order(-1).failureHandler(rc -> DouyinReply.refuse(rc, rc.failure() != null
          ? rc.failure() : new io.vertx.ext.web.handler.HttpException(rc.statusCode())));
      router.route(PREFIX + "/*").subRouter(new DouyinRoutes(vertx, platform, settings).router(platform));
    }
  }

  private Router router(Platform platform) {
    Router r = Router.router(vertx);
    // uploads land in a directory of their own under the temporary directory and go when the request ends
    String uploads = Path.of(System.getProperty("java.io.tmpdir"), "kith-douyin-uploads").toString();
    r.post("/publish/action").handler(BodyHandler.create(uploads).setBodyLimit(settings.uploadMaxBytes())
        .setDeleteUploadedFilesOnEnd(true));
    r.route().handler(BodyHandler.create(false)
        .setBodyLimit(platform.config().section("http").getLong("body-limit", 1_048_576L)));
    r.get("/static/cover.png").handler(rc -> rc.response().putHeader("Cache-Control", "public, max-age=86400")
        .sendFile(DouyinViews.DEFAULT_COVER_FILE));
    r.post("/user/register").handler(rc -> open(rc, () -> accounts.register(credentials(rc, "username"),
        clientAddress.of(rc)).map(j -> session(j.getJsonObject("user").getLong("id"),
        j.getJsonObject("tokens").getString("access_token")))));
    r.post("/user/login").handler(rc -> open(rc, () -> accounts.login(credentials(rc, "login"),
        clientAddress.of(rc)).map(j -> session(j.getLong("user_id"), j.getString("access_token")))));
    r.get("/user").handler(rc -> authed(rc, me -> {
      long id = DouyinReply.id(rc, "user_id");
      return accounts.profile(me.userId(), id).compose(p -> videos.views().user(me.userId(), p, base(rc)))
          .map(u -> new JsonObject().put("user", u));
    }));
    videos.mount(r, this::authed, this::open);
    social.mount(r, this::authed);
    r.route().handler(rc -> DouyinReply.refuse(rc, new io.vertx.ext.web.handler.HttpException(404)));
    return r;
  }

  /** {@code {username|login, password}} from the douyin parameters. */
  private static JsonObject credentials(RoutingContext rc, String as) {
    return new JsonObject().put(as, DouyinReply.required(rc, "username"))
        .put("password", DouyinReply.required(rc, "password"));
  }

  private static JsonObject session(long userId, String token) {
    return new JsonObject().put("user_id", userId).put("token", token);
  }

  /** The scheme and host URLs in answers start with. */
  String base(RoutingContext rc) {
    return base(rc, settings);
  }

  static String base(RoutingContext rc, DouyinSettings settings) {
    if (!settings.publicUrl().isEmpty()) {
      return settings.publicUrl();
    }
    return rc.request().scheme() + "://" + rc.request().authority();
  }

  /** Answers what {@code work} completes with; a failure it throws or completes with becomes the refusal. */
  void open(RoutingContext rc, Supplier<Future<JsonObject>> work) {
    DouyinReply.reply(rc, Failures.guard(work));
  }

  /** As {@link #open}, once the {@code token} parameter verified; {@code work} gets the caller. */
  void authed(RoutingContext rc, Function<AccessClaims, Future<JsonObject>> work) {
    DouyinReply.reply(rc, DouyinReply.caller(rc, sessions).compose(me -> Failures.guard(() -> work.apply(me))));
  }

  /** A route body acting for a verified caller. */
  interface Authed {
    /** Runs {@code work} for the verified caller of {@code rc}. */
    void run(RoutingContext rc, Function<AccessClaims, Future<JsonObject>> work);
  }

  /** A route body without a required caller. */
  interface Open {
    /** Runs {@code work} for {@code rc}. */
    void run(RoutingContext rc, Supplier<Future<JsonObject>> work);
  }
}
