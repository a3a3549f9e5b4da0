package io.kith.platform.outbound;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Development delivery: each message is logged and written as one JSON file under {@code kith.data-dir/outbox}
 * ({@code <time>-<seq>-mail.json} or {@code -sms.json}, with {@code channel, kind, to, subject?, text, html?}), so an
 * operator or a test without a mail server reads what would have been sent. Only the newest {@code outbox-keep}
 * files are kept. File work runs on a worker thread.
 */
public final class DevOutbox implements Mailer, SmsGateway {

  private static final Logger LOG = LoggerFactory.getLogger(DevOutbox.class);

  private final Vertx vertx;
  private final Path dir;
  private final int keep;
  private final AtomicLong seq = new AtomicLong();

  /** An outbox in {@code dir} keeping the newest {@code keep} messages. */
  public DevOutbox(Vertx vertx, Path dir, int keep) {
    this.vertx = vertx;
    this.dir = dir;
    this.keep = keep;
  }

  @Override
  public Future<Void> send(Mail mail) {
    LOG.info("Outbox (development, not sent): mail {} to {}: {}\n{}", mail.kind(), mail.to(), mail.subject(),
        mail.text());
    return write("mail", new JsonObject().put("channel", "mail").put("kind", mail.kind()).put("to", mail.to())
        .put("subject", mail.subject()).put("text", mail.text()).put("html", mail.html()));
  }

  @Override
  public Future<Void> send(Sms sms) {
    LOG.info("Outbox (development, not sent): SMS {} to {}: {}", sms.kind(), sms.to(), sms.text());
    return write("sms", new JsonObject().put("channel", "sms").put("kind", sms.kind()).put("to", sms.to())
        .put("text", sms.text()));
  }

  private Future<Void> write(String channel, JsonObject message) {
    // the time first and zero-padded, so that names sort oldest first
    String name = String.format("%015d-%06d-%s.json", System.currentTimeMillis(), seq.incrementAndGet() % 1_000_000,
        channel);
    return vertx.executeBlocking(() -> {
      Files.createDirectories(dir);
      // written under another name and moved into place, so a reader of the outbox never sees half a message
      Path partial = dir.resolve(name + ".part");
      Files.writeString(partial, message.encodePrettily(), StandardCharsets.UTF_8);
      Files.move(partial, dir.resolve(name), StandardCopyOption.ATOMIC_MOVE);
      prune();
      return null;
    }, false);
  }

  /** Deletes all but the newest {@code keep} files. */
  private void prune() throws IOException {
    List<Path> files;
    try (Stream<Path> listing = Files.list(dir)) {
      files = listing.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
    }
    for (int i = 0; i < files.size() - keep; i++) {
      Files.deleteIfExists(files.get(i));
    }
  }
}
