package io.kith.app.messaging;

import io.kith.app.support.BridgeSocket;
import io.kith.app.support.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;

import static io.kith.app.support.TestNode.WAIT;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * What a rolling restart does to a bridge client (deploy/README.md): the stopping node closes its connection, the
 * client connects to another node, catches up over HTTP from the last sequence it holds and hears the next message
 * live. Two nodes on the same stores stand for two pods behind one Service.
 */
@ExtendWith(KithTestKit.class)
@DisplayName("A node that stops hands its bridge clients over to another node without losing a message")
class DrainOnStopBridgeTest {

  @Test
  @DisplayName("the stopping node closes the bridge connection; on the other node the client catches up on the "
      + "message sent meanwhile, exactly once, then receives the next one live")
  void rollingRestart() {
    // a drain longer than any deadline here: the connection must close because the node closes it first, not
    // because the drain ran out
    MessagingKith stopping = MessagingKith.startNode(new JsonObject().put("shutdown-grace-seconds", 600));
    MessagingKith staying = MessagingKith.start();
    try {
      User alice = stopping.register();
      User bob = stopping.register();
      BridgeSocket first = stopping.connect(bob);
      JsonObject before = stopping.message(alice, bob, "before the restart");
      first.takeDelivery(bob.address(), WAIT, b -> isMessage(b, before));

      Future<Void> stopped = stopping.kith().stop();
      Await.result(Poll.until(staying.client(), WAIT, "the stopping node to close the bridge connection",
          () -> Future.succeededFuture(first.isClosed())));
      Await.result(stopped);

      // sent while bob is between nodes: only the catch-up can give it to him
      JsonObject meanwhile = staying.message(alice, bob, "while bob reconnects");
      try (BridgeSocket second = staying.connect(bob)) {
        long conversation = before.getLong("conversation");
        List<JsonObject> missed = staying.since(bob, conversation, before.getLong("seq"), 50);
        assertEquals(List.of(meanwhile.getLong("id")), missed.stream().map(m -> m.getLong("id")).toList());
        JsonObject after = staying.message(alice, bob, "after the restart");
        second.takeDelivery(bob.address(), WAIT, b -> isMessage(b, after));
      }
    } finally {
      staying.close();
      stopping.close();
    }
  }

  private static boolean isMessage(JsonObject body, JsonObject message) {
    return "message".equals(body.getString("kind"))
        && message.getLong("id").equals(body.getJsonObject("message").getLong("id"));
  }
}
