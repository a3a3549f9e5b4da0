package io.kith.accounts.service;

import io.kith.platform.outbound.Outbound;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * Sends an accounts message to an email address or a phone in the background: the request that caused it never waits
 * for SMTP or the SMS provider, and a failed send is retried a few times with growing pauses, then logged.
 */
final class Messenger {

  private static final Logger LOG = LoggerFactory.getLogger(Messenger.class);
  /** Pauses before the second and third attempts. */
  private static final long[] BACKOFF_MS = {2_000, 10_000};

  private final Vertx vertx;
  private final Outbound outbound;
  private final Messages messages;

  Messenger(Vertx vertx, Outbound outbound, Messages messages) {
    this.vertx = vertx;
    this.outbound = outbound;
    this.messages = messages;
  }

  /**
   * Sends {@code kind} to {@code to} over {@code channel} ({@code email} or {@code phone}) in {@code locale}, without
   * waiting.
   */
  void send(String channel, String to, String kind, String locale, Map<String, String> values) {
    attempt(() -> "email".equals(channel)
        ? outbound.mailer().send(messages.mail(kind, locale, to, values))
        : outbound.sms().send(messages.sms(kind, locale, to, values)), channel, kind, 0);
  }

  /**
   * Sends {@code kind} about the account itself to its verified email, else its verified phone (nothing when it has
   * neither), in the account's locale; {@code username} is among the values.
   */
  void tellAccount(JsonObject account, String kind, Map<String, String> values) {
    String email = account.getString("email_lc");
    String channel = email != null ? "email" : "phone";
    String to = email != null ? email : account.getString("phone");
    if (to != null) {
      Map<String, String> all = new HashMap<>(values);
      all.put("username", account.getString("username"));
      send(channel, to, kind, Messages.locale(account.getString("locale"), null), all);
    }
  }

  private void attempt(java.util.function.Supplier<Future<Void>> send, String channel, String kind, int tried) {
    send.get().onFailure(e -> {
      if (tried < BACKOFF_MS.length) {
        vertx.setTimer(BACKOFF_MS[tried], id -> attempt(send, channel, kind, tried + 1));
      } else {
        LOG.warn("Could not send the {} message {} after {} attempts: {}", channel, kind, tried + 1, e.toString());
      }
    });
  }
}
