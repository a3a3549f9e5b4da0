package io.kith.platform.store;

import de.bwaldvogel.mongo.MongoBackend;
import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.ServerVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;

/**
 * The embedded MongoDB-wire-protocol server (mongo-java-server) for development and tests: on its H2 backend
 * persisting to a file (committed before each write is acknowledged, see {@link CommittingH2Backend}), or on any
 * other backend (tests use the in-memory one). It speaks the wire protocol of
 * MongoDB 5.0 but lacks geo queries, $text, TTL expiry and transactions (see STACK.md); Kith does not use them.
 */
public final class EmbeddedMongo implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(EmbeddedMongo.class);

  private final MongoServer server;
  private final MongoBackend backend;
  private final int port;

  private EmbeddedMongo(MongoServer server, MongoBackend backend, int port) {
    this.server = server;
    this.backend = backend;
    this.port = port;
  }

  /** Starts the server on its H2 backend with data in {@code dir/kith.mv}. */
  public static EmbeddedMongo startH2(Path dir, int port) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new StoreStartException("cannot create MongoDB data directory " + dir + ": " + e.getMessage());
    }
    String file = dir.toAbsolutePath().resolve("kith.mv").toString();
    EmbeddedMongo mongo = start(() -> new CommittingH2Backend(file), port);
    LOG.info("Started embedded MongoDB-wire server (H2) on 127.0.0.1:{} with data in {}", mongo.port, dir);
    return mongo;
  }

  /** Starts the server on the backend {@code backend} supplies. */
  public static EmbeddedMongo start(Supplier<MongoBackend> backendFactory, int port) {
    int actualPort = port == 0 ? FreePorts.pick() : port;
    if (!FreePorts.isFree(actualPort)) {
      throw new StoreStartException("embedded MongoDB port " + actualPort
          + " is in use: set mongo.embedded-port (KITH_MONGO_EMBEDDED_PORT) to a free port or 0");
    }
    MongoBackend backend;
    try {
      backend = backendFactory.get();
    } catch (RuntimeException e) {
      throw new StoreStartException("embedded MongoDB cannot open its data: " + e.getMessage());
    }
    backend.version(ServerVersion.MONGO_5_0);
    MongoServer server = new MongoServer(backend);
    try {
      server.bind("127.0.0.1", actualPort);
    } catch (RuntimeException e) {
      backend.close();
      throw new StoreStartException("embedded MongoDB failed to listen on port " + actualPort + ": " + e.getMessage());
    }
    return new EmbeddedMongo(server, backend, actualPort);
  }

  /**
   * The non-unique indexes declared so far that this server does not build ({@code db.collection.index}; queries on
   * their collections scan it). Empty on a backend that does not report them.
   */
  public List<String> ignoredIndexes() {
    return backend instanceof CommittingH2Backend ? ((CommittingH2Backend) backend).ignoredIndexes() : List.of();
  }

  /** The connection string. */
  public String url() {
    return "mongodb://127.0.0.1:" + port;
  }

  /** The TCP port. */
  public int port() {
    return port;
  }

  /** Stops listening and closes the backend (flushing H2 to disk). */
  @Override
  public void close() {
    try {
      // shutdown, not shutdownNow: the latter warns about every client still connected, which is routine here (the
      // event loops' graceful stop closes those connections all the same)
      server.shutdown();
    } finally {
      backend.close();
    }
  }
}
