package io.kith.gateway.bridge;

import io.kith.platform.bus.Addresses;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.bridge.BaseBridgeEvent;
import io.vertx.ext.bridge.BridgeEventType;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The headers of a client's bridge frame, read the way {@link BridgeGuard} decides on them: the credential taken out,
 * the headers the guard stamps or the bridges would apply as delivery options dropped, and a header the bridges
 * cannot forward refused. Names are compared ignoring case: the bridges turn headers into a case-insensitive multi-map
 * whose first value wins, so replacing only the exact name would let {@code Kith-Sender} through.
 */
final class FrameHeaders {

  private static final String BEARER = "bearer ";
  private static final String AUTHORIZATION = "authorization";
  /**
   * Lower-cased names of client headers that are never forwarded (the credential is read first): the sender the
   * guard stamps, and the TCP bridge's delivery options, which it would otherwise apply as the client asks.
   */
  private static final Set<String> DROPPED_HEADERS = Set.of(AUTHORIZATION,
      Addresses.SENDER_HEADER.toLowerCase(Locale.ROOT), "timeout", "localonly", "codecname");

  /**
   * A frame's headers, read.
   *
   * @param credential the {@code authorization} header's value, or null
   * @param forwarded  the headers that may go on with the frame
   * @param refusal    null, or the error text the frame is refused with ({@link BridgeGuard#DENIED},
   *                   {@link BridgeGuard#INVALID_FRAME})
   */
  record Cleaned(String credential, JsonObject forwarded, String refusal) {
  }

  private FrameHeaders() {
  }

  /**
   * Reads the headers of {@code raw} and replaces them there by the ones that may be forwarded, so that refused and
   * non-forwarded frames never carry the credential further either.
   */
  static Cleaned clean(JsonObject raw, BridgeConnection conn) {
    Object rawHeaders = raw.getValue("headers");
    if (rawHeaders != null && !(rawHeaders instanceof JsonObject)) {
      return new Cleaned(null, null, BridgeGuard.DENIED);
    }
    JsonObject headers = (JsonObject) rawHeaders;
    JsonObject forwarded = new JsonObject();
    String credential = null;
    if (headers != null) {
      for (Map.Entry<String, Object> header : headers) {
        String name = header.getKey().toLowerCase(Locale.ROOT);
        if (name.equals(AUTHORIZATION)) {
          String presented = String.valueOf(header.getValue());
          if (credential != null && !credential.equals(presented)) {
            // two different credentials on one frame: do not pick one
            return new Cleaned(null, null, BridgeGuard.DENIED);
          }
          credential = presented;
        } else if (!DROPPED_HEADERS.contains(name) && header.getValue() != null) {
          if (!forwardable(header.getKey(), header.getValue())) {
            // the bridge would throw building the message's headers, and the client would hear nothing
            conn.mistake("header the bridge cannot forward", "a name or value HTTP does not allow");
            return new Cleaned(null, null, BridgeGuard.INVALID_FRAME);
          }
          forwarded.put(header.getKey(), header.getValue());
        }
      }
      raw.put("headers", forwarded);
    }
    return new Cleaned(credential, forwarded, null);
  }

  /** The token of an {@code authorization} header of the bearer scheme (any case), or null. */
  static String bearer(String header) {
    if (header == null || header.length() <= BEARER.length()
        || !header.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
      return null;
    }
    return header.substring(BEARER.length()).trim();
  }

  /**
   * The address a client waits on for the answer to this frame: the reply address of a send, the address of a
   * registration; null for others.
   */
  static String answerAddress(BaseBridgeEvent event) {
    JsonObject raw = event.getRawMessage();
    if (raw == null) {
      return null;
    }
    Object address = event.type() == BridgeEventType.SEND ? raw.getValue("replyAddress")
        : event.type() == BridgeEventType.REGISTER ? raw.getValue("address") : null;
    return address instanceof String ? (String) address : null;
  }

  /** Whether the bridges can turn a frame header into an event-bus header (they validate them as HTTP headers). */
  private static boolean forwardable(String name, Object value) {
    try {
      HttpHeaders.headers().add(name, value.toString());
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
