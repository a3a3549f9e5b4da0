package io.kith.gateway.douyin;

import io.kith.feeds.api.FeedsService;
import io.kith.feeds.api.MediaClient;
import io.kith.gateway.http.FeedsRoutes;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.token.Sessions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.FileUpload;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

import java.util.ArrayList;
import java.util.List;

/**
 * The douyin video routes: feed, publish (upload through the media path the native upload uses, then a public post
 * with the title as its text), a user's videos, favorites and comments, over the feeds service; and a video's cover,
 * the frame the media pipeline took from it.
 */
final class DouyinVideos {

  /** Below this, a {@code latest_time} is read as seconds (some clients send seconds, the demo app milliseconds). */
  static final long SECONDS_BELOW = 100_000_000_000L;
  private static final String VIDEO_ID = "video_id";

  private final Vertx vertx;
  private final FeedsService feeds;
  private final MediaClient media;
  private final DouyinViews views;
  private final DouyinSettings settings;
  private final Sessions sessions;

  DouyinVideos(Vertx vertx, Sessions sessions, FeedsService feeds, MediaClient media, DouyinViews views,
               DouyinSettings settings) {
    this.vertx = vertx;
    this.sessions = sessions;
    this.feeds = feeds;
    this.media = media;
    this.views = views;
    this.settings = settings;
  }

  DouyinViews views() {
    return views;
  }

  void mount(Router r, DouyinRoutes.Authed authed, DouyinRoutes.Open open) {
    r.get("/feed").handler(rc -> open.run(rc, () -> feed(rc)));
    r.post("/publish/action").handler(rc -> authed.run(rc, me -> publish(rc, me.userId())));
    r.get("/publish/list").handler(rc -> authed.run(rc, me -> list(rc, me.userId(),
        feeds.userPosts(me.userId(), DouyinReply.id(rc, "user_id"), page()))));
    r.post("/favorite/action").handler(rc -> authed.run(rc, me -> {
      long video = DouyinReply.id(rc, VIDEO_ID);
      return action(rc) == 1 ? feeds.like(me.userId(), video).map(j -> new JsonObject())
          : feeds.unlike(me.userId(), video).map(j -> new JsonObject());
    }));
    r.get("/favorite/list").handler(rc -> authed.run(rc, me -> {
      long user = DouyinReply.number(rc, "user_id", me.userId());
      if (user != me.userId()) {
        // Kith keeps whom a user liked to that user: there is no service call for someone else's likes
        return Failures.fail(KithErrors.FORBIDDEN, "a user's favorite list is visible to that user only");
      }
      return list(rc, me.userId(), feeds.likedPosts(me.userId(), page()));
    }));
    r.post("/comment/action").handler(rc -> authed.run(rc, me -> comment(rc, me.userId())));
    r.get("/comment/list").handler(rc -> open.run(rc, () -> DouyinReply.viewer(rc, sessions)
        .compose(viewer -> comments(rc, viewer))));
    r.get("/cover/:media").handler(this::cover);
  }

  /**
   * A video's {@code cover_url}: a redirect to the media's {@code cover} variant once the pipeline made it, the default
   * cover until then (processing, or a video ffmpeg took no frame of), never cached so the frame shows once ready.
   * Image loaders send no token: the media's own rule decides (a douyin video is a public post's media).
   */
  private void cover(RoutingContext rc) {
    Future<JsonObject> view = Failures.guard(() -> {
      long id = DouyinReply.positive(rc.pathParam("media"), "media");
      return DouyinReply.viewer(rc, sessions).compose(viewer -> media.info(viewer, id));
    });
    view.onComplete(ar -> {
      if (ar.failed()) {
        DouyinReply.refuse(rc, ar.cause());
      } else if (rc.response().headWritten()) {
        return; // the request's deadline answered first
      } else if (hasVariant(ar.result(), DouyinViews.COVER_VARIANT)) {
        String frame = DouyinRoutes.base(rc, settings) + DouyinViews.coverVariant(ar.result().getLong("id"));
        rc.response().setStatusCode(302).putHeader("Cache-Control", "public, max-age=3600")
            .putHeader("Location", frame).end();
      } else {
        rc.response().putHeader("Cache-Control", "no-cache").sendFile(DouyinViews.DEFAULT_COVER_FILE);
      }
    });
  }

