package io.kith.platform.store;

/** A store that cannot start or cannot be reached; the message is one line telling the operator what to fix. */
public final class StoreStartException extends RuntimeException {

  /** Creates the exception. */
  public StoreStartException(String message) {
    super(message, null, false, false);
  }
}
