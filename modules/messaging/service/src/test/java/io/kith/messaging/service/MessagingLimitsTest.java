package io.kith.messaging.service;

import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Limits on sending")
class MessagingLimitsTest extends MessagingTestBase {

  @Override
  protected JsonObject messagingConfig() {
    return new JsonObject().put("sends-per-minute", 3);
  }

  @Test
  @DisplayName("past the per-minute limit a new message is refused with retry_after; retries and other users are not")
  void sendsPerMinute() throws Exception {
    List<Long> u = newUsers(3);
    JsonObject first = text("one");
    await(messaging.send(u.get(0), u.get(1), first));
    send(u.get(0), u.get(1), "two");
    send(u.get(0), u.get(2), "three");
    ServiceException limited = failsWith("rate_limited", null, messaging.send(u.get(0), u.get(1), text("four")));
    long retryAfter = limited.getDebugInfo().getJsonObject("extra").getLong("retry_after");
    assertTrue(retryAfter >= 1 && retryAfter <= 60, "retry_after " + retryAfter);
    // a retry of a stored message is answered, not counted
    assertTrue(await(messaging.send(u.get(0), u.get(1), first)).getBoolean("duplicate"));
    // the limit is per sender: the recipient still writes (the third message of that conversation)
    assertEquals(3L, send(u.get(1), u.get(0), "the other user writes").getLong("seq"));
  }
}
