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
 * Chat between users: direct conversations and groups with per-conversation sequence numbers, history paged by
 * sequence, read markers with exact unread counts, read receipts, recall, and per-user messaging settings.
 *
 * <p>Every method takes the acting user first (filled by the gateway or the bridge from a verified token) and decides
 * what that user may do. A conversation the actor is not part of answers exactly like one that does not exist
 * ({@link MessagingErrors#CONVERSATION_NOT_FOUND}). Room access for the bridges and managed groups are on
 * {@link MessagingInternal}.
 *
 * <p><b>Message view</b>: {@code {id, conversation, seq, sender, to (direct), group (group messages), mentions
 * (group messages), client_id, created, text?, media?, recalled?}}; a recalled message keeps its place ({@code seq})
 * and loses {@code text} and {@code media}.
 *
 * <p><b>Conversation view</b>: {@code {id, kind: "direct" | "group", peer: <user summary or {id}> (direct), group:
 * <group summary> (group), last_message: <message view or null>, last_seq, read_seq (the actor's marker), unread
 * (messages after the marker sent by others and not recalled, capped at 100: 100 means "99+"), updated (ms of the
 * last activity)}}. A group's
 * conversation id is the group id: history, read markers, typing and recall of a group use the conversation methods.
 *
 * <p><b>Group view</b>: {@code {id, kind: "topic" | "friends" | "managed", name, topic (topic groups), about, owner,
 * member_count, member_cap (null for managed groups), created, role: "owner" | "admin" | "member" | null (the
 * actor's), invited (whether the actor has a pending invitation)}}. The group summary in a conversation view is
 * {@code {id, kind, name, topic?, member_count, role}}.
 */
@ProxyGen
@VertxGen
public interface MessagingService {

  /** Event-bus address of the service. */
  String ADDRESS = "kith.messaging";

  /** A proxy to the service (on any node of the cluster). */
  @GenIgnore
  static MessagingService proxy(Vertx vertx) {
    return ServiceProxies.proxy(vertx, MessagingService.class, ADDRESS);
  }

  /**
   * Sends a direct message from the actor to {@code to}: {@code message = {client_id (1..64 characters), text?
   * (1..4,000 characters), media? (a reference, 1..512 characters)}}, text or media or both. The answer comes only
   * after the message is stored: {@code {message: <view>, duplicate: bool}}. The same {@code client_id} from the same
   * sender answers the first message again ({@code duplicate: true}) and stores nothing.
   *
   * <p>Refused with {@link MessagingErrors#NOT_ALLOWED} when either user blocked the other or the recipient accepts
   * messages from friends only and the sender is not one; {@link MessagingErrors#USER_NOT_FOUND} for an unknown
   * recipient.
   */
  Future<JsonObject> send(long actor, long to, JsonObject message);

  /**
   * The actor's conversations, most recent activity first: a page {@code {items: [<conversation view>], next}}.
   * {@code page}: its limit (1..100, default 20) and cursor ({@code before}: the previous page's next).
   */
  Future<Page> conversations(long actor, PageRequest page);

  /**
   * The actor's direct conversation with {@code userId} (to open a chat screen before anything is sent), or
   * {@link MessagingErrors#CONVERSATION_NOT_FOUND} when they have none yet.
   */
  Future<JsonObject> directConversation(long actor, long userId);

  /** One conversation of the actor: its view. */
  Future<JsonObject> conversation(long actor, long conversationId);

  /**
   * Messages of a conversation of the actor, ascending by {@code seq}: a page {@code {items, last_seq}}.
   * {@code query}: {@code {before_seq?}} (the page older than it); {@code page}: its limit (1..100, default 50) and
   * cursor ({@code after_seq}: a sequence number as a string, 0 a real position); with neither cursor, the newest
   * page. With {@code after_seq} the page starts right after it: a reconnecting client passes the last {@code seq}
   * it holds and repeats until {@code items} is empty; a sequence still being written is never skipped over.
   */
  Future<Page> history(long actor, long conversationId, JsonObject query, PageRequest page);

  /**
   * Moves the actor's read marker of a conversation forward to {@code seq} (never back; clamped to the last
   * sequence), pushes a read receipt to the other party unless the actor turned receipts off:
   * {@code {conversation, read_seq, unread (capped at 100)}}. Past {@code messaging.mark-reads-per-minute} moves
   * of the actor: {@code rate_limited} with {@code retry_after}.
   */
  Future<JsonObject> markRead(long actor, long conversationId, long seq);

  /**
   * Recalls the actor's own message within the recall window (2 minutes): it stays in history as
   * {@code recalled: true} without content, and both parties are told. Answers the message view.
   */
  Future<JsonObject> recall(long actor, long messageId);

  /**
   * Who read the actor's own message (direct or group): the other current members of its conversation whose read
   * marker reached its sequence, except those who turned their read receipts off (neither listed nor counted).
   * a page {@code {items: [{user: <accounts summary>}], read_count, next}} by user id; {@code page}: its limit
   * (1..100, default 50) and cursor ({@code after}: the previous page's next). Someone else's message:
   * {@code not_your_message}; a message the actor cannot see: {@code message_not_found}.
   */
  Future<Page> messageReaders(long actor, long messageId, PageRequest page);

  /**
   * Tells the other party of a conversation that the actor is typing (ephemeral; nothing is stored). One indicator
   * per user and conversation per {@code typing-interval-millis} (2 s) is delivered; calls within the interval
   * succeed and are dropped.
   */
  Future<Void> typing(long actor, long conversationId);

  /** The actor's messaging settings: {@code {messages_from: "everyone" | "friends", read_receipts: bool}}. */
  Future<JsonObject> settings(long actor);

  /** Changes the members given of the actor's messaging settings; returns them all. */
  Future<JsonObject> updateSettings(long actor, JsonObject changes);

  // ------------------------------------------------------------------ groups

  /**
   * Creates a group owned by the actor: {@code spec = {kind: "topic" | "friends", name (1..50 characters), topic
   * (topic groups only and required: 1..30 characters, found by search), about? (up to 500 characters), members?
   * (friend groups only: up to 50 ids of the actor's friends, members at once)}}. Answers the group view. Refused with
   * {@link MessagingErrors#NOT_FRIENDS} naming {@code members} when one of them is not the actor's friend, and
   * {@code rate_limited} past the hourly creation limit.
   */
  Future<JsonObject> createGroup(long actor, JsonObject spec);

  /**
   * Topic groups matching {@code query = {q (1..50 characters: every word must start a word of the group's name or
   * topic, ignoring case)}} and {@code page} (its limit, 1..50, default 20, and cursor {@code before}: the previous
   * page's next), newest first: a page {@code {items: [<group view>], next}}. Dissolved groups are not found.
   */
  Future<Page> searchGroups(long actor, JsonObject query, PageRequest page);

  /**
   * One group: its view. A topic group is visible to anyone; a friend group to its members and the users invited to
   * it; a managed group to its members; otherwise {@link MessagingErrors#GROUP_NOT_FOUND}.
   */
  Future<JsonObject> group(long actor, long groupId);

  /**
   * Changes a group's {@code name}, {@code about} and (topic groups) {@code topic}; the owner or an admin may.
   * Answers the group view.
   */
  Future<JsonObject> updateGroup(long actor, long groupId, JsonObject changes);

  /**
   * Dissolves a group (the owner only): every member loses it and its room at once; its messages stay stored but
   * nobody can read them any more, and it is found by nobody.
   */
  Future<Void> dissolveGroup(long actor, long groupId);

  /**
   * Joins a group: anyone may join a topic group while it is under its member cap ({@link MessagingErrors#GROUP_FULL}
   * beyond); a friend group needs a pending invitation, which joining accepts. Joining again answers the group as
   * it is. A user kicked from the group is refused {@link MessagingErrors#BANNED_FROM_GROUP} until its owner or an
   * admin invites them again. Joins and leaves count together against {@code group-joins-per-minute} (30; then
   * {@code rate_limited}). Answers the group view.
   */
  Future<JsonObject> joinGroup(long actor, long groupId);

  /**
   * Leaves a group: the actor loses its messages and room at once (counted with joins against the join limit). An
   * owner leaving hands the group to the oldest
   * admin, else the oldest member; the last member leaving dissolves it (not a managed group, whose owner stays).
   */
  Future<Void> leaveGroup(long actor, long groupId);

  /**
   * Invites friends of the actor (up to 50 ids) to a group the actor is a member of: {@code {invited: [ids newly
   * invited]}} (members and users invited already are left out). {@link MessagingErrors#NOT_FRIENDS} when one of them
   * is not the actor's friend; {@link MessagingErrors#BANNED_FROM_GROUP} (naming {@code users}) when a plain member
   * invites a user kicked from the group (an invitation by the owner or an admin lifts the ban);
   * {@code rate_limited} past the hourly limit.
   */
  Future<JsonObject> inviteToGroup(long actor, long groupId, List<Long> users);

  /**
   * Members of a group the actor is a member of, oldest first: a page {@code {items: [{user: <summary>, role,
   * joined}], next}}; {@code page}: its limit (1..100, default 50) and cursor ({@code after}: the previous page's
   * next).
   */
  Future<Page> groupMembers(long actor, long groupId, PageRequest page);

  /**
   * Removes a member: the owner may remove anyone, an admin only members. The member loses the group's messages
   * and room at once and is banned from the group: they may come back only when its owner or an admin invites them
   * (which lifts the ban), then as a new member.
   */
  Future<Void> kickMember(long actor, long groupId, long userId);

  /**
   * Sets a member's role (the owner only): {@code "admin"} or {@code "member"}, or {@code "owner"} to hand the group
   * over (the former owner becomes an admin). Answers {@code {user, role, joined}}.
   */
  Future<JsonObject> setMemberRole(long actor, long groupId, long userId, String role);

  /**
   * Sends a message to a group the actor is a member of: {@code message = {client_id, text?, media?, mentions? (up
   * to 50 user ids; those who are not members are dropped)}}. Answered after it is stored, like {@link #send}
   * ({@code {message, duplicate}}, idempotent by client id), then delivered to the group's room.
   */
  Future<JsonObject> sendToGroup(long actor, long groupId, JsonObject message);

  /**
   * The actor's pending group invitations, newest first: {@code {items: [{group: <group view>, by: <user summary>,
   * created}], next}} as a page; {@code page}: its limit (1..100, default 20) and cursor ({@code before}: the previous
   * page's next).
   */
  Future<Page> groupInvitations(long actor, PageRequest page);

  /** Declines (drops) the actor's pending invitation to a group; nothing happens when there is none. */
  Future<Void> declineInvitation(long actor, long groupId);
}
