package io.kith.messaging.service;

import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Limits on whiteboards")
class BoardLimitsTest extends BoardTestBase {

  @Override
  protected JsonObject messagingConfig() {
    return new JsonObject().put("board-strokes-per-second", 3).put("boards-per-user", 2);
  }

  @Test
  @DisplayName("past the per-second limit a stroke or a clear is refused with retry_after; other users are not")
  void strokesPerSecond() throws Exception {
    List<Long> u = newUsers(2);
    befriend(u.get(0), u.get(1));
    long board = adhoc(u.get(0), u.get(1)).getLong("id");
    ServiceException limited = null;
    // the window is one second and at most 3 pass in one: draw until refused
    for (int i = 0; i < 50 && limited == null; i++) {
      try {
        await(boards.draw(u.get(0), board, stroke(2)));
      } catch (java.util.concurrent.ExecutionException e) {
        limited = (ServiceException) e.getCause();
      }
    }
    assertTrue(limited != null, "the fourth stroke within a second is refused");
    assertTrue("rate_limited".equals(io.kith.platform.error.Failures.codeOf(limited)), limited.getMessage());
    long retryAfter = limited.getDebugInfo().getJsonObject("extra").getLong("retry_after");
    assertEquals(1L, retryAfter, "retry_after of a one-second window");
    // the limit is per user
    await(boards.draw(u.get(1), board, stroke(2)));
  }

  @Test
  @DisplayName("a user owns a bounded number of boards; deleting one makes room")
  void boardsPerUser() throws Exception {
    List<Long> u = newUsers(1);
    long first = adhoc(u.get(0)).getLong("id");
    adhoc(u.get(0));
    failsWith("board_limit_reached", null, boards.create(u.get(0), new JsonObject().put("title", "third")));
    await(boards.delete(u.get(0), first));
    adhoc(u.get(0));
  }
}
