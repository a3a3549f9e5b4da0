package io.kith.push.api;

import io.kith.platform.error.ErrorCode;

/** Failure codes of webhooks administration (the common ones are in {@code io.kith.platform.error.KithErrors}). */
public final class WebhooksErrors {

  /** The URL is refused: not https, not public, or unresolvable (the {@code field} is {@code url}). */
  public static final ErrorCode URL_REFUSED = ErrorCode.of(400, "webhook_url_refused", "Webhook URL refused");
  /** No endpoint with this id. */
  public static final ErrorCode WEBHOOK_NOT_FOUND = ErrorCode.of(404, "webhook_not_found", "Webhook not found");
  /** No delivery with this id for this endpoint. */
  public static final ErrorCode DELIVERY_NOT_FOUND = ErrorCode.of(404, "delivery_not_found", "Delivery not found");

  private WebhooksErrors() {
  }
}
