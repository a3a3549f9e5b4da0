package io.kith.messaging.service;

import io.kith.accounts.api.AccountsService;
import io.kith.messaging.api.MessagingInternal;
import io.kith.messaging.api.MessagingService;
import io.kith.platform.Platform;
import io.kith.platform.limit.RateLimiter;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.function.Consumer;

/**
 * The messaging service: builds one object per feature and delegates each call to it (see the module README's
 * "Files" table). Sending is {@link Sends}; reading is {@link History}, {@link ConversationList} and
 * {@link Receipts}; {@link Recalls}, {@link Typing} and {@link Preferences} do what they say; group membership,
 * roles, invitations and managed groups are decided by {@link Groups} and the group feature files.
 */
final class MessagingServiceImpl implements MessagingService {

  private final Preferences preferences;
  private final Sends sends;
  private final Conversations access;
  private final History history;
  private final ConversationList conversationList;
  private final Receipts receipts;
  private final Recalls recalls;
  private final Typing typing;
  private final Groups groups;
  private final GroupLifecycle lifecycle;
  private final GroupSearch search;
  private final Memberships memberships;
  private final GroupRoles roles;
  private final GroupInvitations invitations;
  private final ManagedGroups managed;
  private final ModeratorRemovals removals;

  MessagingServiceImpl(Platform platform, MessagingSettings settings, ConversationStore conversations,
                       GroupStore groupStore, MessageStore messages, RecentWindow window, AccountsService accounts,
                       RelationsInternal relations) {
    RateLimiter limiter = new RateLimiter(platform.redis());
    Conversations access = new Conversations(conversations);
    this.access = access;
    this.preferences = new Preferences(platform, conversations);
    this.groups = new Groups(settings, conversations, groupStore, relations, limiter);
    GroupNotices notices = new GroupNotices(platform, groups);
    this.lifecycle = new GroupLifecycle(platform, settings, groupStore, groups, notices);
    this.search = new GroupSearch(groupStore, groups);
    this.memberships = new Memberships(settings, groupStore, accounts, groups, notices, lifecycle);
    this.roles = new GroupRoles(conversations, groupStore, groups, notices);
    this.invitations = new GroupInvitations(platform, settings, groupStore, accounts, groups, notices);
    this.managed = new ManagedGroups(platform, conversations, groupStore, groups, notices);
    this.sends = new Sends(platform, settings, conversations, messages, window, accounts, relations, limiter, groups,
        preferences);
    this.history = new History(settings, messages, window, access, accounts);
    this.receipts = new Receipts(platform, settings, conversations, messages, accounts, relations, limiter, access,
        preferences);
    this.conversationList = new ConversationList(conversations, messages, accounts, access, receipts);
    this.recalls = new Recalls(platform, settings, conversations, messages, window, access);
    this.typing = new Typing(platform, settings, limiter, access);
    this.removals = new ModeratorRemovals(messages, groupStore, access, conversations, recalls, lifecycle);
  }

  /** Called with a group's id once it is dissolved on this node. */
  void onGroupDissolved(Consumer<Long> hook) {
    lifecycle.onDissolved(hook);
  }

  /** Whether {@code viewer} may read media attached to {@code conversation}: whether they are one of its members. */
  Future<Boolean> mayReadMedia(long viewer, long conversation) {
    return viewer <= 0 ? Future.succeededFuture(false)
        : access.mine(viewer, conversation).map(conv -> true).otherwise(false);
  }

  /** A user's settings changed on some node: this node's copy goes. */
  void settingsChanged(long user) {
    preferences.settingsChanged(user);
  }

  /** An erased account leaves a group as a leave does, without the rate limit ({@link Erasure}). */
  Future<Void> leaveErased(long user, long groupId) {
    return memberships.leaveUnthrottled(user, groupId);
  }

  /** An erased account's managed groups (an activity's discussion) are dissolved ({@link Erasure}). */
  Future<Void> dissolveErased(long owner, long groupId) {
    return lifecycle.dissolveOrphaned(owner, groupId);
  }

  /** The conversation views of these member documents of {@code actor} ({@link Export}). */
  Future<List<JsonObject>> conversationViews(long actor, List<JsonObject> members) {
    return conversationList.views(actor, members);
  }

  /** The group view of {@code doc} as {@code actor}, a member with member document {@code member}, sees it. */
  JsonObject groupView(JsonObject doc, JsonObject member, long actor) {
    return groups.view(doc, Groups.roleOf(doc, member, actor), false);
  }

