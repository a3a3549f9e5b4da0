package io.kith.messaging.api;

/**
 * Limits, real-time envelopes and bridge addresses of the messaging domain.
 *
 * <p>Direct conversations push to the users' addresses {@code kith.user.<id>} as {@code {kind, ...}}:
 * <ul>
 *   <li>{@value #PUSH_MESSAGE}: {@code {kind, message}}, to the recipient and to the sender's other connections;</li>
 *   <li>{@value #PUSH_READ}: {@code {kind, conversation, user, seq}}, to the other party when {@code user} has read
 *   up to {@code seq} (unless {@code user} turned read receipts off) and to {@code user}'s own connections;</li>
 *   <li>{@value #PUSH_RECALLED}: {@code {kind, conversation, seq, id}}, to both parties;</li>
 *   <li>{@value #PUSH_MESSAGE_REMOVED}: {@code {kind, conversation, seq, id}}, to both parties (or the group's room),
 *   when a moderator removed the message;</li>
 *   <li>{@value #PUSH_TYPING}: {@code {kind, conversation, user}}, to the other party (ephemeral, never stored).</li>
 * </ul>
 *
 * <p>A group's messages, recalls, typing and membership changes go to its room {@code kith.room.g<groupId>} (see
 * {@link #groupRoom}), which only current members may listen on: {@value #PUSH_MESSAGE}, {@value #PUSH_RECALLED},
 * {@value #PUSH_TYPING} as above, and {@value #PUSH_GROUP_CHANGED} {@code {kind, group, change: "joined" | "left" |
 * "kicked" | "role" | "updated", user?, by?, role?}}. What concerns one user goes to that user's address:
 * {@value #PUSH_READ} (to the reader's own connections only: groups have no read receipts),
 * {@value #PUSH_GROUP_ADDED} {@code {kind, group: <group view>, via}} when the user became a member (register on the
 * room now), {@value #PUSH_GROUP_INVITED} {@code {kind, group: <group view>, by}} and {@value #PUSH_GROUP_REMOVED}
 * {@code {kind, group, reason: "kicked" | "left" | "dissolved" | "removed"}} when the user lost the group (the room
 * stops delivering to them at once).
 */
public final class Messaging {

  /** Longest message text, in characters (UTF-16 code units are not counted: code points are). */
  public static final int MAX_TEXT = 4_000;
  /** Longest client message id. */
  public static final int MAX_CLIENT_ID = 64;

  /** Longest group name, in characters. */
  public static final int MAX_GROUP_NAME = 50;
  /** Longest topic of a topic group, in characters. */
  public static final int MAX_TOPIC = 30;
  /** Longest group description, in characters. */
  public static final int MAX_ABOUT = 500;
  /** Most users a group message may mention. */
  public static final int MAX_MENTIONS = 50;
  /** Most users one call may invite (or create a friend group with). */
  public static final int MAX_INVITEES = 50;
  /** Most ids one {@code setManagedMembers} call may name (added and removed together). */
  public static final int MAX_MANAGED_CHANGE = 500;

  /** Envelope kind of a new message. */
  public static final String PUSH_MESSAGE = "message";
  /** Envelope kind of a read receipt. */
  public static final String PUSH_READ = "read";
  /** Envelope kind of a recall. */
  public static final String PUSH_RECALLED = "recalled";
  /** Envelope kind of a message a moderator removed: {@code {kind, conversation, seq, id}}, like a recall. */
  public static final String PUSH_MESSAGE_REMOVED = "message_removed";
  /** Envelope kind of a typing indicator. */
  public static final String PUSH_TYPING = "typing";
  /** Envelope kind of a membership or group change, on the group's room. */
  public static final String PUSH_GROUP_CHANGED = "group_changed";
  /** Envelope kind telling a user they became a member of a group (on the user's address). */
  public static final String PUSH_GROUP_ADDED = "group_added";
  /** Envelope kind of an invitation to a group (on the invitee's address). */
  public static final String PUSH_GROUP_INVITED = "group_invited";
  /** Envelope kind telling a user they lost a group (on the user's address). */
  public static final String PUSH_GROUP_REMOVED = "group_removed";

  /**
   * Bridge-reachable address that sends a message: body {@code {to, client_id, text?, media?}} (direct, as
   * {@link MessagingService#send}) or {@code {group, client_id, text?, media?, mentions?}} (as
   * {@link MessagingService#sendToGroup}), exactly one of {@code to} and {@code group}; the sender taken from the
   * header the bridge stamps. Replies with what the service answers, or fails with the HTTP status as failure code
   * and the stable error code as message.
   */
  public static final String BRIDGE_SEND = "kith.messaging.send";
  /** Bridge-reachable address that moves the sender's read marker: {@code {conversation, seq}}. */
  public static final String BRIDGE_READ = "kith.messaging.read";
  /** Bridge-reachable address of a typing indicator: {@code {conversation}} (no reply). */
  public static final String BRIDGE_TYPING = "kith.messaging.typing";

  private Messaging() {
  }

  /** The room id of a group ({@code "g<groupId>"}); its address is {@code kith.room.g<groupId>}. */
  public static String groupRoom(long groupId) {
    return "g" + groupId;
  }
}
