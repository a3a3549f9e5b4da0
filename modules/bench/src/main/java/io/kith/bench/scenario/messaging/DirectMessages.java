package io.kith.bench.scenario.messaging;

import io.kith.bench.scenario.Replies;
import io.kith.messaging.api.Messaging;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;

import java.security.SecureRandom;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

/**
 * Direct messages sent over the bridge and matched with their deliveries: the state behind the
 * {@code messaging-direct} operation.
 *
 * <p>Each send goes from a pair's sender to its recipient with a client id fresh to the run; it completes when the
 * recipient's connection receives the {@code {kind: "message", message}} push carrying that client id, sent by that
 * sender to that recipient. It fails when the send's reply is an error, or a reply that is not this new message
 * (another client id, {@code duplicate: true}), or when the push names the wrong users. The reply is checked but
 * not waited for: the latency runs to the push, which the service publishes just before it answers.
 *
 * <p>Every message is pushed to its sender's own address too (the sender's other devices); those copies are counted,
 * not matched. Sends whose push never came are dropped by {@link #sweep} (the load runner has already counted them
 * as timeouts) and counted as lost; a push arriving after that counts as late.
 *
 * <p>Not thread-safe: used on the load runner's context, where the bridge client delivers its frames.
 */
final class DirectMessages {

  /** Sends a {@code kith.messaging.send} body on a connection and completes with the reply's body. */
  interface Sender {
    Future<JsonObject> send(int connection, JsonObject body);
  }

  /**
   * A sender and its recipient, each on a connection of its own.
   *
   * @param senderConnection    index of the sender's bridge connection
   * @param sender              the sender's user id
   * @param recipientConnection index of the recipient's bridge connection
   * @param recipient           the recipient's user id
   */
  record Pair(int senderConnection, long sender, int recipientConnection, long recipient) {
  }

  /** A message on its way. */
  private record Waiting(Promise<JsonObject> promise, Pair pair, long sentNanos) {
  }

  private static final SecureRandom RANDOM = new SecureRandom();

  private final Sender sender;
  private final List<Pair> pairs;
  private final String text;
  private final String prefix;
  private final LongSupplier clock;
  private final Map<String, Waiting> awaiting = new LinkedHashMap<>();
  private long sequence;
  private int next;
  private long delivered;
  private long senderCopies;
  private long lost;
  private long late;
  private long failedAfterDelivery;

  /**
   * @param sender the bridge client's send
   * @param pairs  who sends to whom; {@link #send()} takes them in turn
   * @param text   the text of every message
   * @param clock  {@link System#nanoTime()} or a test's clock
   */
  DirectMessages(Sender sender, List<Pair> pairs, String text, LongSupplier clock) {
    if (pairs.isEmpty()) {
      throw new IllegalArgumentException("at least one pair");
    }
    this.sender = sender;
    this.pairs = List.copyOf(pairs);
    this.text = text;
    // Client ids are unique per sender in the service; a random run prefix keeps them unique across runs too.
    this.prefix = Long.toString(RANDOM.nextLong() >>> 28, 36) + "-";
    this.clock = clock;
  }

  /** {@code length} characters of message text. */
  static String text(int length) {
    String words = "the quick brown fox jumps over the lazy dog ";
    StringBuilder s = new StringBuilder(length);
    while (s.length() < length) {
      s.append(words, 0, Math.min(words.length(), length - s.length()));
    }
    // the service refuses blank text; the words make only a trailing space possible
    if (s.charAt(s.length() - 1) == ' ') {
      s.setCharAt(s.length() - 1, '.');
    }
    return s.toString();
  }

  /** The pairs, in turn order. */
  List<Pair> pairs() {
    return pairs;
  }

  /** A client id not used before in this run. */
  String nextClientId() {
    return prefix + Long.toString(sequence++, 36);
  }

  /** The body of a send: {@code {to, client_id, text}}. */
  JsonObject body(long to, String clientId) {
    return new JsonObject().put("to", to).put("client_id", clientId).put("text", text);
  }

