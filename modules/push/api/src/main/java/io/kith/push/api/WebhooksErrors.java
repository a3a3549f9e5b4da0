package io.kith.push.api;

import io.kith.platform.error.ErrorCode;

/** Failure codes of webhooks administration (the common ones are in {@code io.kith.platform.error.KithErrors}). */
public final class WebhooksErrors {

  /** The request carries no operator credential (an {@code Authorization: Bearer <admin token>} header). */
  public static final ErrorCode OPERATOR_REQUIRED =
      ErrorCode.of(401, "operator_credential_required", "Operator credential required");
  /**
   * The credential is not the operator's (a user's access token, a wrong token), or no operator credential is
   * configured ({@code push.admin-token-hash} empty: the admin API is off).
   */
  public static final ErrorCode OPERATOR_INVALID =
      ErrorCode.of(403, "operator_credential_invalid", "Not an operator credential");
  /** The URL is refused: not https, not public, or unresolvable (the {@code field} is {@code url}). */
  public static final ErrorCode URL_REFUSED = ErrorCode.of(400, "webhook_url_refused", "Webhook URL refused");
  /** No endpoint with this id. */
  public static final ErrorCode WEBHOOK_NOT_FOUND = ErrorCode.of(404, "webhook_not_found", "Webhook not found");
  /** No delivery with this id for this endpoint. */
  public static final ErrorCode DELIVERY_NOT_FOUND = ErrorCode.of(404, "delivery_not_found", "Delivery not found");

  private WebhooksErrors() {
  }
}