  private static boolean hasVariant(JsonObject view, String name) {
    return view.getJsonArray("variants", new JsonArray()).stream()
        .anyMatch(v -> name.equals(((JsonObject) v).getString("name")));
  }

  private PageRequest page() {
    return PageRequest.first(settings.pageSize());
  }

  /** 1 or 2 from {@code action_type}, else a {@code validation_failed} refusal. */
  static int action(RoutingContext rc) {
    long type = DouyinReply.number(rc, "action_type", 0);
    if (type != 1 && type != 2) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, "action_type", "action_type must be 1 or 2");
    }
    return (int) type;
  }

  private Future<JsonObject> feed(RoutingContext rc) {
    long latest = DouyinReply.number(rc, "latest_time", 0);
    long millis = latest > 0 && latest < SECONDS_BELOW ? latest * 1000 : latest;
    PageRequest page = new PageRequest(settings.pageSize(), millis <= 0 ? 0 : FeedsRoutes.maxIdBefore(millis), 0,
        null);
    return DouyinReply.viewer(rc, sessions).compose(viewer -> feeds.latest(viewer, page)
        .compose(p -> views.videos(viewer, p.items(), DouyinRoutes.base(rc, settings)).map(list -> {
          // the next page starts before the oldest post of this one, shown or not (text posts are skipped)
          long next = System.currentTimeMillis();
          for (Object post : p.items()) {
            next = Math.min(next, ((JsonObject) post).getLong("created", next));
          }
          return new JsonObject().put("video_list", list).put("next_time", next);
        })));
  }

  private Future<JsonObject> list(RoutingContext rc, long viewer, Future<Page> posts) {
    return posts.compose(p -> views.videos(viewer, p.items(), DouyinRoutes.base(rc, settings)))
        .map(list -> new JsonObject().put("video_list", list));
  }

  /**
   * Streams the uploaded {@code data} file to the media service as a video (the bytes decide; anything but a video is
   * {@code unsupported_media}), then publishes a public post of it with the title as its text.
   */
  private Future<JsonObject> publish(RoutingContext rc, long actor) {
    FileUpload data = rc.fileUploads().stream().filter(f -> "data".equals(f.name())).findFirst().orElse(null);
    if (data == null) {
      return Failures.failField(KithErrors.VALIDATION_FAILED, "data", "data (the video file) is required");
    }
    String type = data.contentType() != null && data.contentType().startsWith("video/") ? data.contentType()
        : "video/mp4";
    String title = DouyinReply.param(rc, "title");
    return vertx.fileSystem().open(data.uploadedFileName(), new OpenOptions().setRead(true))
        .compose(file -> media.upload(actor, type, data.size(), file).eventually(file::close))
        .compose(uploaded -> feeds.publish(actor, new JsonObject().put("text", title == null ? "" : title)
            .put("media", new JsonArray().add(uploaded.getLong("id"))).put("visibility", "public")))
        .map(post -> new JsonObject());
  }

  private Future<JsonObject> comment(RoutingContext rc, long actor) {
    long video = DouyinReply.id(rc, VIDEO_ID);
    if (action(rc) == 2) {
      return feeds.deleteComment(actor, DouyinReply.id(rc, "comment_id"))
          .map(v -> new JsonObject().putNull("comment"));
    }
    JsonObject body = new JsonObject().put("text", DouyinReply.required(rc, "comment_text"));
    return feeds.comment(actor, video, body).compose(c -> views.users(actor, List.of(actor),
            DouyinRoutes.base(rc, settings))
        .map(users -> new JsonObject().put("comment",
            DouyinViews.comment(c, users.getJsonObject(Long.toString(actor))))));
  }

  private Future<JsonObject> comments(RoutingContext rc, long viewer) {
    long video = DouyinReply.id(rc, VIDEO_ID);
    return feeds.comments(viewer, video, page()).compose(p -> {
      List<Long> authors = new ArrayList<>();
      p.items().forEach(c -> authors.add(((JsonObject) c).getJsonObject("author").getLong("id")));
      return views.users(viewer, authors, DouyinRoutes.base(rc, settings)).map(users -> {
        JsonArray out = new JsonArray();
        p.items().forEach(c -> {
          JsonObject author = users.getJsonObject(Long.toString(((JsonObject) c).getJsonObject("author")
              .getLong("id")));
          if (author != null) {
            out.add(DouyinViews.comment((JsonObject) c, author));
          }
        });
        return new JsonObject().put("comment_list", out);
      });
    });
  }
}
