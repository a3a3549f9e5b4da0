package io.kith.messaging.service;

import io.kith.accounts.api.AccountsService;
import io.kith.messaging.api.MessagingService;
import io.kith.platform.bus.ServiceBindings;
import io.kith.platform.bus.ServiceProxies;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What a direct send does when something comes between its steps: a recall landing between a retry's read of the
 * stored message and the writes after it, a first send stopping between the conversation and its member documents.
 * The sends go through a second messaging service on the class's platform, built with stores that put the fault
 * exactly there and bound at an address of its own (called through a proxy, as any node is); everything else goes
 * through the deployed service, over the same stores.
 */
@DisplayName("Direct sends after a race or a failed step")
class DirectRepairsTest extends MessagingTestBase {

  /** Runs once, after the next retry has read its stored message and before it writes anything. */
  private final AtomicReference<Supplier<Future<?>>> afterRetryRead = new AtomicReference<>();
  /** Fails the next write of a direct conversation's member document. */
  private final AtomicBoolean failMemberOnce = new AtomicBoolean();
  private MessagingService faulty;

  @BeforeAll
  void deployFaulty() throws Exception {
    MessageStore messages = new MessageStore(platform.mongo()) {
      @Override
      Future<JsonObject> byClientId(long sender, String clientId) {
        Supplier<Future<?>> between = afterRetryRead.getAndSet(null);
        return super.byClientId(sender, clientId)
            .compose(doc -> between == null ? Future.succeededFuture(doc) : between.get().map(doc));
      }
    };
    ConversationStore conversations = new ConversationStore(platform.mongo()) {
      @Override
      Future<Void> makeMember(long conversation, long user, long peer, long now) {
        return failMemberOnce.compareAndSet(true, false) ? Future.failedFuture("the member write failed")
            : super.makeMember(conversation, user, peer, now);
      }
    };
    MessagingSettings settings = MessagingSettings.from(platform.config().section("messaging"));
    MessagingServiceImpl service = new MessagingServiceImpl(platform, settings, conversations,
        new GroupStore(platform.mongo(), settings.invitationMillis()), messages,
        new RecentWindow(platform.redisApi(), settings.windowSize(), settings.windowTtlSeconds()),
        AccountsService.proxy(vertx), RelationsInternal.proxy(vertx));
    String address = "test.messaging.faulty." + UUID.randomUUID();
    // bound from a verticle, so that the service runs on one event loop as the messaging verticle's does
    await(vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        return new ServiceBindings(vertx).bind(MessagingService.class, service, address);
      }
    }));
    faulty = ServiceProxies.proxy(vertx, MessagingService.class, address);
  }

  @Test
  @DisplayName("a recall that lands between a retry's read of the stored message and its writes stays recalled in "
      + "history, in the Redis window and in the conversation's last message")
  void recallDuringRetry() throws Exception {
    long conversation = recalledDuringRetry(false);
    Response window = await(platform.redisApi().zrangebyscore(List.of(RecentWindow.key(conversation), "1", "1")));
    assertEquals(1, window.size());
    JsonObject cached = new JsonObject(window.get(0).toString());
    assertTrue(cached.getBoolean("recalled", false), "window: " + cached);
    assertNull(cached.getValue("text"));
  }

  @Test
  @DisplayName("a recall that lands during the retry of a message whose first attempt lost its derived writes (the "
      + "node died after the insert) stays recalled in history and in the conversation's last message")
  void recallDuringRetryAfterLostWrites() throws Exception {
    recalledDuringRetry(true);
  }

  /**
   * Sends a message, optionally undoes its derived writes (window and last message) as a node dying after the insert
   * leaves them, then retries it with a recall between the retry's read and its writes; checks what the recipient
   * sees and answers the conversation.
   */
  private long recalledDuringRetry(boolean lostDerivedWrites) throws Exception {
    List<Long> u = newUsers(2);
    JsonObject body = text("words to take back");
    JsonObject first = await(faulty.send(u.get(0), u.get(1), body.copy())).getJsonObject("message");
    long conversation = first.getLong("conversation");
    if (lostDerivedWrites) {
      await(platform.redisApi().del(List.of(RecentWindow.key(conversation))));
      await(platform.mongo().updateCollection(ConversationStore.CONVERSATIONS,
          new JsonObject().put("_id", conversation), new JsonObject().put("$set", new JsonObject().put("last_seq", 0L))
              .put("$unset", new JsonObject().put("last_message", ""))));
    }
    afterRetryRead.set(() -> messaging.recall(u.get(0), first.getLong("id")));

    JsonObject retry = await(faulty.send(u.get(0), u.get(1), body.copy()));

    assertTrue(retry.getBoolean("duplicate"));
    assertNull(afterRetryRead.get(), "the recall ran between the retry's read and its writes");
    JsonObject page = await(messaging.history(u.get(1), conversation, new JsonObject(), PageRequest.after("0", 10))
        .map(Page::toJson));
    assertEquals(1, page.getJsonArray("items").size(), "history: " + page);
    JsonObject shown = page.getJsonArray("items").getJsonObject(0);
    assertTrue(shown.getBoolean("recalled", false), "history: " + shown);
    assertNull(shown.getValue("text"));
    JsonObject view = await(messaging.conversation(u.get(1), conversation));
    assertEquals(1L, view.getLong("last_seq"));
    JsonObject last = view.getJsonObject("last_message");
    assertTrue(last.getBoolean("recalled", false), "last message: " + last);
    assertNull(last.getValue("text"));
    return conversation;
  }

  @Test
  @DisplayName("a first message whose member documents failed to be written leaves the conversation, and the next "
      + "send (from either user, on any node) makes them: both users list it")
  void membersRepairedByNextSend() throws Exception {
    List<Long> u = newUsers(2);
    failMemberOnce.set(true);
    assertThrows(Exception.class, () -> await(faulty.send(u.get(0), u.get(1), text("hello?"))));
    assertFalse(failMemberOnce.get(), "the member write failed");
    long conversation = await(messaging.directConversation(u.get(0), u.get(1))).getLong("id");
    assertFalse(listed(u.get(0)).contains(conversation) && listed(u.get(1)).contains(conversation),
        "a member document is missing after the failed send");

    JsonObject reply = send(u.get(1), u.get(0), "did you write?");

    assertEquals(conversation, reply.getLong("conversation"));
    assertEquals(1L, reply.getLong("seq"), "the failed send stored nothing");
    for (long user : u) {
      JsonObject page = await(messaging.conversations(user, PageRequest.first(10)).map(Page::toJson));
      assertEquals(1, page.getJsonArray("items").size(), "user " + user + ": " + page);
      JsonObject listed = page.getJsonArray("items").getJsonObject(0);
      assertEquals(conversation, listed.getLong("id"));
      assertEquals("did you write?", listed.getJsonObject("last_message").getString("text"));
    }
    JsonObject after = await(faulty.send(u.get(0), u.get(1), text("yes, I did")));
    assertEquals(2L, after.getJsonObject("message").getLong("seq"), "the first user's node sends on as usual");
  }

  /** The ids of the conversations a user lists. */
  private List<Long> listed(long user) throws Exception {
    List<Long> ids = new ArrayList<>();
    await(messaging.conversations(user, PageRequest.first(10)).map(Page::toJson)).getJsonArray("items")
        .forEach(c -> ids.add(((JsonObject) c).getLong("id")));
    return ids;
  }
}
