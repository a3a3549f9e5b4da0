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
import java.util.concurrent.atomic.AtomicLong;

/**
 * mongo-java-server's H2 backend, made to keep what it acknowledges and to stay quiet about ordinary events.
 *
 * <ul>
 *   <li>Its MVStore commits on its own only about once a second, so a killed process lost the last second of
 *   acknowledged writes (and a message sequence could be handed out twice). Here every command that changed the
 *   store commits before its reply is written: the reply is sent by the caller of {@link #handleMessage} after it
 *   returns. The commit writes the chunk to the file (the OS has it, which survives a process kill; not fsync, so
 *   a power loss may still cost the last writes). Concurrent writers share a commit: one that finds its change
 *   already committed by another returns at once. MVStore's background writer is off (its commits write
 *   asynchronously), so this class also rewrites mostly-dead chunks now and then, as that writer did.</li>
 *   <li>A duplicate key (11000) is an answer, not a server failure: it goes back to the client without the stack
 *   trace at ERROR that the wire handler logs for every exception.</li>
 *   <li>Non-unique indexes are not built by this server (queries scan); instead of a WARN per index, they are
 *   collected for one line at start-up ({@link #ignoredIndexes()}).</li>
 * </ul>
 */
final class CommittingH2Backend extends H2Backend {

  private static final int DUPLICATE_KEY = 11000;
  // Every this many commits, chunks less than COMPACT_FILL_RATE percent alive are rewritten, up to COMPACT_BYTES.
  private static final int COMPACT_EVERY = 256;
  private static final int COMPACT_FILL_RATE = 50;
  private static final int COMPACT_BYTES = 4 * 1024 * 1024;

  private final AtomicLong commits = new AtomicLong();

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
    // No background writer: its commits hand the file write to an executor and release the store lock before the
    // write is done, so a reply could go out while the change it reports is not yet in the file. Every commit is this
    // class's own, synchronous one.
    getMvStore().setAutoCommitDelay(0);
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

  // Always through commit(), never skipped after a hasUnsavedChanges() check: while another thread's commit is
  // under way that check already answers false for changes the commit has taken but not yet written, whereas
  // commit() waits for the store lock, so it returns only once those changes are in the file (or it wrote them).
  private void commitChanges() {
    MVStore store = getMvStore();
    if (store.isClosed()) {
      return;
    }
    store.commit();
    // Without the background writer nothing rewrites chunks that are mostly dead; now and then, do it here.
    if (commits.incrementAndGet() % COMPACT_EVERY == 0) {
      store.compact(COMPACT_FILL_RATE, COMPACT_BYTES);
      store.commit();
    }
  }
}
