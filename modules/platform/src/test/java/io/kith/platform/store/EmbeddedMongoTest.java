package io.kith.platform.store;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.kith.platform.testkit.Await;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.UpdateOptions;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The embedded H2-backed server as Kith starts it: quiet about ordinary events, and it keeps what it is given. */
@ExtendWith(VertxExtension.class)
@Timeout(120)
class EmbeddedMongoTest {

  @TempDir
  Path dir;

  private final ListAppender<ILoggingEvent> events = new ListAppender<>();
  private Logger serverLogger;
  private Level serverLevel;

  @BeforeEach
  void captureServerLogs() {
    // everything the server logs, whatever the test configuration's level for it
    serverLogger = (Logger) LoggerFactory.getLogger("de.bwaldvogel");
    serverLevel = serverLogger.getLevel();
    serverLogger.setLevel(Level.ALL);
    events.start();
    serverLogger.addAppender(events);
  }

  @AfterEach
  void restoreServerLogs() {
    serverLogger.detachAppender(events);
    serverLogger.setLevel(serverLevel);
  }

  private List<ILoggingEvent> warnings() {
    return events.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).toList();
  }

  private static MongoClient client(Vertx vertx, EmbeddedMongo mongo) {
    return MongoClient.create(vertx, new JsonObject().put("connection_string", mongo.url()).put("db_name", "t"));
  }

  @Test
  @DisplayName("a duplicate key answers code 11000 without the server logging an error or a stack trace")
  void duplicateKeyIsQuiet(Vertx vertx) {
    try (EmbeddedMongo mongo = EmbeddedMongo.startH2(dir, 0)) {
      MongoClient client = client(vertx, mongo);
      Await.result(client.createIndexWithOptions("people", new JsonObject().put("phone", 1),
          new IndexOptions().unique(true)));
      Await.result(client.insert("people", new JsonObject().put("_id", 1).put("phone", "+100")));
      Await.result(client.insert("people", new JsonObject().put("_id", 2).put("phone", "+200")));

      Throwable conflict = Await.failure(client.findOneAndUpdateWithOptions("people",
          new JsonObject().put("_id", 2), new JsonObject().put("$set", new JsonObject().put("phone", "+100")),
          new FindOptions(), new UpdateOptions().setReturningNewDocument(true)));

      Await.result(client.close());
      assertTrue(MongoErrors.isDuplicateKey(conflict), conflict.toString());
      assertEquals(List.of(), warnings().stream().map(ILoggingEvent::getFormattedMessage).toList());
    }
  }

  @Test
  @DisplayName("committing every write keeps the data file near the size of its data, not of every commit")
  void fileStaysSmall(Vertx vertx) throws Exception {
    try (EmbeddedMongo mongo = EmbeddedMongo.startH2(dir, 0)) {
      MongoClient client = client(vertx, mongo);
      for (int i = 0; i < 2000; i++) {
        Await.result(client.insert("notes", new JsonObject().put("_id", i).put("text", "note " + i)));
      }
      Await.result(client.close());
      // each commit writes a chunk of some 30 KB; kept for MVStore's default 45 s, 2000 of them make ~60 MB
      long size = java.nio.file.Files.size(dir.resolve("kith.mv"));
      assertTrue(size < 24L * 1024 * 1024, "data file of " + size / 1024 + " KiB");
    }
  }

  @Test
  @DisplayName("non-unique indexes are listed as not built instead of one warning each; unique ones are enforced")
  void secondaryIndexesAreListedNotWarned(Vertx vertx) {
    try (EmbeddedMongo mongo = EmbeddedMongo.startH2(dir, 0)) {
      MongoClient client = client(vertx, mongo);
      Await.result(client.createIndexWithOptions("posts", new JsonObject().put("author", 1).put("_id", -1),
          new IndexOptions().name("by_author")));
      Await.result(client.createIndexWithOptions("posts", new JsonObject().put("slug", 1),
          new IndexOptions().name("slug").unique(true)));

      Await.result(client.close());
      assertEquals(List.of("t.posts.by_author"), mongo.ignoredIndexes());
      assertEquals(List.of(), warnings().stream().map(ILoggingEvent::getFormattedMessage).toList());
    }
    // reopened, the declared indexes come back from the file: still listed, still not warned about
    try (EmbeddedMongo mongo = EmbeddedMongo.startH2(dir, 0)) {
      assertEquals(List.of("t.posts.by_author"), mongo.ignoredIndexes());
      assertEquals(List.of(), warnings().stream().map(ILoggingEvent::getFormattedMessage).toList());
    }
  }
}