  // ------------------------------------------------------------------ messages

  @Override
  public Future<JsonObject> send(long actor, long to, JsonObject message) {
    return sends.send(actor, to, message);
  }

  @Override
  public Future<JsonObject> sendToGroup(long actor, long groupId, JsonObject message) {
    return sends.sendToGroup(actor, groupId, message);
  }

  @Override
  public Future<Page> history(long actor, long conversationId, JsonObject query, PageRequest page) {
    return PageQuery.items(history.history(actor, conversationId, PageQuery.paged(query, page, "after_seq", true)));
  }

  @Override
  public Future<JsonObject> markRead(long actor, long conversationId, long seq) {
    return receipts.markRead(actor, conversationId, seq);
  }

  @Override
  public Future<JsonObject> recall(long actor, long messageId) {
    return recalls.recall(actor, messageId);
  }

  @Override
  public Future<Page> messageReaders(long actor, long messageId, PageRequest page) {
    return PageQuery.items(receipts.messageReaders(actor, messageId, PageQuery.paged(null, page, "after", true)));
  }

  @Override
  public Future<Void> typing(long actor, long conversationId) {
    return typing.typing(actor, conversationId);
  }

  // ------------------------------------------------------------------ conversations and settings

  @Override
  public Future<Page> conversations(long actor, PageRequest page) {
    return PageQuery.items(conversationList.conversations(actor, PageQuery.paged(null, page, "before", false)));
  }

  @Override
  public Future<JsonObject> directConversation(long actor, long userId) {
    return conversationList.directConversation(actor, userId);
  }

  @Override
  public Future<JsonObject> conversation(long actor, long conversationId) {
    return conversationList.conversation(actor, conversationId);
  }

  @Override
  public Future<JsonObject> settings(long actor) {
    return preferences.settingsOf(actor);
  }

  @Override
  public Future<JsonObject> updateSettings(long actor, JsonObject changes) {
    return preferences.updateSettings(actor, changes);
  }

  // ------------------------------------------------------------------ groups (the rules live in Groups)

  @Override
  public Future<JsonObject> createGroup(long actor, JsonObject spec) {
    return lifecycle.create(actor, spec);
  }

  @Override
  public Future<Page> searchGroups(long actor, JsonObject query, PageRequest page) {
    return PageQuery.items(search.search(actor, PageQuery.paged(query, page, "before", true)));
  }

  @Override
  public Future<JsonObject> group(long actor, long groupId) {
    return lifecycle.group(actor, groupId);
  }

  @Override
  public Future<JsonObject> updateGroup(long actor, long groupId, JsonObject changes) {
    return lifecycle.update(actor, groupId, changes);
  }

  @Override
  public Future<Void> dissolveGroup(long actor, long groupId) {
    return lifecycle.dissolve(actor, groupId);
  }

  @Override
  public Future<JsonObject> joinGroup(long actor, long groupId) {
    return memberships.join(actor, groupId);
  }

  @Override
  public Future<Void> leaveGroup(long actor, long groupId) {
    return memberships.leave(actor, groupId);
  }

  @Override
  public Future<JsonObject> inviteToGroup(long actor, long groupId, List<Long> users) {
    return invitations.invite(actor, groupId, users);
  }

  @Override
  public Future<Page> groupMembers(long actor, long groupId, PageRequest page) {
    return PageQuery.items(memberships.members(actor, groupId, PageQuery.paged(null, page, "after", false)));
  }

  @Override
  public Future<Void> kickMember(long actor, long groupId, long userId) {
    return roles.kick(actor, groupId, userId);
  }

  @Override
  public Future<JsonObject> setMemberRole(long actor, long groupId, long userId, String role) {
    return roles.setRole(actor, groupId, userId, role);
  }

  @Override
  public Future<Page> groupInvitations(long actor, PageRequest page) {
    return PageQuery.items(invitations.invitations(actor, PageQuery.paged(null, page, "before", false)));
  }

  /** Removes expired group invitations (see {@link GroupInvitations#sweepInvitations}); answers how many. */
  Future<Integer> sweepInvitations() {
    return invitations.sweepInvitations();
  }

  @Override
  public Future<Void> declineInvitation(long actor, long groupId) {
    return invitations.decline(actor, groupId);
  }

  /** The internal operations ({@link MessagingInternal}) over the same features, for the verticle to bind. */
  MessagingInternal internal() {
    return new MessagingInternalImpl(groups, managed, removals);
  }
}
