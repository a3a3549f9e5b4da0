package io.kith.app.accounts;

import com.icegreen.greenmail.util.GreenMail;
import com.icegreen.greenmail.util.ServerSetupTest;
import io.kith.platform.outbound.WebhookSms;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.mail.BodyPart;
import jakarta.mail.Message;
import jakarta.mail.Multipart;
import jakarta.mail.internet.MimeMessage;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Where a test node's messages arrive: a real SMTP server in-process (GreenMail, on a free port) and a local HTTP
 * endpoint standing in for an SMS provider, which accepts a post only when its signature checks out exactly as the
 * platform README documents it (HMAC-SHA256 of timestamp, '.', body, keyed with {@code sms.secret}; a timestamp
 * within five minutes). {@link #config()} points a node at both. Reads wait for the next message to an address that
 * the test has not read yet.
 */
final class Inboxes implements AutoCloseable {

  static final String SMS_SECRET = "test-sms-secret-0123456789abcdefghijklmnop";
  private static final Pattern CODE = Pattern.compile("\\b(\\d{6})\\b");

  /** One received mail: subject, plain text and HTML parts. */
  record Mail(String to, String subject, String text, String html) {

    /** The six-digit code in the subject. */
    String code() {
      return Inboxes.code(subject);
    }
  }

  private final GreenMail smtp = new GreenMail(ServerSetupTest.SMTP.dynamicPort());
  private final Vertx vertx = Vertx.vertx();
  private final HttpServer smsServer;
  private final List<JsonObject> texts = new CopyOnWriteArrayList<>();
  private final Map<String, Integer> mailsRead = new ConcurrentHashMap<>();
  private final Map<String, Integer> textsRead = new ConcurrentHashMap<>();
  /** Posts refused for a bad signature. */
  final List<String> refused = new CopyOnWriteArrayList<>();

  Inboxes() {
    smtp.start();
    smsServer = Await.result(vertx.createHttpServer().requestHandler(request -> request.body().onSuccess(body -> {
      String timestamp = request.getHeader(WebhookSms.TIMESTAMP);
      String signature = request.getHeader(WebhookSms.SIGNATURE);
      if (!signed(timestamp, signature, body.getBytes())) {
        refused.add(String.valueOf(signature));
        request.response().setStatusCode(401).end();
        return;
      }
      texts.add(body.toJsonObject());
      request.response().setStatusCode(204).end();
    })).listen(0, "127.0.0.1"));
  }

  /** Checks a webhook signature the way a receiver should: recompute, compare in constant time, refuse stale times. */
  private static boolean signed(String timestamp, String signature, byte[] body) {
    if (timestamp == null || signature == null) {
      return false;
    }
    long age = Math.abs(System.currentTimeMillis() / 1000 - Long.parseLong(timestamp));
    String expected = WebhookSms.signature(SMS_SECRET.getBytes(StandardCharsets.UTF_8), timestamp, body);
    return age <= 300 && MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
        signature.getBytes(StandardCharsets.UTF_8));
  }

  /** The mail and sms configuration sections that send to these inboxes. */
  JsonObject config() {
    return new JsonObject()
        .put("mail", new JsonObject().put("host", "127.0.0.1").put("port", smtp.getSmtp().getPort())
            .put("starttls", "DISABLED").put("from", "Kith <no-reply@kith.test>"))
        .put("sms", new JsonObject().put("endpoint", "http://127.0.0.1:" + smsServer.actualPort() + "/sms")
            .put("secret", SMS_SECRET));
  }

  /** The six-digit code in a text. */
  static String code(String text) {
    Matcher m = CODE.matcher(text);
    if (!m.find()) {
      fail("no six-digit code in: " + text);
    }
    return m.group(1);
  }

  /** Waits for the next unread mail to {@code to}. */
  Mail nextMail(String to) {
    int seen = mailsRead.getOrDefault(to, 0);
    List<Mail> mails = waitFor("mail #" + (seen + 1) + " to " + to, () -> mailsTo(to), seen + 1);
    mailsRead.put(to, seen + 1);
    return mails.get(seen);
  }

  /** Waits for the next unread text message to {@code phone}: {@code {to, text, kind}}. */
  JsonObject nextText(String phone) {
    int seen = textsRead.getOrDefault(phone, 0);
    List<JsonObject> mine = waitFor("text #" + (seen + 1) + " to " + phone, () -> textsTo(phone), seen + 1);
    textsRead.put(phone, seen + 1);
    return mine.get(seen);
  }

  /** All mail received for {@code to} so far (read or not). */
  List<Mail> mailsTo(String to) {
    List<Mail> out = new ArrayList<>();
    for (MimeMessage message : smtp.getReceivedMessages()) {
      try {
        if (message.getRecipients(Message.RecipientType.TO)[0].toString().equalsIgnoreCase(to)) {
          out.add(parse(to, message));
        }
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    return out;
  }

  /** All text messages received for {@code phone} so far (read or not). */
  List<JsonObject> textsTo(String phone) {
    return texts.stream().filter(t -> phone.equals(t.getString("to"))).toList();
  }

  private static Mail parse(String to, MimeMessage message) throws Exception {
    String text = null;
    String html = null;
    Object content = message.getContent();
    if (content instanceof Multipart multipart) {
      for (int i = 0; i < multipart.getCount(); i++) {
        BodyPart part = multipart.getBodyPart(i);
        if (part.isMimeType("text/plain")) {
          text = String.valueOf(part.getContent());
        } else if (part.isMimeType("text/html")) {
          html = String.valueOf(part.getContent());
        }
      }
    } else {
      text = String.valueOf(content);
    }
    return new Mail(to, message.getSubject(), text, html);
  }

  private <T> List<T> waitFor(String what, java.util.function.Supplier<List<T>> read, int count) {
    Await.result(Poll.until(vertx, AccountsKith.WAIT, Duration.ofMillis(AccountsKith.POLL_MILLIS),
        "waiting for " + what, () -> Future.succeededFuture(read.get().size() >= count)));
    return read.get();
  }

  @Override
  public void close() {
    smtp.stop();
    Await.result(vertx.close());
  }

  /** Texts as a JSON array (for failure messages). */
  JsonArray texts() {
    return new JsonArray(new ArrayList<>(texts));
  }
}
