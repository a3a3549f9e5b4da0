package io.kith.messaging.service;

import io.kith.messaging.api.Messaging;
import io.kith.messaging.api.MessagingEvents;
import io.kith.platform.bus.Addresses;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.EventConsumer;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertFalse;

/** Helpers of the group tests: friendships, groups, and listeners on rooms, revocations and the event stream. */
abstract class GroupTestBase extends MessagingTestBase {

  protected static final Duration WAIT = Duration.ofSeconds(60);

  private final List<Runnable> cleanup = new ArrayList<>();

  @AfterEach
  void stopListeners() {
    cleanup.forEach(Runnable::run);
    cleanup.clear();
  }

  /** Makes {@code a} and {@code b} friends (mutual follows). */
  protected void befriend(long a, long b) throws Exception {
    await(relations.follow(a, b));
    await(relations.follow(b, a));
  }

  protected JsonObject topicGroup(long owner, String name, String topic) throws Exception {
    return await(messaging.createGroup(owner, new JsonObject().put("kind", "topic").put("name", name)
        .put("topic", topic)));
  }

  protected JsonObject friendGroup(long owner, String name, List<Long> members) throws Exception {
    return await(messaging.createGroup(owner, new JsonObject().put("kind", "friends").put("name", name)
        .put("members", new JsonArray(new ArrayList<>(members)))));
  }

  protected JsonObject groupSend(long from, long group, String text) throws Exception {
    JsonObject reply = await(messaging.sendToGroup(from, group, text(text)));
    assertFalse(reply.getBoolean("duplicate"));
    return reply.getJsonObject("message");
  }

  /** What is published on a bus address from now on. */
  protected final class Inbox {
    final List<JsonObject> items = new CopyOnWriteArrayList<>();

    JsonObject await(String what, Predicate<JsonObject> match) throws Exception {
      JsonObject[] found = new JsonObject[1];
      MessagingTestBase.await(Poll.until(vertx, WAIT, what, () -> {
        for (JsonObject item : items) {
          if (match.test(item)) {
            found[0] = item;
            return Future.succeededFuture(true);
          }
        }
        return Future.succeededFuture(false);
      }));
      return found[0];
    }

    boolean any(Predicate<JsonObject> match) {
      return items.stream().anyMatch(match);
    }
  }

  protected Inbox listen(String address) throws Exception {
    Inbox inbox = new Inbox();
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(address, msg -> inbox.items.add(msg.body()));
    await(consumer.completion());
    cleanup.add(consumer::unregister);
    return inbox;
  }

  protected Inbox room(long group) throws Exception {
    return listen(Addresses.room(Messaging.groupRoom(group)));
  }

  protected Inbox revocations() throws Exception {
    return listen(Addresses.ROOMS_REVOKED);
  }

  /** The events appended to the messaging stream from now on, as {@code {type, payload}}. */
  protected Inbox events() throws Exception {
    Inbox inbox = new Inbox();
    EventConsumer consumer = await(platform.events().consume(MessagingEvents.DOMAIN,
        "test-" + UUID.randomUUID().toString().substring(0, 8), (DomainEvent e) -> {
          inbox.items.add(new JsonObject().put("type", e.type()).put("payload", e.payload()));
          return Future.succeededFuture();
        }));
    cleanup.add(consumer::stop);
    return inbox;
  }

  protected static Predicate<JsonObject> event(String type, long group) {
    return e -> type.equals(e.getString("type")) && e.getJsonObject("payload").getLong("group") == group;
  }

  protected static Predicate<JsonObject> revoked(long group, long user) {
    return n -> Messaging.groupRoom(group).equals(n.getString("room")) && n.getJsonArray("users").contains(user);
  }

  protected static List<Long> memberIds(JsonObject page) {
    List<Long> out = new ArrayList<>();
    page.getJsonArray("items").forEach(m -> out.add(((JsonObject) m).getJsonObject("user").getLong("id")));
    return out;
  }
}
