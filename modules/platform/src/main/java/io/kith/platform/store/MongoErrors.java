package io.kith.platform.store;

import com.mongodb.MongoBulkWriteException;
import com.mongodb.MongoException;

/** Recognises MongoDB failures by their error codes (never by message text). */
public final class MongoErrors {

  /** Duplicate key in a unique index. */
  public static final int DUPLICATE_KEY = 11000;

  private MongoErrors() {
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
