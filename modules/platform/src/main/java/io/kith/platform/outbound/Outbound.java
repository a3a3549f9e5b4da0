package io.kith.platform.outbound;

import io.kith.platform.config.KithConfig;
import io.vertx.core.Future;
import io.vertx.core.Vertx;

/**
 * The node's outbound channels, chosen from the configuration: SMTP when {@code mail.host} is set, the signed SMS
 * webhook when {@code sms.endpoint} is set, and the {@link DevOutbox} for a channel without either.
 *
 * @param mailer      where mail goes
 * @param sms         where text messages go
 * @param description one line for the start-up log saying where each channel goes
 */
public record Outbound(Mailer mailer, SmsGateway sms, String description) {

  /** The channels of this node's configuration. */
  public static Outbound create(Vertx vertx, KithConfig config) {
    OutboundSettings settings = OutboundSettings.from(config);
    DevOutbox outbox = new DevOutbox(vertx, settings.outboxDir(), settings.outboxKeep());
    boolean smtp = !settings.mailHost().isEmpty();
    boolean webhook = !settings.smsEndpoint().isEmpty();
    String devNote = "development outbox " + settings.outboxDir().toAbsolutePath().normalize()
        + " (logged, not sent)";
    String description = "mail -> " + (smtp ? "SMTP " + settings.mailHost() + ":" + settings.mailPort() : devNote)
        + "; SMS -> " + (webhook ? "webhook " + settings.smsEndpoint() : devNote);
    return new Outbound(smtp ? new SmtpMailer(vertx, settings) : outbox,
        webhook ? new WebhookSms(vertx, settings) : outbox, description);
  }

  /** Releases the clients of the real channels. */
  public Future<Void> close() {
    Future<Void> mail = mailer instanceof SmtpMailer smtp ? smtp.close() : Future.succeededFuture();
    Future<Void> text = sms instanceof WebhookSms webhook ? webhook.close() : Future.succeededFuture();
    return Future.join(mail, text).mapEmpty();
  }
}
