package io.kith.platform.testkit;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the development outbox that test nodes write to (no mail server or SMS endpoint configured): one JSON file per
 * message under the test JVM's data directory, as {@code io.kith.platform.outbound.DevOutbox} writes them.
 */
public final class Outbox {

  /** The data directory of every test node of this JVM. */
  static final Path DATA_DIR = tempDir();
  private static final Pattern CODE = Pattern.compile("\\b(\\d{6})\\b");

  private Outbox() {
  }

  private static Path tempDir() {
    try {
      Path dir = Files.createTempDirectory("kith-test-data");
      dir.toFile().deleteOnExit();
      return dir;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The newest message of {@code kind} to {@code to} (an email or phone), or null. */
  public static JsonObject newest(String to, String kind) {
    Path dir = DATA_DIR.resolve("outbox");
    if (!Files.isDirectory(dir)) {
      return null;
    }
    try (Stream<Path> files = Files.list(dir)) {
      // only finished messages: DevOutbox writes "<name>.json.part" first and moves it into place
      List<Path> sorted = files.filter(f -> f.getFileName().toString().endsWith(".json")).sorted().toList();
      for (int i = sorted.size() - 1; i >= 0; i--) {
        JsonObject message = new JsonObject(Files.readString(sorted.get(i)));
        if (to.equals(message.getString("to")) && kind.equals(message.getString("kind"))) {
          return message;
        }
      }
      return null;
    } catch (IOException e) {
      // a file pruned while listing: read again on the next poll
      return null;
    }
  }

  /** Waits for the newest verification code sent to {@code to} and completes with its six digits. */
  public static Future<String> code(Vertx vertx, String to) {
    String[] found = new String[1];
    return Poll.until(vertx, Duration.ofSeconds(20), "a verification code in the outbox for " + to, () -> {
      JsonObject message = newest(to, "verification_code");
      if (message != null) {
        Matcher m = CODE.matcher(message.getString("text"));
        if (m.find()) {
          found[0] = m.group(1);
        }
      }
      return Future.succeededFuture(found[0] != null);
    }).map(v -> found[0]);
  }
}