  /** Sends a message from the next pair in turn. */
  Future<JsonObject> send() {
    Pair pair = pairs.get(next);
    next = (next + 1) % pairs.size();
    return send(pair);
  }

  /** Sends a message from {@code pair}'s sender to its recipient; completes with the delivered message. */
  Future<JsonObject> send(Pair pair) {
    String clientId = nextClientId();
    Promise<JsonObject> promise = Promise.promise();
    awaiting.put(clientId, new Waiting(promise, pair, clock.getAsLong()));
    Future<JsonObject> reply;
    try {
      reply = sender.send(pair.senderConnection(), body(pair.recipient(), clientId));
    } catch (RuntimeException e) {
      reply = Future.failedFuture(e);
    }
    reply.onComplete(ar -> {
      String problem = ar.failed() ? "send failed: " + ar.cause().getMessage() : replyProblem(ar.result(), clientId);
      if (problem != null) {
        Waiting waiting = awaiting.remove(clientId);
        if (waiting != null) {
          waiting.promise().fail(problem);
        } else {
          failedAfterDelivery++;
        }
      }
    });
    return promise.future();
  }

  /** Why a send's reply is not the new message {@code clientId}; null when it is. */
  static String replyProblem(JsonObject reply, String clientId) {
    JsonObject message = reply == null ? null : reply.getJsonObject("message");
    if (message == null || !clientId.equals(message.getString("client_id"))) {
      return "the send's reply is not message " + clientId;
    }
    if (!Boolean.FALSE.equals(reply.getValue("duplicate"))) {
      return "the send's reply says duplicate for a new client id";
    }
    return null;
  }

  /**
   * A push that arrived on {@code user}'s address: a delivery completes its send; the sender's own copy is counted.
   */
  void onPush(long user, JsonObject push) {
    if (!Messaging.PUSH_MESSAGE.equals(push.getString("kind"))) {
      return;
    }
    JsonObject message = push.getJsonObject("message");
    if (message == null) {
      return;
    }
    Object from = message.getValue("sender");
    if (from instanceof Number && ((Number) from).longValue() == user) {
      senderCopies++;
      return;
    }
    Waiting waiting = awaiting.remove(message.getString("client_id", ""));
    if (waiting == null) {
      late++;
      return;
    }
    Pair pair = waiting.pair();
    Object to = message.getValue("to");
    if (user != pair.recipient() || !(to instanceof Number) || ((Number) to).longValue() != pair.recipient()
        || !(from instanceof Number) || ((Number) from).longValue() != pair.sender()) {
      waiting.promise().fail("message " + message.getValue("client_id") + " from " + pair.sender() + " to "
          + pair.recipient() + " was delivered to " + user + " as from " + from + " to " + to);
      return;
    }
    delivered++;
    waiting.promise().complete(message);
  }

  /** Forgets the sends older than {@code maxAgeNanos} whose push has not come; they count as lost. */
  void sweep(long maxAgeNanos) {
    long now = clock.getAsLong();
    Iterator<Waiting> it = awaiting.values().iterator();
    while (it.hasNext()) {
      Waiting w = it.next();
      if (now - w.sentNanos() < maxAgeNanos) {
        return; // insertion order is send order
      }
      it.remove();
      lost++;
      w.promise().tryFail("no delivery within " + maxAgeNanos / 1_000_000 + " ms");
    }
  }

  /** Sends waiting for their push. */
  int waiting() {
    return awaiting.size();
  }

  /** Pushes matched with their sends. */
  long delivered() {
    return delivered;
  }

  /** Copies pushed to the senders' own connections. */
  long senderCopies() {
    return senderCopies;
  }

  /** Sends given up by {@link #sweep}. */
  long lost() {
    return lost;
  }

  /** Pushes that matched no waiting send (arrived after their send was given up, or not sent by this run). */
  long late() {
    return late;
  }

  /** Replies that were failures or wrong although the push had already arrived. */
  long failedAfterDelivery() {
    return failedAfterDelivery;
  }
}
