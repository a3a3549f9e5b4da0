package io.kith.app.support;

/** A user registered over HTTP and the access token of its first session. */
public record User(long id, String username, String access) {

  /** The id as a path segment. */
  public String path() {
    return Long.toString(id);
  }

  /** The user's own real-time (event-bus) address. */
  public String address() {
    return "kith.user." + id;
  }
}
