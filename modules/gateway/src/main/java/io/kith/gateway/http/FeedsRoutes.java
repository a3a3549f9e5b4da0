package io.kith.gateway.http;

import io.kith.feeds.api.FeedsService;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.id.IdGenerator;
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
        Paging.reply(rc, feeds.reposts(Http.viewerId(rc), id(rc, "postId"), Paging.byId(rc))));

    // timelines
    builder.getRoute("getHomeTimeline").addHandler(rc ->
        Paging.reply(rc, feeds.home(me(rc), Paging.byId(rc))));
    builder.getRoute("getMomentsTimeline").addHandler(rc ->
        Paging.reply(rc, feeds.moments(me(rc), Paging.byId(rc))));
    builder.getRoute("listUserPosts").addHandler(rc ->
        Paging.reply(rc, feeds.userPosts(Http.viewerId(rc), id(rc, "userId"), Paging.byId(rc))));
    builder.getRoute("getLatestTimeline").addHandler(rc -> {
      PageRequest page = Paging.byId(rc);
      RequestParameter latestTime = Http.validated(rc).getQuery().get("latest_time");
      if (latestTime != null && !latestTime.isNull()) {
        if (page.maxId() != 0) {
          rc.fail(Failures.field(KithErrors.VALIDATION_FAILED, "latest_time",
              "give either cursor or latest_time, not both"));
          return;
        }
        page = new PageRequest(page.limit(), maxIdBefore(latestTime.getLong()), page.sinceId(), null);
      }
      Paging.reply(rc, feeds.latest(Http.viewerId(rc), page));
    });
    builder.getRoute("listLikedPosts").addHandler(rc ->
        Paging.reply(rc, feeds.likedPosts(me(rc), Paging.byId(rc))));

    // comments
    builder.getRoute("addComment").addHandler(rc ->
        Http.replyCreated(rc, feeds.comment(me(rc), id(rc, "postId"), Http.body(rc))));
    builder.getRoute("listComments").addHandler(rc ->
        Paging.reply(rc, feeds.comments(Http.viewerId(rc), id(rc, "postId"), Paging.byId(rc))));
    builder.getRoute("deleteComment").addHandler(rc ->
        Http.replyEmpty(rc, feeds.deleteComment(me(rc), id(rc, "commentId"))));

    // likes
    builder.getRoute("likePost").addHandler(rc -> Http.reply(rc, feeds.like(me(rc), id(rc, "postId")), j -> j));
    builder.getRoute("unlikePost").addHandler(rc -> Http.reply(rc, feeds.unlike(me(rc), id(rc, "postId")), j -> j));
    builder.getRoute("listLikers").addHandler(rc ->
        Paging.reply(rc, feeds.likers(Http.viewerId(rc), id(rc, "postId"), Paging.byId(rc))));
  }

  /**
   * The {@code max_id} that pages to posts strictly older than {@code epochMillis}: the smallest id of that
   * millisecond. A time at or before the id epoch has nothing older (max_id 1: no id is below it); a time past the
   * end of the id space has everything older (0: no upper bound).
   */
  public static long maxIdBefore(long epochMillis) {
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
}
