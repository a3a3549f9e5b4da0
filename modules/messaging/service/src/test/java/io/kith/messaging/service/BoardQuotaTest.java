package io.kith.messaging.service;

import io.kith.messaging.api.Whiteboards;
import io.kith.platform.bus.Addresses;
import io.kith.platform.testkit.Poll;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Whiteboard quotas: boards per group and per user, bytes per stroke and per board")
class BoardQuotaTest extends BoardTestBase {

  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final int BOARD_BYTES = 16 * 1024;

  @Override
  protected JsonObject messagingConfig() {
    return new JsonObject().put("boards-per-user", 3).put("board-per-group", 2).put("board-bytes", BOARD_BYTES)
        .put("board-strokes-per-second", 1_000);
  }

  /** Stores a group board directly (as if made while its owner was in the group). */
  private long groupBoard(long owner, long group) throws Exception {
    long id = platform.ids().next();
    await(platform.mongo().insert(WhiteboardStore.BOARDS, new JsonObject().put("_id", id).put("kind", "group")
        .put("group", group).put("owner", owner).put("title", "g").put("created", System.currentTimeMillis())
        .put("v", 0L)));
    return id;
  }

  @Test
  @DisplayName("a group has at most board-per-group boards whoever made them (409 group_board_limit_reached); a "
      + "non-member is still told group_not_found")
  void boardsPerGroup() throws Exception {
    List<Long> u = newUsers(4);
    long group = await(messagingInternal.managedGroup(u.get(0), "board-quota:" + UUID.randomUUID(),
        new JsonObject().put("name", "Quota"))).getLong("id");
    await(messagingInternal.setManagedMembers(u.get(0), group, List.of(u.get(1), u.get(2)), List.of()));
    JsonObject spec = new JsonObject().put("title", "g").put("group", group);
    long first = await(boards.create(u.get(1), spec.copy())).getLong("id");
    await(boards.create(u.get(2), spec.copy()));
    // each creator owns one board only: the group's limit refuses
    failsWith("group_board_limit_reached", "group", boards.create(u.get(0), spec.copy()));
    failsWith("group_board_limit_reached", "group", boards.create(u.get(1), spec.copy()));
    failsWith("group_not_found", "group", boards.create(u.get(3), spec.copy()));
    await(boards.delete(u.get(1), first));
    await(boards.create(u.get(0), spec.copy()));
  }

