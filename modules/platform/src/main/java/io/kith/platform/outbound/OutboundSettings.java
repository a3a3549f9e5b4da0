package io.kith.platform.outbound;

import io.kith.platform.config.Bounds;
import io.kith.platform.config.KithConfig;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.util.Locale;
import java.util.Set;

/**
 * The {@code mail} and {@code sms} configuration sections. An empty {@code mail.host} or {@code sms.endpoint} sends
 * that channel to the development outbox under {@code kith.data-dir/outbox}.
 *
 * @param mailHost     SMTP host, empty for the outbox
 * @param mailPort     SMTP port
 * @param mailStarttls STARTTLS use: {@code DISABLED}, {@code OPTIONAL} or {@code REQUIRED}
 * @param mailSsl      whether the connection is TLS from the start (SMTPS, port 465)
 * @param mailUsername SMTP login, empty for none
 * @param mailPassword SMTP password
 * @param mailFrom     the From address
 * @param outboxKeep   messages the development outbox keeps (the newest)
 * @param outboxDir    where the development outbox writes
 * @param smsEndpoint  the URL each text message is posted to, empty for the outbox
 * @param smsSecret    the key of the webhook signature
 * @param smsTimeoutMs how long a post to the endpoint may take
 */
public record OutboundSettings(String mailHost, int mailPort, String mailStarttls, boolean mailSsl,
                               String mailUsername, String mailPassword, String mailFrom, int outboxKeep,
                               Path outboxDir, String smsEndpoint, String smsSecret, int smsTimeoutMs) {

  private static final Set<String> STARTTLS = Set.of("DISABLED", "OPTIONAL", "REQUIRED");

  /** Reads and checks both sections of {@code config}. */
  public static OutboundSettings from(KithConfig config) {
    JsonObject mail = config.section("mail");
    JsonObject sms = config.section("sms");
    Bounds m = Bounds.of("mail", mail);
    Bounds s = Bounds.of("sms", sms);
    String starttls = m.text("starttls").toUpperCase(Locale.ROOT);
    if (!STARTTLS.contains(starttls)) {
      throw new IllegalArgumentException("mail.starttls must be DISABLED, OPTIONAL or REQUIRED: " + starttls);
    }
    String endpoint = s.text("endpoint");
    String secret = s.text("secret");
    if (!endpoint.isEmpty() && !endpoint.startsWith("https://") && !endpoint.startsWith("http://")) {
      throw new IllegalArgumentException("sms.endpoint must be an https:// URL: " + endpoint);
    }
    if (!endpoint.isEmpty() && secret.length() < 32) {
      throw new IllegalArgumentException("sms.secret must be at least 32 characters when sms.endpoint is set");
    }
    Path dataDir = Path.of(config.section("kith").getString("data-dir", "./data"));
    return new OutboundSettings(m.text("host"), m.within("port", 1, 65535), starttls,
        m.flag("ssl"), m.text("username"), m.text("password"), m.text("from"), m.within("outbox-keep", 1, 100_000),
        dataDir.resolve("outbox"), endpoint, secret, s.within("timeout-ms", 100, 60_000));
  }
}
