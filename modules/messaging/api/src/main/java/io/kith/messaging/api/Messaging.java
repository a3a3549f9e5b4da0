package io.kith.messaging.api;

/**
 * Limits, real-time envelopes and bridge addresses of the messaging domain.
 *
 * <p>Everything pushed to a user goes to {@code kith.user.<id>} as {@code {kind, ...}}:
 * <ul>
 *   <li>{@value #PUSH_MESSAGE}: {@code {kind, message}}, to the recipient and to the sender's other connections;</li>
 *   <li>{@value #PUSH_READ}: {@code {kind, conversation, user, seq}}, to the other party when {@code user} has read
 *   up to {@code seq} (unless {@code user} turned read receipts off) and to {@code user}'s own connections;</li>
 *   <li>{@value #PUSH_RECALLED}: {@code {kind, conversation, seq, id}}, to both parties;</li>
 *   <li>{@value #PUSH_TYPING}: {@code {kind, conversation, user}}, to the other party (ephemeral, never stored).</li>
 * </ul>
 */
public final class Messaging {

  /** Longest message text, in characters (UTF-16 code units are not counted: code points are). */
  public static final int MAX_TEXT = 4_000;
  /** Longest client message id. */
  public static final int MAX_CLIENT_ID = 64;
  /** Longest media reference. */
  public static final int MAX_MEDIA = 512;

  /** Envelope kind of a new message. */
  public static final String PUSH_MESSAGE = "message";
  /** Envelope kind of a read receipt. */
  public static final String PUSH_READ = "read";
  /** Envelope kind of a recall. */
  public static final String PUSH_RECALLED = "recalled";
  /** Envelope kind of a typing indicator. */
  public static final String PUSH_TYPING = "typing";

  /**
   * Bridge-reachable address that sends a direct message: body {@code {to, text?, media?, client_id}}, the sender
   * taken from the header the bridge stamps. Replies with what {@link MessagingService#send} answers, or fails with
   * the HTTP status as failure code and the stable error code as message.
   */
  public static final String BRIDGE_SEND = "kith.messaging.send";
  /** Bridge-reachable address that moves the sender's read marker: {@code {conversation, seq}}. */
  public static final String BRIDGE_READ = "kith.messaging.read";
  /** Bridge-reachable address of a typing indicator: {@code {conversation}} (no reply). */
  public static final String BRIDGE_TYPING = "kith.messaging.typing";

  private Messaging() {
  }
}
