package io.kith.messaging.service;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.store.MongoErrors;
import io.kith.platform.store.StoreFailures;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * Group commit of direct messages on this node. The first send is written at once; the sends that arrive while a
 * batch is being inserted wait, and go together when its insert returns (at most {@value #BATCH}): one ordered insert
 * of their messages, then one update of their conversations and one of their members (the Redis window beside it),
 * whatever the batch's size. A batch's derived writes run while the next batch is inserted; a send is answered only
 * after its batch's derived writes, and batches are answered in their order. Each MongoDB command costs the embedded
 * server a commit to its file and the driver a round trip, so a busy node pays those per batch, not per message.
 *
 * <p>Sequences. The next sequence of a direct conversation is given here, from this node's copy of the last one (read
 * from the conversation's {@code seq} the first time), without a MongoDB round trip: the unique {@code (conversation,
 * seq)} index decides. A sequence another node took meanwhile makes the insert meet that index; this node then reads
 * the highest sequence stored or given out and tries again. The insert stops at the first message refused, so the
 * messages after it are not stored and get their sequences again in the next batch: the stored messages of a
 * conversation follow each other in sequence order without gaps. A refused message is a retry of a stored client id
 * (answered with the stored one), a sequence taken by another node (tried again), or a failure of that message only.
 * Two sends of one client id in a batch are written once; the second is answered as the retry it is.
 *
 * <p>Waiting sends are bounded per node ({@code messaging.direct-waiting-max}): the gateway's in-flight limit bounds
 * requests, not what one slow store lets pile up behind a batch here, and a send that waits past its request's
 * deadline is answered with a timeout though it may still be stored. One send more is refused at once with
 * {@code unavailable} and {@code retry_after}, before anything of it is stored; the sends already waiting stay and
 * are answered as before.
 *
 * <p>Everything here runs on the messaging verticle's event loop.
 */
final class DirectCommits {

  /** Most messages in one batch: a larger one would hold its first sends' answers longer than it saves. */
  static final int BATCH = 100;
  private static final Logger LOG = LoggerFactory.getLogger(DirectCommits.class);
  private static final int CONVERSATIONS = 50_000;

  /**
   * A send to store: its conversation, sender and client id, and its document at a given sequence.
   */
  record Send(long conversation, long sender, String clientId, LongFunction<JsonObject> documentAt) {

    private String key() {
      return sender + ":" + clientId;
    }
  }

  /** A send's outcome: its stored document, new, or the first one of its client id (a retry). */
  record Outcome(JsonObject doc, boolean duplicate) {
  }

  private record Waiting(Send send, Promise<Outcome> outcome) {

    long conversation() {
      return send.conversation();
    }
  }

