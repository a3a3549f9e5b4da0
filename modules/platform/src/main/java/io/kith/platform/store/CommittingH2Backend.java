package io.kith.platform.store;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.EmptyIndex;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.IndexKey;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.exception.MongoServerError;
import de.bwaldvogel.mongo.wire.message.MongoMessage;
import io.netty.channel.Channel;
import org.h2.mvstore.MVStore;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * mongo-java-server's H2 backend, made to keep what it acknowledges and to stay quiet about ordinary events.
 *
 * <ul>
 *   <li>Its MVStore commits on its own only about once a second, so a killed process lost the last second of
 *   acknowledged writes (and a message sequence could be handed out twice). Here every command that changed the
 *   store commits before its reply is written: the reply is sent by the caller of {@link #handleMessage} after it
 *   returns. The commit writes the chunk to the file (the OS has it, which survives a process kill; not fsync, so
 *   a power loss may still cost the last writes). Concurrent writers share a commit: one that finds its change
 *   already committed by another returns at once.</li>
 *   <li>A duplicate key (11000) is an answer, not a server failure: it goes back to the client without the stack
 *   trace at ERROR that the wire handler logs for every exception.</li>
 *   <li>Non-unique indexes are not built by this server (queries scan); instead of a WARN per index, they are
 *   collected for one line at start-up ({@link #ignoredIndexes()}).</li>
 * </ul>
 */
final class CommittingH2Backend extends H2Backend {

  private static final int DUPLICATE_KEY = 11000;

  // No initializer on purpose: H2Backend's constructor reopens the existing databases, which records their ignored
  // indexes before this class's field initializers would run (and would reset the set).
  private Set<String> ignored;

  CommittingH2Backend(String fileName) {
    super(fileName);
    // A commit per write makes a chunk per write, and MVStore keeps replaced chunks for 45 s by default (against a
    // disk that has not flushed them at a power loss): hundreds of MB for a burst of writes. A killed process cannot
    // lose what write(2) handed to the OS, so replaced chunks may be reused at once; the price is that a power loss
    // may damage this development store, not only lose its last writes.
    getMvStore().setRetentionTime(0);
  }

  @Override
  protected MongoDatabase openOrCreateDatabase(String databaseName) {
    return new H2Database(databaseName, getMvStore(), getCursorRegistry()) {
      @Override
      protected Index<Object> openOrCreateSecondaryIndex(String collectionName, String indexName,
                                                         List<IndexKey> keys, boolean sparse) {
        ignore(databaseName + "." + collectionName + "." + indexName);
        return new EmptyIndex<>(indexName, keys);
      }
    };
  }

  private synchronized void ignore(String index) {
    if (ignored == null) {
      ignored = new TreeSet<>();
    }
    ignored.add(index);
  }

  /** The non-unique indexes declared so far that this server does not build ({@code db.collection.index}). */
  synchronized List<String> ignoredIndexes() {
    return ignored == null ? List.of() : List.copyOf(ignored);
  }

  @Override
  public Document handleMessage(MongoMessage message) {
    try {
      return super.handleMessage(message);
    } catch (MongoServerError e) {
      if (e.getCode() != DUPLICATE_KEY) {
        throw e;
      }
      // the same document the wire handler answers with, without its log line
      Document error = new Document();
      error.put("$err", e.getMessageWithoutErrorCode());
      error.put("errmsg", e.getMessageWithoutErrorCode());
      error.put("code", e.getCode());
      error.putIfNotNull("codeName", e.getCodeName());
      error.put("ok", 0);
      return error;
    }
  }

  @Override
  public Document handleCommand(Channel channel, String databaseName, String command, Document query) {
    try {
      return super.handleCommand(channel, databaseName, command, query);
    } finally {
      // also after a failed command: it may have changed something before failing
      commitChanges();
    }
  }

  private void commitChanges() {
    MVStore store = getMvStore();
    if (store.hasUnsavedChanges() && !store.isClosed()) {
      store.commit();
    }
  }
}
