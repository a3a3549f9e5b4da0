package io.kith.platform.outbound;

import io.vertx.core.Future;

/** Sends email: over SMTP ({@link SmtpMailer}) or, in development, into the {@link DevOutbox}. */
public interface Mailer {

  /** Sends one message; completes when the server (or the outbox) has taken it. */
  Future<Void> send(Mail mail);
}
