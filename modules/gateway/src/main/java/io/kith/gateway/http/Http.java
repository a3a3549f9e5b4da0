package io.kith.gateway.http;

import io.kith.platform.token.AccessClaims;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.openapi.router.RouterBuilder;
import io.vertx.openapi.validation.RequestParameter;
import io.vertx.openapi.validation.ValidatedRequest;

import java.util.function.Function;

/** Small helpers shared by route classes: the verified caller, validated inputs, JSON replies. */
public final class Http {

  /** Routing-context key of the verified {@link AccessClaims}. */
  public static final String CALLER = "kith.caller";
  /** JSON media type. */
  public static final String JSON = "application/json";

  private Http() {
  }

  /** The verified caller of an authenticated operation. */
  public static AccessClaims caller(RoutingContext rc) {
    AccessClaims claims = rc.get(CALLER);
    if (claims == null) {
      throw new IllegalStateException("operation reached without authentication: " + rc.normalizedPath());
    }
    return claims;
  }

  /**
   * The user reading through an operation whose token is optional: the verified caller's id, or 0 for an anonymous
   * reader (no Authorization header).
   */
  public static long viewerId(RoutingContext rc) {
    AccessClaims claims = rc.get(CALLER);
    return claims == null ? 0 : claims.userId();
  }

  /** The validated request of an OpenAPI operation. */
  public static ValidatedRequest validated(RoutingContext rc) {
    return rc.get(RouterBuilder.KEY_META_DATA_VALIDATED_REQUEST);
  }

  /** The validated JSON body (empty object when none). */
  public static JsonObject body(RoutingContext rc) {
    RequestParameter body = validated(rc).getBody();
    return body == null || body.isNull() ? new JsonObject() : body.getJsonObject();
  }

  /** A validated path parameter as a string. */
  public static String pathParam(RoutingContext rc, String name) {
    RequestParameter p = validated(rc).getPathParameters().get(name);
    return p == null || p.isNull() ? null : p.getString();
  }

  /** Sends {@code json} with status 200. */
  public static void ok(RoutingContext rc, JsonObject json) {
    send(rc, 200, json);
  }

  /** Sends {@code json} with {@code status}. */
  public static void send(RoutingContext rc, int status, JsonObject json) {
    if (rc.response().headWritten()) {
      return; // already answered: the request's deadline passed first (see RequestDeadline)
    }
    rc.response().setStatusCode(status).putHeader("Content-Type", JSON).end(json.toBuffer());
  }

  /** Sends 204 No Content. */
  public static void noContent(RoutingContext rc) {
    if (rc.response().headWritten()) {
      return; // already answered: the request's deadline passed first (see RequestDeadline)
    }
    rc.response().setStatusCode(204).end();
  }

  /**
   * Replies with the JSON that {@code result} maps to, or hands its failure to the failure handler. The usual ending
   * of a route handler that calls a service.
   */
  public static <T> void reply(RoutingContext rc, Future<T> result, Function<T, JsonObject> toJson) {
    result.onComplete(ar -> {
      if (ar.succeeded()) {
        ok(rc, toJson.apply(ar.result()));
      } else {
        rc.fail(ar.cause());
      }
    });
  }

  /**
   * Replies 200 with JSON a service encoded itself (a page that crossed the event bus as a string, not copied), or
   * hands the failure to the failure handler.
   */
  public static void replyEncoded(RoutingContext rc, Future<String> json) {
    json.onComplete(ar -> {
      if (ar.failed()) {
        rc.fail(ar.cause());
      } else if (!rc.response().headWritten()) {
        // unless already answered: the request's deadline passed first (see RequestDeadline)
        rc.response().setStatusCode(200).putHeader("Content-Type", JSON).end(ar.result());
      }
    });
  }

  /** Replies 201 with the JSON {@code result} completes with, or hands its failure to the failure handler. */
  public static void replyCreated(RoutingContext rc, Future<JsonObject> result) {
    result.onComplete(ar -> {
      if (ar.succeeded()) {
        send(rc, 201, ar.result());
      } else {
        rc.fail(ar.cause());
      }
    });
  }

  /** Replies 204 when {@code result} succeeds, or hands its failure to the failure handler. */
  public static void replyEmpty(RoutingContext rc, Future<?> result) {
    result.onComplete(ar -> {
      if (ar.succeeded()) {
        noContent(rc);
      } else {
        rc.fail(ar.cause());
      }
    });
  }
}
