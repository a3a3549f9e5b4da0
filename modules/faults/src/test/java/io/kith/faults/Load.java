package io.kith.faults;

import io.kith.bench.cluster.KithNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What a well-behaved client does under faults: a call that is refused (503, 429) or gets no answer is tried again on
 * the next gateway with the same idempotency key, until it is acknowledged or a deadline passes. Every answer other
 * than success is kept, so that a test can check that each was an allowed refusal (503 or 429 as problem+json) or
 * silence from a node the test had faulted, never a 500.
 */
final class Load {

  /**
   * Longest a single operation may take, retries included, before the test calls it a failure to fail over. Far above
   * what a fail-over takes (the member timeout plus one service deadline), so that a slow machine never trips it.
   */
  static final Duration ACK_DEADLINE = Duration.ofSeconds(45);

  /** A non-success answer and whether its node was faulted (killed, stopped) when it came. */
  record Refusal(Api.Reply reply, boolean faultedNode) {
  }

  private final Set<KithNode> faulted = ConcurrentHashMap.newKeySet();
  private volatile boolean stopped;
  private final List<Refusal> refusals = Collections.synchronizedList(new ArrayList<>());

  /** From now on, silence from {@code node} is expected. */
  void faulted(KithNode node) {
    faulted.add(node);
  }

  /** {@code node} answers again. */
  void healed(KithNode node) {
    faulted.remove(node);
  }

  /** From now on, an operation not yet acknowledged is given up ({@link #acknowledged} returns null). */
  void stop() {
    stopped = true;
  }

  /** Whether {@link #stop()} was called. */
  boolean stopped() {
    return stopped;
  }

  /**
   * Calls {@code call} on {@code gateways} in turn, starting at index {@code first}, until it answers a 2xx status;
   * returns that answer, or null once {@link #stop()} was called. Fails if a deadline of {@link #ACK_DEADLINE} passes
   * first.
   */
  Api.Reply acknowledged(List<KithNode> gateways, int first, Function<KithNode, Api.Reply> call) {
    long deadline = System.nanoTime() + ACK_DEADLINE.toNanos();
    for (int attempt = first; ; attempt++) {
      KithNode node = gateways.get(Math.floorMod(attempt, gateways.size()));
      boolean wasFaulted = faulted.contains(node);
      Api.Reply reply = call.apply(node);
      if (reply.status() >= 200 && reply.status() < 300) {
        return reply;
      }
      refusals.add(new Refusal(reply, wasFaulted || faulted.contains(node)));
      if (stopped) {
        return null;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not acknowledged within " + ACK_DEADLINE + "; last answer " + reply);
      }
      pause(reply);
    }
  }

  // a refusal says when to come back (Retry-After); honouring a short one keeps the retry loop from spinning
  private static void pause(Api.Reply reply) {
    try {
      Thread.sleep(reply.status() == 0 ? 50 : 200);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** The refusals seen so far. */
  List<Refusal> refusals() {
    synchronized (refusals) {
      return List.copyOf(refusals);
    }
  }

  /** Every refusal was a 503 or 429 as problem+json, or no answer from a faulted node: no 500, no other status. */
  void assertRefusalsAllowed() {
    List<String> wrong = refusals().stream()
        .filter(r -> !(r.reply().isAllowedRefusal() || (r.reply().status() == 0 && r.faultedNode())))
        .map(r -> r.reply().toString()).toList();
    assertEquals(List.of(), wrong, "answers under faults other than 503/429 problem+json");
  }
}
