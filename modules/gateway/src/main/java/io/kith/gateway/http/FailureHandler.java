package io.kith.gateway.http;

import io.kith.platform.error.BurstLog;
import io.kith.platform.error.ErrorCode;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.error.Problem;
import io.kith.platform.store.StoreFailures;
import io.vertx.core.Handler;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.HttpException;
import io.vertx.json.schema.OutputUnit;
import io.vertx.openapi.validation.SchemaValidationException;
import io.vertx.openapi.validation.ValidatorErrorType;
import io.vertx.openapi.validation.ValidatorException;
import io.vertx.serviceproxy.ServiceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The single place where failures become HTTP responses: every failure, whether a service's coded
 * {@code ServiceException}, a contract validation error, a body over the limit, an unknown route, or a bug, is
 * answered as {@code application/problem+json} with a stable code. Bugs are logged with their stack trace and
 * answered with a 500 that says nothing about internals. A dependency that is busy, unreachable or too slow (a store,
 * an open circuit, a service that did not answer or runs on no node, the request deadline, load shedding) is a 503
 * {@code unavailable} with {@code Retry-After}, logged as a warning at most once per kind every
 * {@link #BURST_LOG_MILLIS} with the count of those left out: an outage fails thousands of requests a second.
 */
public final class FailureHandler implements Handler<RoutingContext> {

  private static final Logger LOG = LoggerFactory.getLogger(FailureHandler.class);
  private static final java.util.regex.Pattern REQUIRED = java.util.regex.Pattern.compile("property \"([^\"]+)\"");
  /** A contract operation that no route group handles (see {@link ApiRouter}); not a bug, so not logged as one. */
  static final ErrorCode NOT_IMPLEMENTED = ErrorCode.of(501, "not_implemented", "Not implemented");
  /** The request's body did not arrive before its deadline. */
  static final ErrorCode REQUEST_TIMEOUT = ErrorCode.of(408, "request_timeout", "Request timeout");
  /** The request line (path and query) is longer than the server accepts. */
  static final ErrorCode URI_TOO_LONG = ErrorCode.of(414, "uri_too_long", "URI too long");
  /** The request headers are larger than the server accepts. */
  static final ErrorCode HEADERS_TOO_LARGE =
      ErrorCode.of(431, "headers_too_large", "Request header fields too large");
  /** At most one warning per kind of unavailability in this period. */
  static final long BURST_LOG_MILLIS = 10_000;
  private static final BurstLog BURSTS = new BurstLog(LOG, BURST_LOG_MILLIS);

  @Override
  public void handle(RoutingContext rc) {
    if (rc.response().ended()) {
      return;
    }
    Problem problem = toProblem(rc.failure(), rc.statusCode());
    if (problem.isInternal()) {
      LOG.error("Unexpected failure on {} {} (request {})", rc.request().method(), rc.request().path(),
          RequestIds.of(rc), rc.failure());
    } else if (problem.status() == 503) {
      // a coded failure by its detail (a small fixed set), anything else by its class
      String kind = rc.failure() == null ? "status 503"
          : Failures.codeOf(rc.failure()) != null ? rc.failure().getMessage() : rc.failure().getClass().getName();
      BURSTS.warn(kind, "Answered 503 unavailable on {} {}: {}", rc.request().method(), rc.request().path(), kind);
    }
    if (rc.response().headWritten()) {
      rc.response().reset();
      return;
    }
    rc.response()
        .setStatusCode(problem.status())
        .putHeader("Content-Type", Problem.MEDIA_TYPE)
        .putHeader("Cache-Control", "no-store");
    if (problem.extra() != null && problem.extra().containsKey("retry_after")) {
      rc.response().putHeader("Retry-After", String.valueOf(problem.extra().getValue("retry_after")));
    } else if (problem.status() == 503) {
      rc.response().putHeader("Retry-After", String.valueOf(StoreFailures.RETRY_AFTER_SECONDS));
    }
    JsonObject body = problem.toJson(rc.request().path());
    if (RequestIds.of(rc) != null) {
      body.put("request_id", RequestIds.of(rc));
    }
    rc.response().end(body.toBuffer());
  }

  static Problem toProblem(Throwable failure, int status) {
    if (failure instanceof HttpException) {
      HttpException he = (HttpException) failure;
      if (he.getCause() != null) {
        return toProblem(he.getCause(), he.getStatusCode());
      }
      return byStatus(he.getStatusCode());
    }
    if (failure instanceof ServiceException) {
      return Problem.from(failure);
    }
    if (failure instanceof SchemaValidationException) {
      return schemaProblem((SchemaValidationException) failure);
    }
    if (failure instanceof ValidatorException) {
      return validatorProblem((ValidatorException) failure);
    }
    if (failure instanceof DecodeException) {
      return Problem.of(KithErrors.MALFORMED_JSON, "the request body is not valid JSON");
    }
    if (failure != null && !(failure instanceof ServiceException) && StoreFailures.isUnavailable(failure)) {
      // a store, circuit or service failure that reached here uncoded (a pool wait queue full, a reply timeout)
      return Problem.from(Failures.withExtra(KithErrors.UNAVAILABLE, "a service this request needs is unavailable; "
          + "retry later", new JsonObject().put("retry_after", StoreFailures.RETRY_AFTER_SECONDS)));
    }
    if (failure == null || (status >= 400 && status < 500)) {
      // a handler failed the request with an explicit client-error status and a plain exception (CorsHandler rejects
      // an unlisted origin with 403 + VertxException): a client error, not a bug
      return byStatus(status);
    }
    return Problem.from(failure);
  }

  private static Problem schemaProblem(SchemaValidationException e) {
    String parameter = parameterOf(e.getMessage());
    if (parameter != null) {
      // a parameter's schema failed: the instance location is inside the parameter's value (the index of a list
      // item), so the validator's message, which names the parameter, says more than the deepest error
      return Problem.of(KithErrors.VALIDATION_FAILED, parameter, sanitize(e.getMessage()));
    }
    OutputUnit unit = deepest(e.getOutputUnit());
    String field = unit == null ? null : fieldOf(unit.getInstanceLocation());
    if (unit != null && unit.getKeywordLocation() != null && unit.getKeywordLocation().endsWith("required")) {
      // "required" fails on the parent object; its error text quotes the missing member
      java.util.regex.Matcher m = REQUIRED.matcher(String.valueOf(unit.getError()));
      if (m.find()) {
        field = field == null ? m.group(1) : field + "." + m.group(1);
        return Problem.of(KithErrors.VALIDATION_FAILED, field, field + " is required");
      }
    }
    String reason = unit == null || unit.getError() == null ? e.getMessage() : unit.getError();
    if (field == null) {
      // a parameter's schema failed: the validator names it in its message
      return Problem.of(KithErrors.VALIDATION_FAILED, parameterOf(e.getMessage()), sanitize(e.getMessage()));
    }
    return Problem.of(KithErrors.VALIDATION_FAILED, field, sanitize(field + ": " + reason));
  }

  private static Problem validatorProblem(ValidatorException e) {
    if (e.type() == ValidatorErrorType.MISSING_OPERATION) {
      return Problem.of(KithErrors.NOT_FOUND, "no such operation");
    }
    String message = e.getMessage() == null ? "" : e.getMessage();
    // "The value of query parameter prefix can't be decoded" is a parameter the validator could not read, not a body
    if (parameterOf(message) == null && (message.toLowerCase(java.util.Locale.ROOT).contains("decode")
        || message.toLowerCase(java.util.Locale.ROOT).contains("json"))) {
      return Problem.of(KithErrors.MALFORMED_JSON, "the request body is not valid JSON");
    }
    // a body in a media type the operation does not declare: "The format of the request body is not supported"
    boolean unsupportedBody = e.type() == ValidatorErrorType.UNSUPPORTED_VALUE_FORMAT
        && message.contains("request body");
    if (unsupportedBody || message.contains("content type") || message.contains("Content-Type")) {
      return Problem.of(KithErrors.UNSUPPORTED_MEDIA_TYPE, sanitize(message));
    }
    return Problem.of(KithErrors.VALIDATION_FAILED, parameterOf(message), sanitize(message));
  }

  // "The value of query parameter limit is invalid", "... does not contain the required parameter: ... name=limit"
  private static final java.util.regex.Pattern PARAMETER = java.util.regex.Pattern.compile(
      "(?:(?:query|path|header|cookie) parameter |name=)([A-Za-z0-9_.\\-]+)");

  private static String parameterOf(String message) {
    if (message == null) {
      return null;
    }
    java.util.regex.Matcher m = PARAMETER.matcher(message);
    return m.find() ? m.group(1) : null;
  }

  private static OutputUnit deepest(OutputUnit unit) {
    if (unit == null) {
      return null;
    }
    OutputUnit best = unit.getError() != null ? unit : null;
    if (unit.getErrors() != null) {
      for (OutputUnit child : unit.getErrors()) {
        OutputUnit d = deepest(child);
        if (d != null && (best == null || depth(d) > depth(best))) {
          best = d;
        }
      }
    }
    return best;
  }

  private static int depth(OutputUnit u) {
    String loc = u.getInstanceLocation();
    return loc == null ? 0 : loc.split("/").length;
  }

  private static String fieldOf(String instanceLocation) {
    if (instanceLocation == null) {
      return null;
    }
    String loc = instanceLocation.startsWith("#") ? instanceLocation.substring(1) : instanceLocation;
    if (loc.startsWith("/")) {
      loc = loc.substring(1);
    }
    return loc.isEmpty() ? null : loc.replace('/', '.');
  }

  // validator messages quote the contract, not internals; keep them bounded and single-line
  private static String sanitize(String message) {
    if (message == null) {
      return "the request is invalid";
    }
    String line = message.replace('\n', ' ');
    return line.length() > 300 ? line.substring(0, 300) + "..." : line;
  }

  private static Problem byStatus(int status) {
    switch (status) {
      case 400:
        return Problem.of(KithErrors.VALIDATION_FAILED, "the request is invalid");
      case 401:
        return Problem.of(KithErrors.UNAUTHENTICATED, "authentication is required");
      case 403:
        return Problem.of(KithErrors.FORBIDDEN, "not allowed");
      case 404:
        return Problem.of(KithErrors.NOT_FOUND, "no such resource");
      case 405:
        return Problem.of(KithErrors.METHOD_NOT_ALLOWED, "this method is not supported on this path");
      case 408:
        return Problem.of(REQUEST_TIMEOUT, "the request was not received in time");
      case 413:
        return Problem.of(KithErrors.PAYLOAD_TOO_LARGE, "the request body is larger than allowed");
      case 414:
        return Problem.of(URI_TOO_LONG, "the path and query string are longer than allowed");
      case 415:
        return Problem.of(KithErrors.UNSUPPORTED_MEDIA_TYPE, "send the body as application/json");
      case 429:
        return Problem.of(KithErrors.RATE_LIMITED, "too many requests");
      case 431:
        return Problem.of(HEADERS_TOO_LARGE, "the request headers are larger than allowed");
      case 501:
        return Problem.of(NOT_IMPLEMENTED, "this operation is not available yet");
      case 503:
        return Problem.of(KithErrors.UNAVAILABLE, "the service is unavailable; retry later");
      default:
        return Problem.of(KithErrors.INTERNAL, "an unexpected error occurred; it has been logged");
    }
  }
}
