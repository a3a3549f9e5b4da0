package io.kith.gateway.support;

import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A client connection to one of the event-bus bridges, speaking the bridge's JSON frames. Everything the server sends
 * is kept in arrival order; a test takes the frames it expects, waiting with a deadline.
 */
public abstract class BridgeClient implements AutoCloseable {

  /** How long a test waits for an expected frame or state. */
  public static final Duration WAIT = Duration.ofSeconds(10);

  protected final Vertx vertx;
  private final List<JsonObject> inbox = new ArrayList<>();
  private volatile boolean closed;

  protected BridgeClient(Vertx vertx) {
    this.vertx = vertx;
  }

  /** Writes one frame. */
  public abstract void write(JsonObject frame);

  /** Writes {@code frames} back to back, in as few network writes as the transport allows. */
  public void writeAll(List<JsonObject> frames) {
    frames.forEach(this::write);
  }

  /** The frame type of a message delivered to the client ({@code rec} on SockJS, {@code message} on TCP). */
  public abstract String deliveryType();

  /** The error text of an error frame ({@code body} on SockJS, {@code message} on TCP). */
  public abstract String errorOf(JsonObject errFrame);

  /** Closes the connection from the client side. */
  protected abstract Future<Void> closeConnection();

  /** Records a frame from the server. */
  protected void received(JsonObject frame) {
    synchronized (inbox) {
      inbox.add(frame);
    }
  }

  /** Records that the server closed the connection. */
  protected void markClosed() {
    closed = true;
  }

  /** Whether the connection is closed. */
  public boolean isClosed() {
    return closed;
  }

  /** The frames received and not taken yet. */
  public List<JsonObject> pending() {
    synchronized (inbox) {
      return new ArrayList<>(inbox);
    }
  }

  /** Removes and returns the first received frame matching {@code match}, waiting for it. */
  public JsonObject take(String what, Predicate<JsonObject> match) {
    JsonObject[] found = new JsonObject[1];
    Future<Void> waited = Poll.until(vertx, WAIT, what, () -> {
      synchronized (inbox) {
        for (int i = 0; i < inbox.size(); i++) {
          if (match.test(inbox.get(i))) {
            found[0] = inbox.remove(i);
            return Future.succeededFuture(true);
          }
        }
      }
      return Future.succeededFuture(false);
    }).recover(e -> Future.failedFuture(new AssertionError(e.getMessage() + "; received and not taken: " + pending()
        + (closed ? "; the connection is closed" : ""))));
    Await.result(waited);
    return found[0];
  }

  /** Waits for the next error frame and returns its error text. */
  public String takeError() {
    return errorOf(take("an error frame", f -> "err".equals(f.getString("type"))));
  }

  /** Waits for a message delivered on {@code address}. */
  public JsonObject takeDelivery(String address) {
    return take("a message on " + address,
        f -> deliveryType().equals(f.getString("type")) && address.equals(f.getString("address")));
  }

  /** Whether a message was delivered on {@code address} and not taken yet. */
  public boolean hasDelivery(String address) {
    return pending().stream()
        .anyMatch(f -> deliveryType().equals(f.getString("type")) && address.equals(f.getString("address")));
  }

  /** Waits until the server has closed the connection. */
  public void awaitClosed() {
    Await.result(Poll.until(vertx, WAIT, "the bridge connection to close",
        () -> Future.succeededFuture(closed)));
  }

  /** A frame with an {@code authorization} header carrying {@code accessToken} (none when null). */
  public static JsonObject frame(String type, String address, String accessToken) {
    JsonObject frame = new JsonObject().put("type", type).put("address", address);
    if (accessToken != null) {
      frame.put("headers", new JsonObject().put("authorization", "Bearer " + accessToken));
    }
    return frame;
  }

  /** Sends a register frame. */
  public void register(String address, String accessToken) {
    write(frame("register", address, accessToken));
  }

  /** Sends a send frame that expects a reply on {@code replyAddress}. */
  public void request(String address, String replyAddress, String accessToken, JsonObject headers, Object body) {
    JsonObject frame = frame("send", address, accessToken).put("replyAddress", replyAddress).put("body", body);
    if (headers != null) {
      JsonObject all = frame.getJsonObject("headers", new JsonObject());
      headers.forEach(e -> all.put(e.getKey(), e.getValue()));
      frame.put("headers", all);
    }
    write(frame);
  }

  /**
   * Sends to {@code address} expecting a reply and returns the reply's frame. The reply address is made unique so
   * that replies cannot be mixed up.
   */
  public JsonObject call(String address, String accessToken, JsonObject headers, Object body) {
    // a UUID, as the official client makes: the SockJS bridge refuses reply addresses longer than 36 characters
    String replyAddress = java.util.UUID.randomUUID().toString();
    request(address, replyAddress, accessToken, headers, body);
    return takeDelivery(replyAddress);
  }

  @Override
  public void close() {
    Await.result(closeConnection().otherwiseEmpty());
  }
}
