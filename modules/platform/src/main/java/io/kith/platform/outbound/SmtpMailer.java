package io.kith.platform.outbound;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.mail.LoginOption;
import io.vertx.ext.mail.MailClient;
import io.vertx.ext.mail.MailConfig;
import io.vertx.ext.mail.MailMessage;
import io.vertx.ext.mail.StartTLSOptions;

/** Sends mail over SMTP with vertx-mail-client, as configured in the {@code mail} section. */
public final class SmtpMailer implements Mailer {

  private final MailClient client;
  private final String from;

  /** A mailer over the SMTP server of {@code settings} (whose host is set). */
  public SmtpMailer(Vertx vertx, OutboundSettings settings) {
    MailConfig config = new MailConfig()
        .setHostname(settings.mailHost())
        .setPort(settings.mailPort())
        .setStarttls(StartTLSOptions.valueOf(settings.mailStarttls()))
        .setSsl(settings.mailSsl());
    if (settings.mailUsername().isEmpty()) {
      config.setLogin(LoginOption.DISABLED);
    } else {
      config.setLogin(LoginOption.REQUIRED).setUsername(settings.mailUsername()).setPassword(settings.mailPassword());
    }
    this.client = MailClient.create(vertx, config);
    this.from = settings.mailFrom();
  }

  @Override
  public Future<Void> send(Mail mail) {
    MailMessage message = new MailMessage().setFrom(from).setTo(mail.to()).setSubject(mail.subject())
        .setText(mail.text()).setHtml(mail.html());
    return client.sendMail(message).mapEmpty();
  }

  /** Closes the connection pool. */
  public Future<Void> close() {
    return client.close();
  }
}
