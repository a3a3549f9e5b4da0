package io.kith.gateway.douyin;

import io.kith.gateway.http.BearerAuth;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.error.Problem;
import io.kith.platform.token.AccessClaims;
import io.kith.platform.token.Sessions;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The douyin envelope: every answer is HTTP 200 with {@code status_code} (0 on success) and {@code status_msg}, as
 * those clients expect; parameters come from the query string or a form body alike; the {@code token} parameter is a
 * Kith access token verified exactly as {@link BearerAuth} verifies a bearer token.
 */
final class DouyinReply {

  /** {@code status_code} of every refusal (the clients only test for 0); the Kith code is in {@code status_msg}. */
  static final int REFUSED = 1;
  private static final Logger LOG = LoggerFactory.getLogger(DouyinReply.class);

  private DouyinReply() {
  }

  /** A parameter from the query string or the form body, trimmed; null when absent or blank. */
  static String param(RoutingContext rc, String name) {
    String value = rc.request().getParam(name);
    if (value == null) {
      value = rc.request().getFormAttribute(name);
    }
    return value == null || value.isBlank() ? null : value.trim();
  }

  /** A required parameter, or a {@code validation_failed} failure naming it. */
  static String required(RoutingContext rc, String name) {
    String value = param(rc, name);
    if (value == null) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, name, name + " is required");
    }
    return value;
  }

  /** A numeric parameter ({@code fallback} when absent), or a {@code validation_failed} failure naming it. */
  static long number(RoutingContext rc, String name, long fallback) {
    String value = param(rc, name);
    if (value == null) {
      return fallback;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, name, name + " must be a whole number");
    }
  }

  /** A required positive id parameter. */
  static long id(RoutingContext rc, String name) {
    long id = number(rc, name, 0);
    if (id <= 0) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, name, name + " must be a positive id");
    }
    return id;
  }

  /** A positive id read from {@code value} (a path segment), or a {@code validation_failed} failure naming it. */
  static long positive(String value, String name) {
    try {
      long id = Long.parseLong(value);
      if (id > 0) {
        return id;
      }
    } catch (NumberFormatException e) {
      // refused below, as a zero or negative id is
    }
    throw Failures.field(KithErrors.VALIDATION_FAILED, name, name + " must be a positive id");
  }

  /** The verified caller from the {@code token} parameter, or {@code unauthenticated} / a token failure. */
  static Future<AccessClaims> caller(RoutingContext rc, Sessions sessions) {
    String token = param(rc, "token");
    if (token == null) {
      return Failures.fail(KithErrors.UNAUTHENTICATED, "this operation needs a token; log in first");
    }
    return BearerAuth.authenticate(sessions.accessTokens(), sessions, token);
  }

  /** The viewer of a route whose token is optional: 0 without a token, else the verified caller. */
  static Future<Long> viewer(RoutingContext rc, Sessions sessions) {
    return param(rc, "token") == null ? Future.succeededFuture(0L) : caller(rc, sessions).map(AccessClaims::userId);
  }

  /** Answers {@code body} (may be null) with {@code status_code} 0 and {@code status_msg} "ok". */
  static void ok(RoutingContext rc, JsonObject body) {
    send(rc, (body == null ? new JsonObject() : body).put("status_code", 0).put("status_msg", "ok"));
  }

  /** Answers with the envelope of {@code result}: its JSON on success, the refusal otherwise. */
  static void reply(RoutingContext rc, Future<JsonObject> result) {
    result.onComplete(ar -> {
      if (ar.succeeded()) {
        ok(rc, ar.result());
      } else {
        refuse(rc, ar.cause());
      }
    });
  }

  /**
   * Answers a failure as a non-zero {@code status_code} whose {@code status_msg} reads {@code <kith code>: <detail>};
   * a bug is logged with its trace and answered as {@code internal} with no internals.
   */
  static void refuse(RoutingContext rc, Throwable failure) {
    Throwable cause = failure instanceof HttpException && failure.getCause() != null ? failure.getCause() : failure;
    String message;
    if (cause instanceof HttpException) {
      message = statusMessage(((HttpException) cause).getStatusCode());
    } else {
      Problem problem = Problem.from(cause);
      if (problem.isInternal()) {
        LOG.error("Unexpected failure on douyin {} {}", rc.request().method(), rc.request().path(), cause);
      }
      message = problem.code() + ": " + problem.detail();
    }
    send(rc, new JsonObject().put("status_code", REFUSED).put("status_msg", message));
  }

  private static String statusMessage(int status) {
    switch (status) {
      case 413:
        return "payload_too_large: the request body is larger than allowed";
      case 404:
        return "not_found: no such douyin route";
      case 405:
        return "method_not_allowed: this method is not supported on this path";
      default:
        return status < 500 ? "validation_failed: the request is invalid" : "unavailable: retry later";
    }
  }

  private static void send(RoutingContext rc, JsonObject body) {
    if (rc.response().headWritten()) {
      return; // the request's deadline answered first
    }
    rc.response().setStatusCode(200).putHeader("Content-Type", "application/json; charset=utf-8")
        .putHeader("Cache-Control", "no-store").end(body.toBuffer());
  }
}
