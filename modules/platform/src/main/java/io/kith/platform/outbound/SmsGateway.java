package io.kith.platform.outbound;

import io.vertx.core.Future;

/**
 * Sends text messages through a provider. {@link WebhookSms} posts each message to a configurable endpoint, so any
 * SMS provider can be plugged in behind a small adapter; in development messages go to the {@link DevOutbox}.
 */
public interface SmsGateway {

  /** Sends one message; completes when the provider (or the outbox) has taken it. */
  Future<Void> send(Sms sms);
}
