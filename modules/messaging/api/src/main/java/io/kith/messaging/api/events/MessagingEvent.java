package io.kith.messaging.api.events;

import io.kith.messaging.api.MessagingEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonObject;

/**
 * An event of the messaging stream; users are named by id, and a group's id is also its conversation id. Consumers
 * read one with {@link #fromJson}, which gives the record of the entry's type.
 */
public sealed interface MessagingEvent extends Event
    permits MessageSent, GroupInvited, GroupJoined, MemberKicked, GroupLeft, ConversationRead, InvitationDeclined,
    InvitationExpired, GroupDissolved {

  /**
   * Reads a stream entry of {@code type} (a constant of {@link MessagingEvents}); null for a type this version does
   * not know (a newer node's), which consumers skip.
   */
  static MessagingEvent fromJson(String type, JsonObject json) {
    return switch (type) {
      case MessagingEvents.MESSAGE_SENT -> MessageSent.fromJson(json);
      case MessagingEvents.GROUP_INVITED -> GroupInvited.fromJson(json);
      case MessagingEvents.GROUP_JOINED -> GroupJoined.fromJson(json);
      case MessagingEvents.MEMBER_KICKED -> MemberKicked.fromJson(json);
      case MessagingEvents.GROUP_LEFT -> GroupLeft.fromJson(json);
      case MessagingEvents.CONVERSATION_READ -> ConversationRead.fromJson(json);
      case MessagingEvents.INVITATION_DECLINED -> InvitationDeclined.fromJson(json);
      case MessagingEvents.INVITATION_EXPIRED -> InvitationExpired.fromJson(json);
      case MessagingEvents.GROUP_DISSOLVED -> GroupDissolved.fromJson(json);
      default -> null;
    };
  }
}
