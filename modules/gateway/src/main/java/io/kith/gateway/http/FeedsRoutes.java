package io.kith.gateway.http;

import io.kith.feeds.api.FeedsService;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.validation.RequestParameter;

/**
 * HTTP operations of the feeds domain: posts, reposts, timelines, comments and likes. Operations that change
 * something act for the token's user; reading a post, a user's posts, the latest public posts, comments, likers and
 * reposts also works without a token, as viewer 0 (the service then shows public posts only). Who may see or change
 * what is decided by the feeds service.
 */
public final class FeedsRoutes implements ApiRoutes {

  /** Page size when a list request names none (the contract's default). */
  static final int DEFAULT_LIMIT = 20;
  /** The largest time a {@code latest_time} cursor can stand for: the end of the id space. */
  static final long LAST_ID_TIME = IdGenerator.EPOCH + (1L << 40) - 1;

  private final FeedsService feeds;

  /** Creates the routes over the feeds service proxy. */
  public FeedsRoutes(FeedsService feeds) {
    this.feeds = feeds;
  }

  @Override
  public void mount(RouterBuilder builder) {
    // posts
    builder.getRoute("publishPost").addHandler(rc -> Http.replyCreated(rc, feeds.publish(me(rc), Http.body(rc))));
    builder.getRoute("getPost").addHandler(rc ->
        Http.reply(rc, feeds.post(Http.viewerId(rc), id(rc, "postId")), json -> json));
    builder.getRoute("editPost").addHandler(rc ->
        Http.reply(rc, feeds.edit(me(rc), id(rc, "postId"), Http.body(rc)), json -> json));
    builder.getRoute("deletePost").addHandler(rc -> Http.replyEmpty(rc, feeds.delete(me(rc), id(rc, "postId"))));
    builder.getRoute("repostPost").addHandler(rc ->
        Http.replyCreated(rc, feeds.repost(me(rc), id(rc, "postId"), Http.body(rc))));
    builder.getRoute("listReposts").addHandler(rc ->
        Http.reply(rc, feeds.reposts(Http.viewerId(rc), id(rc, "postId"), older(rc)), Page::toJson));

    // timelines
    builder.getRoute("getHomeTimeline").addHandler(rc ->
        Http.reply(rc, feeds.home(me(rc), page(rc)), Page::toJson));
    builder.getRoute("getMomentsTimeline").addHandler(rc ->
        Http.reply(rc, feeds.moments(me(rc), page(rc)), Page::toJson));
    builder.getRoute("listUserPosts").addHandler(rc ->
        Http.reply(rc, feeds.userPosts(Http.viewerId(rc), id(rc, "userId"), page(rc)), Page::toJson));
    builder.getRoute("getLatestTimeline").addHandler(rc -> {
      long maxId = query(rc, "max_id");
      RequestParameter latestTime = Http.validated(rc).getQuery().get("latest_time");
      if (latestTime != null && !latestTime.isNull()) {
        if (maxId != 0) {
          rc.fail(Failures.field(KithErrors.VALIDATION_FAILED, "latest_time",
              "give either max_id or latest_time, not both"));
          return;
        }
        maxId = maxIdBefore(latestTime.getLong());
      }
      Http.reply(rc, feeds.latest(Http.viewerId(rc),
          PageRequest.ids(maxId, query(rc, "since_id"), limit(rc))), Page::toJson);
    });
    builder.getRoute("listLikedPosts").addHandler(rc ->
        Http.reply(rc, feeds.likedPosts(me(rc), older(rc)), Page::toJson));

    // comments
    builder.getRoute("addComment").addHandler(rc ->
        Http.replyCreated(rc, feeds.comment(me(rc), id(rc, "postId"), Http.body(rc))));
    builder.getRoute("listComments").addHandler(rc ->
        Http.reply(rc, feeds.comments(Http.viewerId(rc), id(rc, "postId"), page(rc)), Page::toJson));
    builder.getRoute("deleteComment").addHandler(rc ->
        Http.replyEmpty(rc, feeds.deleteComment(me(rc), id(rc, "commentId"))));

    // likes
    builder.getRoute("likePost").addHandler(rc -> Http.reply(rc, feeds.like(me(rc), id(rc, "postId")), j -> j));
    builder.getRoute("unlikePost").addHandler(rc -> Http.reply(rc, feeds.unlike(me(rc), id(rc, "postId")), j -> j));
    builder.getRoute("listLikers").addHandler(rc ->
        Http.reply(rc, feeds.likers(Http.viewerId(rc), id(rc, "postId"), older(rc)), Page::toJson));
  }

  /**
   * The {@code max_id} that pages to posts strictly older than {@code epochMillis}: the smallest id of that
   * millisecond. A time at or before the id epoch has nothing older (max_id 1: no id is below it); a time past the
   * end of the id space has everything older (0: no upper bound).
   */
  static long maxIdBefore(long epochMillis) {
    if (epochMillis <= IdGenerator.EPOCH) {
      return 1;
    }
    return epochMillis > LAST_ID_TIME ? 0 : IdGenerator.minIdAt(epochMillis);
  }

  private static long me(RoutingContext rc) {
    return Http.caller(rc).userId();
  }

  private static long id(RoutingContext rc, String name) {
    return Http.validated(rc).getPathParameters().get(name).getLong();
  }

  /** An optional integer query parameter; 0 when absent (the service's "none"). */
  private static long query(RoutingContext rc, String name) {
    RequestParameter p = Http.validated(rc).getQuery().get(name);
    return p == null || p.isNull() ? 0 : p.getLong();
  }

  private static int limit(RoutingContext rc) {
    RequestParameter p = Http.validated(rc).getQuery().get("limit");
    return p == null || p.isNull() ? DEFAULT_LIMIT : p.getInteger();
  }

  /** The page the query asks for: {@code limit} posts older than {@code max_id} and newer than {@code since_id}. */
  private static PageRequest page(RoutingContext rc) {
    return PageRequest.ids(query(rc, "max_id"), query(rc, "since_id"), limit(rc));
  }

  /** The page the query asks for on a list paged by {@code max_id} alone. */
  private static PageRequest older(RoutingContext rc) {
    return PageRequest.ids(query(rc, "max_id"), 0, limit(rc));
  }
}
