package io.kith.platform.error;

import java.util.Objects;

/**
 * A stable failure code: the HTTP status it maps to, a machine-readable code that clients may switch on
 * (lower snake case, never renamed once published), and a short human title.
 *
 * <p>Each domain declares its codes as constants in its {@code -api} artifact (for example
 * {@code AccountsErrors.USERNAME_TAKEN}); the common ones live in {@link KithErrors}.
 */
public final class ErrorCode {

  private final int status;
  private final String code;
  private final String title;

  private ErrorCode(int status, String code, String title) {
    if (status < 400 || status > 599) {
      throw new IllegalArgumentException("status must be an HTTP error status: " + status);
    }
    if (!code.matches("[a-z][a-z0-9_.]*")) {
      throw new IllegalArgumentException("code must be lower snake case: " + code);
    }
    this.status = status;
    this.code = code;
    this.title = Objects.requireNonNull(title);
  }

  /** Declares a code. */
  public static ErrorCode of(int status, String code, String title) {
    return new ErrorCode(status, code, title);
  }

  /** The HTTP status this failure maps to. */
  public int status() {
    return status;
  }

  /** The stable machine-readable code. */
  public String code() {
    return code;
  }

  /** A short human summary of the problem type. */
  public String title() {
    return title;
  }

  /** A failure of this code with a detail the user can act on. */
  public io.vertx.serviceproxy.ServiceException failure(String detail) {
    return Failures.of(this, detail);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ErrorCode && ((ErrorCode) o).code.equals(code) && ((ErrorCode) o).status == status;
  }

  @Override
  public int hashCode() {
    return code.hashCode();
  }

  @Override
  public String toString() {
    return status + " " + code;
  }
}
