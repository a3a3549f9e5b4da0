package io.kith.messaging.service;

import io.kith.messaging.api.Whiteboards;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.testkit.Poll;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.Future;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

@DisplayName("Whiteboards through the service proxy")
class BoardServiceTest extends BoardTestBase {

  private static final Duration WAIT = Duration.ofSeconds(10);

  @Override
  protected JsonObject messagingConfig() {
    // a small N to see the trimming, and a small member cap to reach it
    return new JsonObject().put("board-strokes", 5).put("board-members", 3);
  }

  private JsonObject draw(long user, long board, JsonObject stroke) throws Exception {
    return await(boards.draw(user, board, stroke));
  }

  private JsonObject page(long user, long board, Long after, Integer limit) throws Exception {
    PageRequest request = new PageRequest(limit, 0, 0, after == null ? null : String.valueOf(after));
    return await(boards.strokes(user, board, request).map(Page::toJson));
  }

  @Test
  @DisplayName("an ad-hoc board is made with the creator's friends only; a stranger or a mere followee is refused "
      + "with the list of them")
  void createWithFriends() throws Exception {
    List<Long> u = newUsers(4);
    long owner = u.get(0);
    befriend(owner, u.get(1));
    befriend(owner, u.get(2));
    await(relations.follow(owner, u.get(3)));
    JsonObject board = adhoc(owner, u.get(1), u.get(2), owner);
    assertEquals("adhoc", board.getString("kind"));
    assertEquals(owner, board.getLong("owner"));
    assertEquals(List.of(owner, u.get(1), u.get(2)), board.getJsonArray("members").getList());
    assertEquals("plans", board.getString("title"));
    assertEquals(board, await(boards.board(u.get(2), board.getLong("id"))));

    ServiceException refused = failsWith("board_member_not_friend", null,
        boards.create(owner, new JsonObject().put("title", "t").put("members", new JsonArray().add(u.get(1))
            .add(u.get(3)))));
    assertEquals(List.of(u.get(3)), refused.getDebugInfo().getJsonObject("extra").getJsonArray("users").getList());
    failsWith("validation_failed", "members", boards.create(owner, new JsonObject().put("title", "t")
        .put("members", new JsonArray().add(1).add(2).add(3).add(4))));
    failsWith("validation_failed", "title", boards.create(owner, new JsonObject().put("title", " ")));
    failsWith("validation_failed", "title", boards.create(owner, new JsonObject().put("title", "x".repeat(101))));
    failsWith("validation_failed", "colour", boards.create(owner, new JsonObject().put("title", "t")
        .put("colour", "red")));
    // the creator's list shows the board; a member's too
    assertEquals(board.getLong("id"), await(boards.boards(u.get(1), new JsonObject(), TestPages.FIRST)
        .map(Page::toJson)).getJsonArray("items")
        .getJsonObject(0).getLong("id"));
  }

  @Test
  @DisplayName("members draw and clear; a late joiner reads the last N entries in order, and a client continues "
      + "after the sequence it holds or is told to reset when that is no longer kept")
  void lateJoiner() throws Exception {
    List<Long> u = newUsers(3);
    befriend(u.get(0), u.get(1));
    befriend(u.get(0), u.get(2));
    long board = adhoc(u.get(0), u.get(1), u.get(2)).getLong("id");
    List<String> ids = new ArrayList<>();
    List<Long> seqs = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      JsonObject s = stroke(4);
      JsonObject stored = draw(u.get(0), board, s);
      assertEquals(u.get(0), stored.getLong("by"));
      assertEquals(board, stored.getLong("board"));
      seqs.add(stored.getLong("seq"));
    }
    JsonObject cleared = await(boards.clear(u.get(1), board));
    assertEquals(seqs.get(2) + 1, cleared.getLong("seq"));
    assertEquals(u.get(1), cleared.getLong("by"));
    JsonObject view = await(boards.board(u.get(2), board));
    assertEquals(u.get(1), view.getLong("cleared_by"));
    assertEquals(cleared.getLong("at"), view.getLong("cleared_at"));
    for (int i = 0; i < 2; i++) {
      JsonObject s = stroke(2);
      ids.add(s.getString("client_id"));
      seqs.add(draw(u.get(i), board, s).getLong("seq"));
    }

