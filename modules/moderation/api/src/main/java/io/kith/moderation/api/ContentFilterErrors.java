package io.kith.moderation.api;

import io.kith.platform.error.ErrorCode;

/** Failure codes of {@link ContentFiltersService} besides the common ones and {@link Moderation#ROLE_REQUIRED}. */
public final class ContentFilterErrors {

  /** A filter id that names no filter. */
  public static final ErrorCode FILTER_NOT_FOUND = ErrorCode.of(404, "filter_not_found", "Filter not found");
  /** The filter lists are full. */
  public static final ErrorCode LIMIT_REACHED = ErrorCode.of(409, "limit_reached", "Limit reached");

  private ContentFilterErrors() {
  }
}
