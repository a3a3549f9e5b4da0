package io.kith.bench;

/** A command line the bench refuses, with a message that says what to change. */
public final class UsageException extends Exception {

  private static final long serialVersionUID = 1L;

  /** @param message what is wrong and what is expected */
  public UsageException(String message) {
    super(message);
  }
}