  @Test
  @DisplayName("losing a group revokes at most board-per-group boards' rooms (the newest)")
  void groupRevocationIsBounded() throws Exception {
    long group = platform.ids().next();
    List<Long> u = newUsers(2);
    // more boards than a group may have (left from before the limit): only the newest ones are loaded
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      ids.add(groupBoard(u.get(0), group));
    }
    try (Revocations revocations = new Revocations()) {
      vertx.eventBus().publish(Addresses.ROOMS_REVOKED, new JsonObject().put("room", "g" + group)
          .put("users", new JsonArray().add(u.get(1))));
      await(Poll.until(vertx, WAIT, "the newest boards' rooms revoked", () -> Future.succeededFuture(
          revocations.revoked(Whiteboards.room(ids.get(3)), u.get(1))
              && revocations.revoked(Whiteboards.room(ids.get(2)), u.get(1)))));
      // the notices of one revocation are published together, so the others would have arrived by now
      await(Poll.until(vertx, WAIT, "a later marker", () -> {
        vertx.eventBus().publish(Addresses.ROOMS_REVOKED, new JsonObject().put("room", "b1").put("users",
            new JsonArray().add(u.get(1))));
        return Future.succeededFuture(revocations.revoked("b1", u.get(1)));
      }));
      assertFalse(revocations.revoked(Whiteboards.room(ids.get(0)), u.get(1)));
      assertFalse(revocations.revoked(Whiteboards.room(ids.get(1)), u.get(1)));
    }
  }

  @Test
  @DisplayName("the owner of a group board of a group they lost still lists and deletes it, which frees their quota")
  void ownerDeletesUnreachableBoard() throws Exception {
    List<Long> u = newUsers(2);
    long gone = platform.ids().next();
    long a = groupBoard(u.get(0), gone);
    groupBoard(u.get(0), gone);
    groupBoard(u.get(0), platform.ids().next());
    failsWith("board_limit_reached", null, boards.create(u.get(0), new JsonObject().put("title", "x")));
    // not a member of the group: the board itself is not visible, but it is listed among the owner's boards
    failsWith("board_not_found", null, boards.board(u.get(0), a));
    JsonArray mine = await(boards.boards(u.get(0), new JsonObject(), TestPages.FIRST)
        .map(Page::toJson)).getJsonArray("items");
    assertEquals(3, mine.size());
    assertTrue(mine.stream().anyMatch(b -> ((JsonObject) b).getLong("id") == a));
    // someone else still gets 404
    failsWith("board_not_found", null, boards.delete(u.get(1), a));
    await(boards.delete(u.get(0), a));
    failsWith("board_not_found", null, boards.delete(u.get(0), a));
    await(boards.create(u.get(0), new JsonObject().put("title", "x")));
  }

  @Test
  @DisplayName("concurrent creates never pass boards-per-user")
  void concurrentCreates() throws Exception {
    long owner = newUsers(1).get(0);
    List<Future<JsonObject>> creates = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      creates.add(boards.create(owner, new JsonObject().put("title", "race " + i)));
    }
    await(Future.join(creates).otherwiseEmpty());
    long made = creates.stream().filter(Future::succeeded).count();
    // racing creates may all be refused (each sees the others): never more than the limit
    assertTrue(made <= 3, "made " + made);
    assertEquals(made, await(platform.mongo().count(WhiteboardStore.BOARDS, new JsonObject().put("owner", owner))));
  }

  @Test
  @DisplayName("a stroke is at most 16 KB once stored: 1,000 points of long coordinates are refused")
  void strokeBytes() throws Exception {
    long owner = newUsers(1).get(0);
    long board = adhoc(owner).getLong("id");
    JsonArray pts = new JsonArray();
    for (int i = 0; i < Whiteboards.MAX_POINTS; i++) {
      pts.add(new JsonArray().add(-99_999.99).add(-99_999.99));
    }
    JsonObject big = new JsonObject().put("tool", "pen").put("color", "#000000").put("width", 50).put("points", pts);
    failsWith("validation_failed", "points", boards.draw(owner, board, big));
    assertEquals(0, await(boards.strokes(owner, board, TestPages.FIRST)
        .map(Page::toJson)).getJsonArray("items").size());
  }

  @Test
  @DisplayName("a board keeps at most board-bytes of entries: the oldest are trimmed by size, the newest kept, the "
      + "byte total tracked and reset by a clear")
  void boardBytes() throws Exception {
    long owner = newUsers(1).get(0);
    long board = adhoc(owner).getLong("id");
    List<String> drawn = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      JsonObject s = stroke(300);
      drawn.add(s.getString("client_id"));
      await(boards.draw(owner, board, s));
    }
    JsonObject page = await(boards.strokes(owner, board, PageRequest.first(200)).map(Page::toJson));
    List<String> kept = tags(page);
    int total = 0;
    for (Object item : page.getJsonArray("items")) {
      total += ((JsonObject) item).toBuffer().length();
    }
    assertTrue(kept.size() < drawn.size(), "trimmed by size: " + kept.size());
    assertTrue(total <= BOARD_BYTES, "kept " + total + " bytes");
    assertEquals(drawn.subList(drawn.size() - kept.size(), drawn.size()), kept, "the newest kept, in order");
    long tracked = Long.parseLong(await(platform.redisApi().get(WhiteboardStrokes.bytesKey(board))).toString());
    assertEquals(total, tracked, "the tracked total is the kept entries' size");
    assertTrue(await(platform.redisApi().ttl(WhiteboardStrokes.bytesKey(board))).toLong() > 0);
    await(boards.clear(owner, board));
    JsonObject after = await(boards.strokes(owner, board, TestPages.FIRST).map(Page::toJson));
    assertEquals(List.of("clear"), tags(after));
    assertEquals(after.getJsonArray("items").getJsonObject(0).toBuffer().length(),
        Long.parseLong(await(platform.redisApi().get(WhiteboardStrokes.bytesKey(board))).toString()));
    await(boards.delete(owner, board));
    assertEquals(0L, await(platform.redisApi().exists(List.of(WhiteboardStrokes.bytesKey(board)))).toLong());
  }
}
