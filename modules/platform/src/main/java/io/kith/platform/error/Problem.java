package io.kith.platform.error;

import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;

/**
 * An RFC 9457 problem: what the gateway and the bridges send for every failure. Built from a coded
 * {@link ServiceException}; anything else becomes a 500 (or 503 for event-bus timeouts and missing handlers)
 * whose body carries no internals.
 */
public final class Problem {

  /** The media type of problem bodies. */
  public static final String MEDIA_TYPE = "application/problem+json";
  /** Base of the {@code type} URI; the code is appended. */
  public static final String TYPE_BASE = "https://kith.dev/problems/";

  private final int status;
  private final String code;
  private final String title;
  private final String detail;
  private final String field;
  private final JsonObject extra;

  private Problem(int status, String code, String title, String detail, String field, JsonObject extra) {
    this.status = status;
    this.code = code;
    this.title = title;
    this.detail = detail;
    this.field = field;
    this.extra = extra;
  }

  /** A problem of a declared code. */
  public static Problem of(ErrorCode code, String detail) {
    return new Problem(code.status(), code.code(), code.title(), detail, null, null);
  }

  /** A problem of a declared code naming a field. */
  public static Problem of(ErrorCode code, String field, String detail) {
    return new Problem(code.status(), code.code(), code.title(), detail, field, null);
  }

  /**
   * The problem for a failure. Only coded ServiceExceptions expose their detail; the caller logs anything
   * for which {@link #isInternal()} is true.
   */
  public static Problem from(Throwable failure) {
    if (failure instanceof ServiceException) {
      ServiceException se = (ServiceException) failure;
      JsonObject info = se.getDebugInfo();
      String code = info == null ? null : info.getString(Failures.CODE);
      if (code != null && se.failureCode() >= 400 && se.failureCode() <= 599) {
        return new Problem(se.failureCode(), code, info.getString(Failures.TITLE, code), se.getMessage(),
            info.getString(Failures.FIELD), info.getJsonObject(Failures.EXTRA));
      }
    }
    if (failure instanceof ReplyException) {
      ReplyFailure type = ((ReplyException) failure).failureType();
      if (type == ReplyFailure.TIMEOUT || type == ReplyFailure.NO_HANDLERS) {
        return of(KithErrors.UNAVAILABLE, "the service did not answer in time; retry later");
      }
    }
    return of(KithErrors.INTERNAL, "an unexpected error occurred; it has been logged");
  }

  /** Whether this problem hides an unexpected failure (which must be logged with its stack trace). */
  public boolean isInternal() {
    return status == 500;
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The stable code. */
  public String code() {
    return code;
  }

  /** The detail message. */
  public String detail() {
    return detail;
  }

  /** The offending field or null. */
  public String field() {
    return field;
  }

  /** Extra members, or null. */
  public JsonObject extra() {
    return extra;
  }

  /** The problem+json body; {@code instance} is the request path (may be null). */
  public JsonObject toJson(String instance) {
    JsonObject body = new JsonObject()
        .put("type", TYPE_BASE + code)
        .put("title", title)
        .put("status", status)
        .put("code", code);
    if (detail != null) {
      body.put("detail", detail);
    }
    if (field != null) {
      body.put("field", field);
    }
    if (instance != null) {
      body.put("instance", instance);
    }
    if (extra != null) {
      extra.forEach(e -> {
        if (!body.containsKey(e.getKey())) {
          body.put(e.getKey(), e.getValue());
        }
      });
    }
    return body;
  }
}