    // a late joiner: the clear and what follows, oldest first, to be drawn on a blank board
    JsonObject joined = page(u.get(2), board, null, null);
    assertTrue(joined.getBoolean("reset"));
    assertEquals(List.of("clear", ids.get(0), ids.get(1)), tags(joined));
    assertEquals(seqs.get(4), joined.getLong("last_seq"));
    JsonObject first = joined.getJsonArray("items").getJsonObject(1);
    assertEquals(u.get(0), first.getLong("by"));
    assertEquals(stroke(2).getJsonArray("points"), first.getJsonObject("stroke").getJsonArray("points"));
    // a client that held the first stroke continues: the clear supersedes what it missed
    JsonObject resumed = page(u.get(2), board, seqs.get(0), null);
    assertFalse(resumed.getBoolean("reset"));
    assertEquals(List.of("clear", ids.get(0), ids.get(1)), tags(resumed));

    // five more strokes: only the last five entries are kept (the clear is gone)
    for (int i = 0; i < 5; i++) {
      JsonObject s = stroke(3);
      ids.add(s.getString("client_id"));
      seqs.add(draw(u.get(i % 2), board, s).getLong("seq"));
    }
    List<String> lastFive = ids.subList(ids.size() - 5, ids.size());
    JsonObject late = page(u.get(2), board, null, null);
    assertTrue(late.getBoolean("reset"));
    assertEquals(lastFive, tags(late));
    List<Long> ordered = new ArrayList<>();
    late.getJsonArray("items").forEach(e -> ordered.add(((JsonObject) e).getLong("seq")));
    assertEquals(seqs.subList(seqs.size() - 5, seqs.size()), ordered);
    // held the stroke right before the kept ones: continues; held an older one: reset to what is kept
    JsonObject next = page(u.get(1), board, seqs.get(seqs.size() - 6), null);
    assertFalse(next.getBoolean("reset"));
    assertEquals(lastFive, tags(next));
    JsonObject stale = page(u.get(1), board, seqs.get(seqs.size() - 7), null);
    assertTrue(stale.getBoolean("reset"));
    assertEquals(lastFive, tags(stale));
    // paging by two from the start, then on from the last item, until empty
    List<String> paged = new ArrayList<>();
    JsonObject p = page(u.get(2), board, null, 2);
    assertTrue(p.getBoolean("reset"));
    while (!p.getJsonArray("items").isEmpty()) {
      paged.addAll(tags(p));
      JsonArray items = p.getJsonArray("items");
      p = page(u.get(2), board, items.getJsonObject(items.size() - 1).getLong("seq"), 2);
      assertFalse(p.getBoolean("reset"));
    }
    assertEquals(lastFive, paged);
    assertEquals(List.of(), tags(page(u.get(2), board, seqs.get(seqs.size() - 1), null)));
  }

  @Test
  @DisplayName("strokes expire together with the sequence: the board is blank, a client holding a sequence is told "
      + "to reset, and new sequences are higher than any before")
  void expiry() throws Exception {
    List<Long> u = newUsers(2);
    befriend(u.get(0), u.get(1));
    long board = adhoc(u.get(0), u.get(1)).getLong("id");
    long seq = 0;
    for (int i = 0; i < 3; i++) {
      seq = draw(u.get(0), board, stroke(2)).getLong("seq");
    }
    for (String key : List.of(WhiteboardStrokes.strokesKey(board), WhiteboardStrokes.seqKey(board))) {
      long ttl = await(platform.redisApi().ttl(key)).toLong();
      assertTrue(ttl > 0 && ttl <= 7 * 86_400, key + " expires within the configured TTL: " + ttl);
    }
    await(platform.redisApi().del(List.of(WhiteboardStrokes.strokesKey(board), WhiteboardStrokes.seqKey(board))));
    JsonObject blank = page(u.get(1), board, seq, null);
    assertTrue(blank.getBoolean("reset"));
    assertEquals(List.of(), tags(blank));
    JsonObject s = stroke(2);
    long after = draw(u.get(1), board, s).getLong("seq");
    assertTrue(after > seq, "sequence " + after + " after expiry is above " + seq);
    JsonObject fresh = page(u.get(0), board, seq, null);
    assertTrue(fresh.getBoolean("reset"));
    assertEquals(List.of(s.getString("client_id")), tags(fresh));
  }

  @Test
  @DisplayName("a non-member can neither read nor draw nor change a board: 404 board_not_found everywhere, "
      + "as for a board that does not exist")
  void nonMember() throws Exception {
    List<Long> u = newUsers(3);
    befriend(u.get(0), u.get(1));
    long board = adhoc(u.get(0), u.get(1)).getLong("id");
    long stranger = u.get(2);
    for (long id : new long[] {board, board + 987_654_321L, -1}) {
      failsWith("board_not_found", null, boards.board(stranger, id));
      failsWith("board_not_found", null, boards.strokes(stranger, id, TestPages.FIRST));
      failsWith("board_not_found", null, boards.draw(stranger, id, stroke(2)));
      failsWith("board_not_found", null, boards.clear(stranger, id));
      failsWith("board_not_found", null, boards.addMembers(stranger, id, List.of(stranger)));
      failsWith("board_not_found", null, boards.removeMember(stranger, id, u.get(1)));
      failsWith("board_not_found", null, boards.delete(stranger, id));
    }
    assertEquals(List.of(), await(boards.boards(stranger, new JsonObject(), TestPages.FIRST)
        .map(Page::toJson)).getJsonArray("items").getList());
    assertFalse(await(boardsInternal.mayListen(stranger, Whiteboards.room(board))));
    assertTrue(await(boardsInternal.mayListen(u.get(1), Whiteboards.room(board))));
    for (String room : List.of("b", "b0", "bx", "b" + board + "0000000000000000000", "g" + board, "B" + board)) {
      assertFalse(await(boardsInternal.mayListen(u.get(0), room)), room);
    }
    // nothing was drawn by the refused calls
    assertEquals(0L, await(boards.strokes(u.get(0), board, TestPages.FIRST).map(Page::toJson)).getLong("last_seq"));
  }

  @Test
  @DisplayName("the owner adds and removes friends; a removed member is refused afterwards and its room is revoked "
      + "before the answer; a member leaves; only the owner manages; the cap holds")
  void members() throws Exception {
    List<Long> u = newUsers(6);
    long owner = u.get(0);
    for (int i = 1; i < 6; i++) {
      befriend(owner, u.get(i));
    }
    long board = adhoc(owner, u.get(1)).getLong("id");
    String room = Whiteboards.room(board);
    List<Long> strangers = newUsers(1);
    failsWith("board_member_not_friend", null, boards.addMembers(owner, board, List.of(u.get(2),
        strangers.get(0))));
    JsonObject grown = await(boards.addMembers(owner, board, List.of(u.get(2), u.get(3), u.get(2))));
    assertEquals(List.of(owner, u.get(1), u.get(2), u.get(3)), grown.getJsonArray("members").getList());
    failsWith("board_full", null, boards.addMembers(owner, board, List.of(u.get(4))));
    failsWith("not_board_owner", null, boards.addMembers(u.get(1), board, List.of(u.get(4))));
    failsWith("not_board_owner", null, boards.removeMember(u.get(1), board, u.get(2)));
    failsWith("board_owner_cannot_leave", null, boards.removeMember(owner, board, owner));
    // adding a member again changes nothing
    assertEquals(grown.getJsonArray("members"), await(boards.addMembers(owner, board, List.of(u.get(1))))
        .getJsonArray("members"));

    draw(u.get(1), board, stroke(2));
    try (Revocations revocations = new Revocations()) {
      await(boards.removeMember(owner, board, u.get(1)));
      await(Poll.until(vertx, WAIT, "the room revocation", () -> Future.succeededFuture(
          revocations.revoked(room, u.get(1)))));
    }
    failsWith("board_not_found", null, boards.draw(u.get(1), board, stroke(2)));
    failsWith("board_not_found", null, boards.strokes(u.get(1), board, TestPages.FIRST));
    failsWith("board_not_found", null, boards.board(u.get(1), board));
    assertFalse(await(boardsInternal.mayListen(u.get(1), room)));
    assertEquals(List.of(), await(boards.boards(u.get(1), new JsonObject(), TestPages.FIRST)
        .map(Page::toJson)).getJsonArray("items").getList());
    // removing a non-member changes nothing; a member leaves on its own
    await(boards.removeMember(owner, board, u.get(1)));
    try (Revocations revocations = new Revocations()) {
      await(boards.removeMember(u.get(3), board, u.get(3)));
      await(Poll.until(vertx, WAIT, "the room revocation", () -> Future.succeededFuture(
          revocations.revoked(room, u.get(3)))));
    }
    failsWith("board_not_found", null, boards.board(u.get(3), board));
    // there is room again
    assertEquals(List.of(owner, u.get(2), u.get(4), u.get(5)), await(boards.addMembers(owner, board,
        List.of(u.get(4), u.get(5)))).getJsonArray("members").getList());
  }

  @Test
  @DisplayName("only the owner deletes a board; its members lose the room and everything answers 404 after")
  void delete() throws Exception {
    List<Long> u = newUsers(3);
    befriend(u.get(0), u.get(1));
    befriend(u.get(0), u.get(2));
    long board = adhoc(u.get(0), u.get(1), u.get(2)).getLong("id");
    draw(u.get(1), board, stroke(2));
    failsWith("not_board_owner", null, boards.delete(u.get(1), board));
    try (Revocations revocations = new Revocations()) {
      await(boards.delete(u.get(0), board));
      await(Poll.until(vertx, WAIT, "the room revocation", () -> Future.succeededFuture(
          u.stream().allMatch(user -> revocations.revoked(Whiteboards.room(board), user)))));
    }
    for (long user : u) {
      failsWith("board_not_found", null, boards.board(user, board));
      failsWith("board_not_found", null, boards.draw(user, board, stroke(2)));
    }
    assertEquals(0L, await(platform.redisApi().exists(List.of(WhiteboardStrokes.strokesKey(board),
        WhiteboardStrokes.seqKey(board)))).toLong());
  }

  @Test
  @DisplayName("invalid strokes are refused with 400 naming the member: too many points, bad colour, NaN, "
      + "infinite or out-of-range numbers, unknown members; numbers are stored rounded")
  void invalidStrokes() throws Exception {
    List<Long> u = newUsers(2);
    befriend(u.get(0), u.get(1));
    long board = adhoc(u.get(0), u.get(1)).getLong("id");
    long me = u.get(0);
    JsonArray tooMany = new JsonArray();
    for (int i = 0; i < 1001; i++) {
      tooMany.add(new JsonArray().add(i).add(i));
    }
    failsWith("validation_failed", "points", boards.draw(me, board, stroke(1).put("points", tooMany)));
    failsWith("validation_failed", "points", boards.draw(me, board, stroke(1).put("points", new JsonArray())));
    failsWith("validation_failed", "points", boards.draw(me, board, stroke(1).put("points",
        new JsonArray().add(new JsonArray().add(1).add(Double.NaN)))));
    failsWith("validation_failed", "points", boards.draw(me, board, stroke(1).put("points",
        new JsonArray().add(new JsonArray().add(Double.POSITIVE_INFINITY).add(1)))));
    failsWith("validation_failed", "points", boards.draw(me, board, stroke(1).put("points",
        new JsonArray().add(new JsonArray().add(100_000.01).add(1)))));
    failsWith("validation_failed", "points", boards.draw(me, board, stroke(1).put("points",
        new JsonArray().add(new JsonArray().add(1).add(2).add(3)))));
    failsWith("validation_failed", "points", boards.draw(me, board, stroke(1).put("points",
        new JsonArray().add(new JsonArray().add("1").add(2)))));
    failsWith("validation_failed", "points", boards.draw(me, board, stroke(1).put("points", "1,2")));
    for (String color : List.of("red", "#12345g", "#1234567", "1a2b3c", "")) {
      failsWith("validation_failed", "color", boards.draw(me, board, stroke(1).put("color", color)));
    }
    failsWith("validation_failed", "color", boards.draw(me, board, stroke(1).putNull("color")));
    for (Object width : List.of(0, 0.99, 50.01, Double.NaN, "3")) {
      failsWith("validation_failed", "width", boards.draw(me, board, stroke(1).put("width", width)));
    }
    failsWith("validation_failed", "tool", boards.draw(me, board, stroke(1).put("tool", "brush")));
    failsWith("validation_failed", "tool", boards.draw(me, board, stroke(1).putNull("tool")));
    failsWith("validation_failed", "fill", boards.draw(me, board, stroke(1).put("fill", true)));
    failsWith("validation_failed", "client_id", boards.draw(me, board, stroke(1).put("client_id", "x".repeat(65))));
    failsWith("validation_failed", "stroke", boards.draw(me, board, null));
    assertEquals(0L, await(boards.strokes(me, board, TestPages.FIRST).map(Page::toJson)).getLong("last_seq"),
        "nothing was stored");
    failsWith("validation_failed", "limit", boards.strokes(me, board, PageRequest.first(201)));
    failsWith("validation_failed", "after_seq", boards.strokes(me, board, new PageRequest(null, 0, 0, "-1")));

    // an eraser needs no colour; the most points pass (as long as the stroke stays within 16 KB: 1,000 points of
    // ±100,000 would be 17 KB, see BoardQuotaTest); numbers are rounded to 2 decimals
    JsonArray most = new JsonArray();
    for (int i = 0; i < 1000; i++) {
      most.add(new JsonArray().add(-10_000).add(10_000));
    }
    draw(me, board, new JsonObject().put("tool", "eraser").put("width", 50).put("points", most));
    draw(me, board, new JsonObject().put("tool", "pen").put("color", "#ABCDEF").put("width", 1.23456)
        .put("points", new JsonArray().add(new JsonArray().add(0.125).add(-3.14159))));
    JsonArray items = await(boards.strokes(me, board, TestPages.FIRST).map(Page::toJson)).getJsonArray("items");
    assertEquals(1000, items.getJsonObject(0).getJsonObject("stroke").getJsonArray("points").size());
    JsonObject rounded = items.getJsonObject(1).getJsonObject("stroke");
    assertEquals(new JsonObject().put("tool", "pen").put("color", "#abcdef").put("width", 1.23)
        .put("points", new JsonArray().add(new JsonArray().add(0.13).add(-3.14))), rounded);
  }

  @Test
  @DisplayName("a group board needs a group the creator belongs to: otherwise 404 group_not_found, for creating "
      + "and listing (group membership is asked of MessagingInternal.mayListen)")
  void groupBoardRefused() throws Exception {
    List<Long> u = newUsers(2);
    long notMyGroup = send(u.get(0), u.get(1), "a direct conversation is not a group").getLong("conversation");
    for (long group : new long[] {notMyGroup, 123_456_789L}) {
      failsWith("group_not_found", "group", boards.create(u.get(0), new JsonObject().put("title", "g")
          .put("group", group)));
      failsWith("group_not_found", "group", boards.boards(u.get(0), new JsonObject().put("group", group),
          TestPages.FIRST));
    }
    failsWith("group_board_members", "members", boards.create(u.get(0), new JsonObject().put("title", "g")
        .put("group", notMyGroup).put("members", new JsonArray())));
    failsWith("validation_failed", "group", boards.create(u.get(0), new JsonObject().put("title", "g")
        .put("group", "12")));
  }

  @Test
  @DisplayName("a group board follows the group's membership: members read and draw, others get 404, a removed "
      + "member is refused at once and loses the board's room (skipped while groups answer unavailable)")
  void groupBoardFollowsGroup() throws Exception {
    List<Long> u = newUsers(3);
    JsonObject group;
    try {
      group = await(messagingInternal.managedGroup(u.get(0), "board-test:" + UUID.randomUUID(),
          new JsonObject().put("name", "Board test")));
    } catch (ExecutionException e) {
      assumeFalse("unavailable".equals(Failures.codeOf(e.getCause())),
          "groups are not built on this branch: MessagingInternal.managedGroup answers unavailable");
      throw e;
    }
    long groupId = group.getLong("id");
    await(messagingInternal.setManagedMembers(u.get(0), groupId, List.of(u.get(1)), List.of()));
    JsonObject board = await(boards.create(u.get(1), new JsonObject().put("title", "group plans")
        .put("group", groupId)));
    long id = board.getLong("id");
    assertEquals("group", board.getString("kind"));
    assertEquals(groupId, board.getLong("group"));
    assertFalse(board.containsKey("members"));
    JsonObject s = stroke(2);
    draw(u.get(0), id, stroke(2));
    draw(u.get(1), id, s);
    assertEquals(s.getString("client_id"), tags(page(u.get(0), id, null, null)).get(1));
    assertTrue(await(boardsInternal.mayListen(u.get(0), Whiteboards.room(id))));
    assertEquals(id, await(boards.boards(u.get(0), new JsonObject().put("group", groupId), TestPages.FIRST)
        .map(Page::toJson)).getJsonArray("items")
        .getJsonObject(0).getLong("id"));
    failsWith("board_not_found", null, boards.draw(u.get(2), id, stroke(2)));
    failsWith("board_not_found", null, boards.strokes(u.get(2), id, TestPages.FIRST));
    failsWith("group_not_found", "group", boards.boards(u.get(2), new JsonObject().put("group", groupId),
        TestPages.FIRST));
    failsWith("group_board_members", null, boards.addMembers(u.get(1), id, List.of(u.get(2))));
    try (Revocations revocations = new Revocations()) {
      await(messagingInternal.setManagedMembers(u.get(0), groupId, List.of(), List.of(u.get(1))));
      failsWith("board_not_found", null, boards.draw(u.get(1), id, stroke(2)));
      failsWith("board_not_found", null, boards.board(u.get(1), id));
      assertFalse(await(boardsInternal.mayListen(u.get(1), Whiteboards.room(id))));
      await(Poll.until(vertx, WAIT, "the board room revoked with the group's", () -> Future.succeededFuture(
          revocations.revoked(Whiteboards.room(id), u.get(1)))));
    }
    draw(u.get(0), id, stroke(2));
  }

  @Test
  @DisplayName("dissolving a group deletes its boards (records and strokes), announces each on its room, frees the "
      + "owners' quota, and leaves other groups' boards alone")
  void dissolvedGroupBoardsGo() throws Exception {
    List<Long> u = newUsers(2);
    long owner = u.get(0);
    long member = u.get(1);
    long groupId = await(messaging.createGroup(owner, new JsonObject().put("kind", "topic").put("name", "Doomed")
        .put("topic", "doomed"))).getLong("id");
    long otherGroup = await(messaging.createGroup(owner, new JsonObject().put("kind", "topic").put("name", "Kept")
        .put("topic", "kept"))).getLong("id");
    await(messaging.joinGroup(member, groupId));
    await(messaging.joinGroup(member, otherGroup));
    long id = await(boards.create(member, new JsonObject().put("title", "plans").put("group", groupId)))
        .getLong("id");
    long kept = await(boards.create(member, new JsonObject().put("title", "kept").put("group", otherGroup)))
        .getLong("id");
    draw(member, id, stroke(2));
    draw(member, kept, stroke(2));
    List<JsonObject> announced = new java.util.concurrent.CopyOnWriteArrayList<>();
    var room = vertx.eventBus().<JsonObject>consumer(Addresses.room(Whiteboards.room(id)),
        m -> announced.add(m.body()));
    await(room.completion());
    try {
      await(messaging.dissolveGroup(owner, groupId));
      await(Poll.until(vertx, WAIT, "the dissolved group's board deleted", () -> boards.boards(member,
          new JsonObject(), TestPages.FIRST).map(Page::toJson).map(page -> page.getJsonArray("items").stream()
          .noneMatch(b -> ((JsonObject) b).getLong("id") == id))));
      failsWith("board_not_found", null, boards.delete(member, id));
      assertEquals(0L, await(platform.redisApi().exists(List.of(WhiteboardStrokes.strokesKey(id),
          WhiteboardStrokes.seqKey(id), WhiteboardStrokes.bytesKey(id)))).toLong());
      await(Poll.until(vertx, WAIT, "the deletion announced on the board's room", () -> Future.succeededFuture(
          announced.stream().anyMatch(n -> Whiteboards.PUSH_DELETED.equals(n.getString("kind"))))));
      // the other group's board is untouched
      assertFalse(await(boards.strokes(member, kept, TestPages.FIRST)
          .map(Page::toJson)).getJsonArray("items").isEmpty());
      assertEquals(1L, await(platform.redisApi().exists(List.of(WhiteboardStrokes.strokesKey(kept)))).toLong());
    } finally {
      await(room.unregister());
    }
  }

  @Test
  @DisplayName("users who lose a group (a g<group> room revocation) lose the rooms of the group's boards too "
      + "(the group board is stored directly: groups cannot be joined through the API on this branch)")
  void groupRevocationReachesBoards() throws Exception {
    long group = platform.ids().next();
    long boardA = platform.ids().next();
    long boardB = platform.ids().next();
    List<Long> u = newUsers(2);
    for (long id : new long[] {boardA, boardB}) {
      await(platform.mongo().insert(WhiteboardStore.BOARDS, new JsonObject().put("_id", id).put("kind", "group")
          .put("group", group).put("owner", u.get(0)).put("title", "g").put("created", System.currentTimeMillis())
          .put("v", 0L)));
    }
    try (Revocations revocations = new Revocations()) {
      vertx.eventBus().publish(Addresses.ROOMS_REVOKED, new JsonObject().put("room", "g" + group)
          .put("users", new JsonArray().add(u.get(1))));
      await(Poll.until(vertx, WAIT, "both boards' rooms revoked", () -> Future.succeededFuture(
          revocations.revoked(Whiteboards.room(boardA), u.get(1))
              && revocations.revoked(Whiteboards.room(boardB), u.get(1)))));
      assertFalse(revocations.revoked(Whiteboards.room(boardA), u.get(0)));
    }
    // while the groups stub answers "not a member", nobody reads or draws on it
    failsWith("board_not_found", null, boards.draw(u.get(0), boardA, stroke(1)));
  }

  @Test
  @DisplayName("the bridge addresses act as the stamped sender header only: without it nothing is drawn; typed "
      + "fields are checked")
  void bridgeAddresses() throws Exception {
    List<Long> u = newUsers(3);
    befriend(u.get(0), u.get(1));
    long board = adhoc(u.get(0), u.get(1)).getLong("id");
    JsonObject body = new JsonObject().put("board", board).put("stroke", stroke(2)).put("sender", u.get(0));
    ExecutionException e = assertThrows(ExecutionException.class, () -> await(vertx.eventBus()
        .request(Whiteboards.BRIDGE_STROKE, body)));
    assertEquals(401, ((ReplyException) e.getCause()).failureCode());
    assertEquals("unauthenticated", e.getCause().getMessage());
    JsonObject drawn = (JsonObject) await(vertx.eventBus().request(Whiteboards.BRIDGE_STROKE, body,
        as(u.get(1)))).body();
    assertEquals(u.get(1), drawn.getLong("by"));
    assertEquals(board, drawn.getLong("board"));
    JsonObject cleared = (JsonObject) await(vertx.eventBus().request(Whiteboards.BRIDGE_CLEAR,
        new JsonObject().put("board", board), as(u.get(0)))).body();
    assertEquals(drawn.getLong("seq") + 1, cleared.getLong("seq"));
    assertEquals(u.get(0), cleared.getLong("by"));
    refused(Whiteboards.BRIDGE_STROKE, body, u.get(2), 404, "board_not_found");
    refused(Whiteboards.BRIDGE_STROKE, body.copy().put("board", "1"), u.get(0), 400, "validation_failed");
    refused(Whiteboards.BRIDGE_STROKE, body.copy().put("stroke", "line"), u.get(0), 400, "validation_failed");
    refused(Whiteboards.BRIDGE_STROKE, body.copy().put("stroke", stroke(1).put("color", "red")), u.get(0), 400,
        "validation_failed");
    refused(Whiteboards.BRIDGE_CLEAR, new JsonObject(), u.get(0), 400, "validation_failed");
    refused(Whiteboards.BRIDGE_CLEAR, new JsonObject().put("board", board), u.get(2), 404, "board_not_found");
  }

  private static DeliveryOptions as(long user) {
    return new DeliveryOptions().addHeader(Addresses.SENDER_HEADER, Long.toString(user));
  }

  private void refused(String address, JsonObject body, long user, int status, String code) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> await(vertx.eventBus()
        .request(address, body, as(user))));
    assertEquals(status, ((ReplyException) e.getCause()).failureCode(), body.encode());
    assertEquals(code, e.getCause().getMessage(), body.encode());
  }
}
