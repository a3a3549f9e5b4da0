package io.kith.gateway.http;

import io.kith.feeds.api.FeedsErrors;
import io.kith.feeds.api.MediaClient;
import io.kith.platform.error.Failures;
import io.kith.platform.token.AccessClaims;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.serviceproxy.ServiceException;

/**
 * HTTP operations of feeds media: upload ({@code POST /api/v1/media}, the raw bytes streamed to the media service
 * piece by piece, never buffered whole; the operation is marked {@link ApiRouter#STREAMED_BODY}) and download
 * ({@code GET /api/v1/media/{mediaId}}, with single byte ranges, streamed as the client reads; {@code ?variant=} for a
 * thumbnail or a video's cover) and the media's view ({@code GET /api/v1/media/{mediaId}/info}: processing state and
 * variants). Who may read what, the
 * accepted types and the size limits are the media service's rules.
 */
public final class MediaRoutes implements ApiRoutes {

  private final MediaClient media;

  /** Creates the routes over a media client. */
  public MediaRoutes(MediaClient media) {
    this.media = media;
  }

  @Override
  public void mount(RouterBuilder builder) {
    builder.getRoute("uploadMedia").addHandler(this::upload);
    builder.getRoute("getMedia").addHandler(this::read);
    builder.getRoute("getMediaInfo").addHandler(this::info);
  }

  private void upload(RoutingContext rc) {
    HttpServerRequest request = rc.request();
    long actor = Http.caller(rc).userId();
    String length = request.getHeader("Content-Length");
    long declared = -1;
    if (length != null) {
      try {
        declared = Long.parseLong(length.trim());
      } catch (NumberFormatException e) {
        declared = -1;
      }
    }
    media.upload(actor, request.getHeader("Content-Type"), declared, request).onComplete(ar -> {
      if (ar.succeeded()) {
        rc.response().putHeader("Location", "/api/v1/media/" + ar.result().getLong("id"));
        Http.send(rc, 201, ar.result());
        return;
      }
      // refused while the client may still be sending: ApiRouter discards the rest and closes the connection
      rc.fail(ar.cause());
    });
  }

  private void read(RoutingContext rc) {
    AccessClaims caller = rc.get(Http.CALLER);
    long viewer = caller == null ? 0 : caller.userId();
    long id = Http.validated(rc).getPathParameters().get("mediaId").getLong();
    String variant = rc.request().getParam("variant");
    media.read(viewer, id, variant, rc.request().getHeader("Range")).onComplete(ar -> {
      if (ar.failed()) {
        unsatisfiableSize(ar.cause()).ifPresent(size ->
            rc.response().putHeader("Content-Range", "bytes */" + size));
        rc.fail(ar.cause());
        return;
      }
      MediaClient.Download download = ar.result();
      JsonObject info = download.info();
      HttpServerResponse response = rc.response()
          .putHeader("ETag", info.getString("etag"))
          .putHeader("Cache-Control", "private, no-cache")
          .putHeader("Accept-Ranges", "bytes")
          .putHeader("X-Content-Type-Options", "nosniff");
      String ifNoneMatch = rc.request().getHeader("If-None-Match");
      if (ifNoneMatch != null && (ifNoneMatch.contains(info.getString("etag")) || ifNoneMatch.trim().equals("*"))) {
        download.cancel();
        response.setStatusCode(304).end();
        return;
      }
      response
          .setStatusCode(info.getBoolean("partial") ? 206 : 200)
          .putHeader("Content-Type", info.getString("content_type"))
          .putHeader("Content-Length", Long.toString(info.getLong("length")))
          // media is already compressed; compressing it would also break Content-Length and ranges
          .putHeader("Content-Encoding", "identity");
      if (info.getBoolean("partial")) {
        response.putHeader("Content-Range", "bytes " + info.getLong("start") + "-" + info.getLong("end") + "/"
            + info.getLong("size"));
      }
      download.pipeTo(response).onComplete(sent -> {
        if (sent.succeeded()) {
          response.end();
        } else if (!response.ended()) {
          rc.fail(sent.cause()); // the head is written: the failure handler resets the connection
        }
      });
    });
  }

  private void info(RoutingContext rc) {
    AccessClaims caller = rc.get(Http.CALLER);
    long id = Http.validated(rc).getPathParameters().get("mediaId").getLong();
    media.info(caller == null ? 0 : caller.userId(), id).onComplete(ar -> {
      if (ar.succeeded()) {
        rc.response().putHeader("Cache-Control", "private, no-cache");
        Http.send(rc, 200, ar.result());
      } else {
        rc.fail(ar.cause());
      }
    });
  }

  private static java.util.Optional<Long> unsatisfiableSize(Throwable failure) {
    if (Failures.is(failure, FeedsErrors.RANGE_NOT_SATISFIABLE)) {
      JsonObject extra = ((ServiceException) failure).getDebugInfo().getJsonObject(Failures.EXTRA);
      if (extra != null && extra.getLong("size") != null) {
        return java.util.Optional.of(extra.getLong("size"));
      }
    }
    return java.util.Optional.empty();
  }
}
