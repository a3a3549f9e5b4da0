package io.kith.platform.config;

/** A configuration that cannot be used; its message is one line telling the operator what to fix. */
public final class ConfigException extends RuntimeException {

  /** Creates the exception with an operator-facing message. */
  public ConfigException(String message) {
    super(message, null, false, false);
  }
}
