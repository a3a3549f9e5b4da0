package io.kith.gateway.http;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.ext.web.RoutingContext;
import io.vertx.openapi.validation.RequestParameter;
import io.vertx.serviceproxy.ServiceException;

/**
 * The one way every list operation reads the page it is asked for and answers it (see "Paging" in the gateway
 * README): {@code limit}, {@code cursor} (the {@code next_cursor} of the previous page, an opaque string) and, on
 * lists that catch up with newer items, {@code since_id}; the answer is {@link Page#toApiJson()}. The services keep
 * their own cursors: the gateway passes the string on, or reads it as the id or offset the list pages by.
 */
final class Paging {

  /** The query parameters of paging, the same on every list. */
  static final String LIMIT = "limit";
  static final String CURSOR = "cursor";
  static final String SINCE_ID = "since_id";

  private static final String CURSOR_REFUSED = "cursor must be the next_cursor of a previous page of this list";
  /** Longest decimal cursor read as an id or an offset (ids are below 2^53, 16 digits). */
  private static final int MAX_DIGITS = 16;
  /** The largest number a numeric cursor stands for: 2^53 - 1, the largest id. */
  private static final long MAX_NUMBER = (1L << 53) - 1;

  private Paging() {
  }

  /**
   * The page of a list paged by the service's own string cursor, passed on as it came. A limit beyond the int range
   * stays beyond the service's bounds, which refuse it.
   */
  static PageRequest byCursor(RoutingContext rc) {
    return new PageRequest(limit(rc), 0, 0, cursor(rc));
  }

  /**
   * The page of a list paged by id: the cursor is the id the items are older than, {@code since_id} the id they are
   * newer than (0 for none).
   *
   * @throws io.vertx.serviceproxy.ServiceException 400 {@code validation_failed} naming {@code cursor} when the
   *                                                cursor is not one this list returned
   */
  static PageRequest byId(RoutingContext rc) {
    RequestParameter since = param(rc, SINCE_ID);
    return new PageRequest(limit(rc), number(rc), since == null ? 0 : since.getLong(), null);
  }

  /**
   * The cursor of a list paged by a number (an id or an offset), 0 when absent.
   *
   * @throws io.vertx.serviceproxy.ServiceException 400 {@code validation_failed} naming {@code cursor} when the
   *                                                cursor is not one this list returned
   */
  static long number(RoutingContext rc) {
    String cursor = cursor(rc);
    if (cursor == null) {
      return 0;
    }
    // a list returns positive numbers below 2^53 written plainly; anything else was not one of its cursors
    if (cursor.isEmpty() || cursor.length() > MAX_DIGITS || cursor.charAt(0) == '0'
        || !cursor.chars().allMatch(c -> c >= '0' && c <= '9') || Long.parseLong(cursor) > MAX_NUMBER) {
      throw Failures.field(KithErrors.VALIDATION_FAILED, CURSOR, CURSOR_REFUSED);
    }
    return Long.parseLong(cursor);
  }

  /** The {@code limit} query parameter, or null when absent (the list's default applies). */
  static Integer limit(RoutingContext rc) {
    RequestParameter limit = param(rc, LIMIT);
    return limit == null ? null : (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, limit.getLong()));
  }

  /** The {@code cursor} query parameter, or null for the first page. */
  static String cursor(RoutingContext rc) {
    RequestParameter cursor = param(rc, CURSOR);
    return cursor == null ? null : cursor.getString();
  }

  /** Replies with the page in the one shape of every list. */
  static void reply(RoutingContext rc, Future<Page> page) {
    Http.reply(rc, page, Page::toApiJson);
  }

  /**
   * Replies with the page of a list whose service reads the cursor under another name ({@code before},
   * {@code after}, {@code offset}): the service's refusal of a cursor names {@code cursor}, the parameter the client
   * sent.
   */
  static void reply(RoutingContext rc, Future<Page> page, String serviceCursor) {
    reply(rc, page.recover(e -> Future.failedFuture(asCursorRefusal(e, serviceCursor))));
  }

  private static Throwable asCursorRefusal(Throwable e, String serviceCursor) {
    if (e instanceof ServiceException refusal && refusal.getDebugInfo() != null
        && serviceCursor.equals(refusal.getDebugInfo().getString(Failures.FIELD))) {
      return new ServiceException(refusal.failureCode(), CURSOR_REFUSED,
          refusal.getDebugInfo().copy().put(Failures.FIELD, CURSOR));
    }
    return e;
  }

  private static RequestParameter param(RoutingContext rc, String name) {
    RequestParameter p = Http.validated(rc).getQuery().get(name);
    return p == null || p.isNull() ? null : p;
  }
}
