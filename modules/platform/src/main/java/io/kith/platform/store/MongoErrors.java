package io.kith.platform.store;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoException;

/** Recognises MongoDB failures by their error codes (never by message text). */
public final class MongoErrors {

  /** Duplicate key in a unique index. */
  public static final int DUPLICATE_KEY = 11000;

  private MongoErrors() {
  }

  /**
   * The index of the first write that failed in an ordered bulk write (the writes before it were made, those after it
   * were not tried), or -1 when {@code failure} is no such report (the whole command failed: any write may have
   * landed or not).
   */
  public static int failedWriteIndex(Throwable failure) {
    for (Throwable t = failure; t != null && t.getCause() != t; t = t.getCause()) {
      if (t instanceof MongoBulkWriteException && !((MongoBulkWriteException) t).getWriteErrors().isEmpty()) {
        return ((MongoBulkWriteException) t).getWriteErrors().get(0).getIndex();
      }
    }
    return -1;
  }

  /** Whether {@code failure} (or its cause) is a duplicate-key error. */
  public static boolean isDuplicateKey(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof MongoBulkWriteException) {
        return ((MongoBulkWriteException) t).getWriteErrors().stream().anyMatch(e -> e.getCode() == DUPLICATE_KEY);
      }
      if (t instanceof MongoException && ((MongoException) t).getCode() == DUPLICATE_KEY) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }
}
