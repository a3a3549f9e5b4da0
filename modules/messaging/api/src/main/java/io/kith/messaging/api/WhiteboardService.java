package io.kith.messaging.api;

import io.kith.platform.bus.ServiceProxies;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.codegen.annotations.GenIgnore;
import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * Shared whiteboards: a board belongs to a chat group (its members are the group's members, asked of
 * {@link MessagingInternal#mayListen} on every call) or to an ad-hoc set of the creator's friends. Strokes and clears
 * are stored (the last N per board, in Redis) and relayed live on the board's room ({@link Whiteboards#room}). Room
 * access for the bridges is on {@link WhiteboardInternal}.
 *
 * <p>Every method takes the acting user first (filled by the gateway or the bridge from a verified token). A board
 * the actor is not a member of answers exactly like one that does not exist
 * ({@link WhiteboardErrors#BOARD_NOT_FOUND}), for reading, drawing and everything else.
 *
 * <p><b>Board view</b>: {@code {id, kind: "group" | "adhoc", group? (group boards), owner, members? (ad-hoc boards:
 * ids, the owner first), title, created, cleared_at?, cleared_by?}}.
 *
 * <p><b>Entry</b> (what a board keeps and {@link #strokes} pages): {@code {seq, kind: "stroke" | "clear", by, at,
 * stroke? (strokes)}}; the stroke format is described on {@link Whiteboards}.
 */
@ProxyGen
@VertxGen
public interface WhiteboardService {

  /** Event-bus address of the service. */
  String ADDRESS = "kith.messaging.boards";

  /** A proxy to the service (on any node of the cluster). */
  @GenIgnore
  static WhiteboardService proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, WhiteboardService.class, ADDRESS);
  }

  /**
   * Creates a board owned by the actor. {@code spec}: {@code {title (1..100 characters), group? (a group id: a group
   * board, for a member of that group), members? (ad-hoc boards: up to 20 user ids, each a friend of the actor)}};
   * {@code group} and {@code members} do not go together. Answers the board view.
   *
   * <p>Refused with {@link WhiteboardErrors#GROUP_NOT_FOUND} when the actor is not a member of the group,
   * {@link WhiteboardErrors#MEMBER_NOT_FRIEND} when a member is not the actor's friend, and
   * {@link WhiteboardErrors#BOARD_LIMIT} when the actor already owns as many boards as allowed.
   */
  Future<JsonObject> create(long actor, JsonObject spec);

  /**
   * Boards of the actor, newest first: a page {@code {items: [<board view>], next}}. {@code query}: {@code {group?
   * (the boards of that group, for a member)}}; without {@code group}, the ad-hoc boards the actor is a member of.
   * {@code page}: its limit (1..100, default 20) and cursor ({@code before}: the previous page's next).
   */
  Future<Page> boards(long actor, JsonObject query, PageRequest page);

  /** One board of the actor: its view. */
  Future<JsonObject> board(long actor, long boardId);

  /**
   * The kept entries of a board, ascending by {@code seq}: a page {@code {items, board, last_seq, reset}}.
   * {@code page}: its limit (1..200, default 100) and cursor ({@code after_seq}: a sequence number as a string, 0 a
   * real position). With {@code after_seq} (the last {@code seq} the client holds)
   * the page continues right after it; when that cannot be done (those entries are no longer kept, or the board's
   * strokes expired since), and without {@code after_seq} (a late joiner), the page starts at the oldest kept entry
   * and {@code reset} is true: the client drops what it holds of the board first. Page on with the last item's
   * {@code seq} until {@code items} is empty.
   */
  Future<Page> strokes(long actor, long boardId, PageRequest page);

  /**
   * Draws a stroke on a board of the actor (see {@link Whiteboards} for the format). Answered once stored:
   * {@code {board, seq, by, at}}; the stroke is then relayed to the board's room. Limited per user and second
   * ({@code rate_limited} with {@code retry_after}).
   */
  Future<JsonObject> draw(long actor, long boardId, JsonObject stroke);

  /** Clears a board of the actor (any member may): {@code {board, seq, by, at}}; relayed like a stroke. */
  Future<JsonObject> clear(long actor, long boardId);

  /**
   * Adds members to the actor's ad-hoc board (owner only; each a friend of the owner; up to 20 members besides the
   * owner). Adding a member again changes nothing. Answers the board view.
   */
  Future<JsonObject> addMembers(long actor, long boardId, List<Long> users);

  /**
   * Removes a member from an ad-hoc board: the owner removes anyone but themselves, a member removes themselves
   * (leaves). Removing a non-member changes nothing. The removed user loses the board's room at once.
   */
  Future<Void> removeMember(long actor, long boardId, long userId);

  /** Deletes the actor's board (owner only) and its strokes; its members lose the room. */
  Future<Void> delete(long actor, long boardId);
}
