package io.kith.messaging.api;

/**
 * Events the messaging domain appends to the stream {@code events:messaging}. Every payload names users by id;
 * {@code group} is the group's id, which is also its conversation id.
 *
 * <p>Each type has a record of the same name in {@code io.kith.messaging.api.events} whose {@code toJson()} writes the
 * payload and whose {@code fromJson} reads it: producers publish records, consumers read them.
 */
public final class MessagingEvents {

  /** The domain (stream) name. */
  public static final String DOMAIN = "messaging";
  /**
   * A message was persisted: {@code {message (id), conversation, seq, kind: "direct" | "group", from, to: [recipient
   * ids: the peer, or every member of the group but the sender at the time of sending], group? (group messages),
   * group_name? (group messages), mentions: [ids of members the message mentions; group messages only, else empty],
   * preview (up to 100 characters; empty for media)}}. Appended after the MongoDB write, once per message.
   */
  public static final String MESSAGE_SENT = "MessageSent";
  /**
   * Users were invited to a friend group: {@code {group, name, kind, by (the inviter), invited: [ids]}} (only users
   * newly invited; at most one invitation per user and group is pending).
   */
  public static final String GROUP_INVITED = "GroupInvited";
  /**
   * A user became a member: {@code {group, name, kind, user, via: "created" | "join" | "invitation" | "managed"}}
   * ({@code created} for the creator and the friends a friend group was created with).
   */
  public static final String GROUP_JOINED = "GroupJoined";
  /** A member was removed by the owner or an admin: {@code {group, name, kind, by, user}}. */
  public static final String MEMBER_KICKED = "MemberKicked";
  /** A member left a group: {@code {group, name, kind, user}}. */
  public static final String GROUP_LEFT = "GroupLeft";
  /**
   * A user read a conversation up to a sequence: {@code {conversation, user, seq (the new read marker), kind: "direct"
   * | "group"}}. Appended when a read marker moves forward (not for a marker that stays or would move back).
   */
  public static final String CONVERSATION_READ = "ConversationRead";
  /** An invited user declined a friend group's invitation: {@code {group, user}}. */
  public static final String INVITATION_DECLINED = "InvitationDeclined";
  /**
   * A pending group invitation passed its lifetime and was removed: {@code {group, user, expired_at}} (the moment it
   * expired; a new invitation to the same group is younger).
   */
  public static final String INVITATION_EXPIRED = "InvitationExpired";
  /** The owner dissolved a group: {@code {group, name, kind, by, members: [ids of the members it had]}}. */
  public static final String GROUP_DISSOLVED = "GroupDissolved";

  private MessagingEvents() {
  }
}
