package io.kith.messaging.api;

/**
 * Limits, real-time envelopes and bridge addresses of whiteboards.
 *
 * <p>A board's live traffic goes to its room address {@code kith.room.b<boardId>} ({@link #room}), which only the
 * board's members may register on, as {@code {kind, board, ...}}:
 * <ul>
 *   <li>{@value #PUSH_STROKE}: {@code {kind, board, seq, by, at, stroke}}, a stroke was stored;</li>
 *   <li>{@value #PUSH_CLEAR}: {@code {kind, board, seq, by, at}}, the board was cleared (everything with a lower
 *   {@code seq} is gone);</li>
 *   <li>{@value #PUSH_MEMBERS}: {@code {kind, board, members}}, an ad-hoc board's members changed;</li>
 *   <li>{@value #PUSH_DELETED}: {@code {kind, board}}, the board was deleted.</li>
 * </ul>
 * A user added to or removed from an ad-hoc board is also told on their own address {@code kith.user.<id>}:
 * {@value #PUSH_BOARD_ADDED} {@code {kind, board: <board view>}} (also to the members a board is created with) and
 * {@value #PUSH_BOARD_REMOVED} {@code {kind, board: <id>}}.
 *
 * <p>Sequences increase per board but are not consecutive across an expiry of the board's strokes; live envelopes of
 * one board may arrive out of order when several nodes relay them: clients place strokes by {@code seq}.
 *
 * <p><b>Stroke</b>: {@code {tool: "pen" | "eraser", color: "#rrggbb" (required for a pen), width (1..50),
 * points: [[x, y], ...] (1..1,000 points, each coordinate within ±100,000), client_id? (1..64 characters, echoed so a
 * client can recognise its own stroke)}}; nothing else. Numbers are stored rounded to 2 decimals; the stored stroke
 * is at most {@link #MAX_STROKE_BYTES} bytes.
 */
public final class Whiteboards {

  /** Most points in one stroke. */
  public static final int MAX_POINTS = 1_000;
  /** Largest absolute value of a coordinate. */
  public static final double MAX_COORDINATE = 100_000;
  /** Thinnest stroke. */
  public static final double MIN_WIDTH = 1;
  /** Thickest stroke. */
  public static final double MAX_WIDTH = 50;
  /**
   * Largest stroke once normalized and encoded as JSON, in bytes (1,000 points of long coordinates would be ~22 KB):
   * a larger one is refused ({@code validation_failed} on {@code points}); split it into several strokes.
   */
  public static final int MAX_STROKE_BYTES = 16 * 1024;
  /** Longest board title, in characters (code points). */
  public static final int MAX_TITLE = 100;
  /** Longest client stroke id. */
  public static final int MAX_CLIENT_ID = 64;

  /** Envelope kind of a stored stroke. */
  public static final String PUSH_STROKE = "stroke";
  /** Envelope kind of a clear. */
  public static final String PUSH_CLEAR = "clear";
  /** Envelope kind of a change of an ad-hoc board's members. */
  public static final String PUSH_MEMBERS = "members";
  /** Envelope kind of a deleted board. */
  public static final String PUSH_DELETED = "deleted";
  /** Envelope kind, on a user's address, of being made a member of an ad-hoc board. */
  public static final String PUSH_BOARD_ADDED = "board_added";
  /** Envelope kind, on a user's address, of being removed from an ad-hoc board (or leaving it). */
  public static final String PUSH_BOARD_REMOVED = "board_removed";

  /**
   * Bridge-reachable address that draws a stroke: body {@code {board, stroke}}, the drawing user taken from the
   * header the bridge stamps. Replies {@code {board, seq, by, at}} once the stroke is stored, or fails with the HTTP
   * status as failure code and the stable error code as message.
   */
  public static final String BRIDGE_STROKE = "kith.messaging.board.stroke";
  /** Bridge-reachable address that clears a board: {@code {board}}; replies {@code {board, seq, by, at}}. */
  public static final String BRIDGE_CLEAR = "kith.messaging.board.clear";

  private Whiteboards() {
  }

  /** The room id of a board ({@code b<boardId>}); its address is {@code kith.room.b<boardId>}. */
  public static String room(long boardId) {
    return "b" + boardId;
  }
}