  private final ConversationStore conversations;
  private final MessageStore messages;
  private final RecentWindow window;
  private final int maxWaiting;
  private final Deque<Waiting> queue = new ArrayDeque<>();
  /** The last sequence this node knows to be stored or given out, by conversation. */
  private final Map<Long, Long> lastSeq = new LinkedHashMap<>(256, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<Long, Long> eldest) {
      return size() > CONVERSATIONS;
    }
  };
  private boolean writing;
  /** The answers of the last batch: the next batch's come after them, so that pushes follow the sequences. */
  private Future<Void> answered = Future.succeededFuture();

  /** Commits whose waiting sends are at most {@code maxWaiting} (the batch being inserted not counted). */
  DirectCommits(ConversationStore conversations, MessageStore messages, RecentWindow window, int maxWaiting) {
    this.conversations = conversations;
    this.messages = messages;
    this.window = window;
    this.maxWaiting = maxWaiting;
  }

  /**
   * Stores {@code send} with the next batch; the outcome comes once the batch is written. Fails at once with
   * {@code unavailable} (nothing stored) when {@code maxWaiting} sends wait already.
   */
  Future<Outcome> commit(Send send) {
    if (queue.size() >= maxWaiting) {
      return Future.failedFuture(Failures.withExtra(KithErrors.UNAVAILABLE,
          "too many messages are waiting to be stored on this server; retry later",
          new JsonObject().put("retry_after", StoreFailures.RETRY_AFTER_SECONDS)));
    }
    Promise<Outcome> outcome = Promise.promise();
    queue.addLast(new Waiting(send, outcome));
    if (!writing) {
      next();
    }
    return outcome.future();
  }

  /** Inserts the next batch, if anything waits, and comes back here when the insert has returned. */
  private void next() {
    writing = !queue.isEmpty();
    if (!writing) {
      return;
    }
    List<Waiting> batch = new ArrayList<>();
    while (!queue.isEmpty() && batch.size() < BATCH) {
      batch.add(queue.pollFirst());
    }
    Future<Void> written;
    try {
      written = write(batch);
    } catch (RuntimeException e) {
      written = Future.failedFuture(e);
    }
    written.onComplete(ar -> {
      if (ar.failed()) {
        // a bug, not a store failure (those answer the sends they concern): no send may stay unanswered
        LOG.error("A batch of direct messages failed", ar.cause());
        batch.forEach(w -> w.outcome().tryFail(ar.cause()));
      }
      next();
    });
  }

  /** Steps: one write per client id, the sequences known, the ordered insert, then the answers. */
  private Future<Void> write(List<Waiting> batch) {
    Map<String, Waiting> firsts = new LinkedHashMap<>();
    for (Waiting w : batch) {
      Waiting first = firsts.putIfAbsent(w.send().key(), w);
      if (first != null) {
        first.outcome().future().onComplete(ar -> {
          if (ar.succeeded()) {
            w.outcome().tryComplete(new Outcome(ar.result().doc(), true));
          } else {
            w.outcome().tryFail(ar.cause());
          }
        });
      }
    }
    return known(new ArrayList<>(firsts.values())).compose(this::insert);
  }

  /** The sends whose conversation's last sequence is known, read for those this node has not seen yet. */
  private Future<List<Waiting>> known(List<Waiting> writes) {
    List<Long> unknown = writes.stream().map(Waiting::conversation).filter(c -> !lastSeq.containsKey(c))
        .distinct().toList();
    if (unknown.isEmpty()) {
      return Future.succeededFuture(writes);
    }
    return conversations.seqs(unknown).transform(ar -> {
      if (ar.succeeded()) {
        unknown.forEach(c -> lastSeq.put(c, ar.result().getOrDefault(c, 0L)));
        return Future.succeededFuture(writes);
      }
      List<Waiting> ready = new ArrayList<>();
      writes.forEach(w -> {
        if (lastSeq.containsKey(w.conversation())) {
          ready.add(w);
        } else {
          w.outcome().fail(ar.cause());
        }
      });
      return Future.succeededFuture(ready);
    });
  }

  private Future<Void> insert(List<Waiting> ready) {
    if (ready.isEmpty()) {
      return Future.succeededFuture();
    }
    Map<Long, Long> next = new HashMap<>();
    List<JsonObject> docs = new ArrayList<>();
    for (Waiting w : ready) {
      long seq = next.merge(w.conversation(), lastSeq.get(w.conversation()) + 1, (given, first) -> given + 1);
      docs.add(w.send().documentAt().apply(seq));
    }
    return messages.insertInOrder(docs).compose(result -> {
      int stored = result.stored();
      answered = stored(ready.subList(0, stored), docs.subList(0, stored), answered);
      return stored == ready.size() ? Future.succeededFuture() : refused(ready.subList(stored, ready.size()), result);
    });
  }

  /**
   * The stored messages: the conversations' last message and members' activity (the newest of each conversation), the
   * Redis window, then, once the batch before is answered ({@code before}), the answers in sequence order (a send's
   * pushes go out when it is answered, so in that order). The derived writes of two batches may overlap: each keeps
   * the newest ({@code last_seq} guard, {@code $max}, the window's scores). Never fails.
   */
  private Future<Void> stored(List<Waiting> waits, List<JsonObject> docs, Future<Void> before) {
    if (docs.isEmpty()) {
      return before;
    }
    Map<Long, JsonObject> newest = new LinkedHashMap<>();
    List<Future<Void>> writes = new ArrayList<>();
    for (JsonObject doc : docs) {
      lastSeq.put(doc.getLong("conversation"), doc.getLong("seq"));
      JsonObject view = Conversations.view(doc);
      newest.put(doc.getLong("conversation"), view);
      writes.add(window.addOrLeave(view));
    }
    writes.add(conversations.storedDirect(List.copyOf(newest.values())));
    return Future.all(writes).transform(ar -> before.transform(previous -> {
      for (int i = 0; i < waits.size(); i++) {
        if (ar.succeeded()) {
          waits.get(i).outcome().tryComplete(new Outcome(docs.get(i), false));
        } else {
          waits.get(i).outcome().tryFail(ar.cause());
        }
      }
      return Future.<Void>succeededFuture();
    }));
  }

  /**
   * The sends from the first one the insert refused: the others go first in the next batch, in their order; the
   * refused one is answered with the stored message of its client id, tried again when another node took its
   * sequence, or failed. A command that failed as a whole fails them all, and this node forgets their conversations'
   * sequences (any of the messages may have been stored).
   */
  private Future<Void> refused(List<Waiting> rest, MessageStore.Inserted result) {
    if (!result.indexed()) {
      rest.forEach(w -> {
        lastSeq.remove(w.conversation());
        w.outcome().fail(result.failure());
      });
      return Future.succeededFuture();
    }
    Waiting first = rest.get(0);
    for (int i = rest.size() - 1; i > 0; i--) {
      queue.addFirst(rest.get(i));
    }
    if (!MongoErrors.isDuplicateKey(result.failure())) {
      first.outcome().fail(result.failure());
      return Future.succeededFuture();
    }
    return messages.byClientId(first.send().sender(), first.send().clientId()).compose(existing -> {
      if (existing != null) {
        first.outcome().complete(new Outcome(existing, true));
        return Future.<Void>succeededFuture();
      }
      queue.addFirst(first);
      return resync(first.conversation());
    }).recover(e -> {
      first.outcome().tryFail(e);
      return Future.succeededFuture();
    });
  }

  /** This node's last sequence of a conversation another node wrote: the highest stored or given out. */
  private Future<Void> resync(long conversation) {
    Future<Map<Long, Long>> given = conversations.seqs(List.of(conversation));
    Future<Long> stored = messages.lastSeq(conversation);
    return Future.all(given, stored).transform(ar -> {
      if (ar.succeeded()) {
        lastSeq.put(conversation, Math.max(given.result().getOrDefault(conversation, 0L), stored.result()));
      } else {
        lastSeq.remove(conversation);
      }
      return Future.succeededFuture();
    });
  }
}
