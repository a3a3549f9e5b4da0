package io.kith.gateway.http;

import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.PlatformHandler;

import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Gives every request an id: the client's (or the proxy's) {@value #HEADER} when it is 1 to 64 letters, digits and
 * {@code . _ : -}, a new one otherwise (a header of any other shape could forge log lines or fill them). The id is
 * echoed in the {@value #HEADER} response header, ends the access log line ({@link AccessLog}) and is the
 * {@code request_id} member of problem bodies ({@link FailureHandler}), so a user's report of a failure leads to its
 * log lines.
 */
public final class RequestIds implements PlatformHandler {

  /** The request and response header. */
  public static final String HEADER = "X-Request-Id";
  private static final String KEY = "kith.request-id";
  private static final Pattern ACCEPTED = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

  @Override
  public void handle(RoutingContext rc) {
    String given = rc.request().getHeader(HEADER);
    String id = given != null && ACCEPTED.matcher(given).matches() ? given : made();
    rc.put(KEY, id);
    rc.response().putHeader(HEADER, id);
    rc.next();
  }

  /** The id of the request, or null when it did not pass this handler. */
  public static String of(RoutingContext rc) {
    return rc.get(KEY);
  }

  // 128 random bits in hex, as long as a UUID without its dashes; not a secret, so no SecureRandom on the event loop
  private static String made() {
    ThreadLocalRandom random = ThreadLocalRandom.current();
    return String.format("%016x%016x", random.nextLong(), random.nextLong());
  }
}
