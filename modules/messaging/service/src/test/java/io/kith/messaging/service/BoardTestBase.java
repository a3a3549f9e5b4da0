package io.kith.messaging.service;

import io.kith.messaging.api.WhiteboardInternal;
import io.kith.messaging.api.WhiteboardService;
import io.kith.platform.bus.Addresses;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/** The messaging test deployment, with the whiteboard proxy and helpers for boards and strokes. */
abstract class BoardTestBase extends MessagingTestBase {

  protected WhiteboardService boards;
  protected WhiteboardInternal boardsInternal;

  @BeforeAll
  void boardProxy() {
    boards = WhiteboardService.proxy(vertx);
    boardsInternal = WhiteboardInternal.proxy(vertx);
  }

  /** Makes {@code a} and {@code b} friends (mutual follows). */
  protected void befriend(long a, long b) throws Exception {
    await(relations.follow(a, b));
    await(relations.follow(b, a));
  }

  /** Creates an ad-hoc board of {@code owner} with these friends. */
  protected JsonObject adhoc(long owner, Long... members) throws Exception {
    JsonArray list = new JsonArray();
    for (Long m : members) {
      list.add(m);
    }
    return await(boards.create(owner, new JsonObject().put("title", "plans").put("members", list)));
  }

  /** A valid pen stroke of {@code points} points, tagged with a fresh client id. */
  protected static JsonObject stroke(int points) {
    JsonArray pts = new JsonArray();
    for (int i = 0; i < points; i++) {
      pts.add(new JsonArray().add(i).add(i * 2));
    }
    return new JsonObject().put("tool", "pen").put("color", "#1a2b3c").put("width", 3).put("points", pts)
        .put("client_id", UUID.randomUUID().toString());
  }

  /** The client ids of a page's stroke entries, and "clear" for a clear. */
  protected static List<String> tags(JsonObject page) {
    List<String> out = new ArrayList<>();
    page.getJsonArray("items").forEach(i -> {
      JsonObject e = (JsonObject) i;
      out.add("clear".equals(e.getString("kind")) ? "clear" : e.getJsonObject("stroke").getString("client_id"));
    });
    return out;
  }

  /** Collects the room revocation notices published while a test runs. */
  protected final class Revocations implements AutoCloseable {

    private final List<JsonObject> seen = new ArrayList<>();
    private final MessageConsumer<JsonObject> consumer;

    Revocations() throws Exception {
      consumer = vertx.eventBus().consumer(Addresses.ROOMS_REVOKED, msg -> {
        synchronized (seen) {
          seen.add(msg.body());
        }
      });
      await(consumer.completion());
    }

    /** Whether a notice took {@code room} from {@code user}. */
    boolean revoked(String room, long user) {
      synchronized (seen) {
        return seen.stream().anyMatch(n -> room.equals(n.getString("room"))
            && n.getJsonArray("users", new JsonArray()).contains(user));
      }
    }

    @Override
    public void close() throws Exception {
      await(consumer.unregister());
    }
  }
}
