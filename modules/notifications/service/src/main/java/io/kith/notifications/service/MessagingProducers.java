package io.kith.notifications.service;

import io.kith.accounts.api.AccountsInternal;
import io.kith.messaging.api.MessagingEvents;
import io.kith.notifications.api.Notifications;
import io.kith.platform.events.DomainEvent;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * Notifications from the messaging stream (consumer group {@value #GROUP}):
 * <ul>
 *   <li>{@code MessageSent}, direct: a {@link Notifications#MESSAGE} to each recipient who is offline when the event
 *   is handled, one per conversation (slot {@code message:<conversation>}): each newer message replaces it with its
 *   preview and a count. Presence is asked first, for all the recipients in one call, and only the offline ones go
 *   through the other rules (preferences, blocks): in a chat the recipient is usually online, and then the event
 *   costs one presence call and nothing else. Group messages tell nobody one by one (the conversations list has
 *   unread counts), except the members they mention ({@link Notifications#CHAT_MENTION}, whether online or
 *   not).</li>
 *   <li>{@code ConversationRead}: the reader's {@link Notifications#MESSAGE} of the conversation and their
 *   {@link Notifications#CHAT_MENTION}s in it up to the read sequence are marked read.</li>
 *   <li>{@code GroupInvited}: a {@link Notifications#GROUP_INVITATION} to each invited user; {@code GroupJoined}
 *   and {@code InvitationDeclined} take it back (answered), the former also a kick notice of that group.</li>
 *   <li>{@code MemberKicked}: a {@link Notifications#MEMBER_KICKED} to the removed user, whose chat mentions of the
 *   group go (the conversation is closed to them); {@code GroupLeft} removes the leaver's chat mentions of the group;
 *   {@code GroupDissolved} every chat mention and invitation of the group.</li>
 * </ul>
 * This class only dispatches: the chat rules are {@link ChatNotices}', the group ones {@link GroupNotices}'.
 */
final class MessagingProducers {

  static final String GROUP = "notifications-messaging";
  private final ChatNotices chat;
  private final GroupNotices groups;

  MessagingProducers(SystemChanges system, Notifier notifier, AccountsInternal accounts) {
    this.chat = new ChatNotices(system, notifier, accounts);
    this.groups = new GroupNotices(system, notifier);
  }

  Future<?> handle(DomainEvent e) {
    JsonObject p = e.payload();
    return switch (e.type()) {
      case MessagingEvents.MESSAGE_SENT -> chat.messageSent(e, p);
      case MessagingEvents.CONVERSATION_READ -> chat.read(e, p);
      case MessagingEvents.GROUP_INVITED -> groups.invited(e, p);
      case MessagingEvents.INVITATION_DECLINED -> groups.declined(e, p);
      case MessagingEvents.INVITATION_EXPIRED -> groups.expired(e, p);
      case MessagingEvents.GROUP_JOINED -> groups.joined(e, p);
      case MessagingEvents.MEMBER_KICKED -> groups.kicked(e, p);
      case MessagingEvents.GROUP_LEFT -> groups.left(e, p);
      case MessagingEvents.GROUP_DISSOLVED -> groups.dissolved(e, p);
      default -> Future.succeededFuture();
    };
  }
}
