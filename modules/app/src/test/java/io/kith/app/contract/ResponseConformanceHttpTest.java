package io.kith.app.contract;

import io.kith.app.support.Conformance;
import io.kith.app.support.Reply;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Real responses of the main flow conform to the OpenAPI document: every member declared, with its type")
class ResponseConformanceHttpTest {

  private static final String API = "/api/v1";
  private static final long HOUR = 3_600_000L;

  private ContractKith kith;
  private Conformance contract;
  private final List<String> problems = new ArrayList<>();
  private int checked;

  @BeforeAll
  void start() {
    kith = ContractKith.start();
    contract = Conformance.load();
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  /** Calls and checks the answer against {@code operationId}'s response of the expected status; answers the body. */
  private JsonObject call(String operationId, int status, HttpMethod method, String path, User as, Object body) {
    Reply reply = kith.call(method, API + path, as == null ? null : as.access(), body);
    JsonObject json = reply.expect(status);
    problems.addAll(contract.problems(operationId, status, json));
    checked++;
    return json;
  }

  private JsonObject get(String operationId, String path, User as) {
    return call(operationId, 200, HttpMethod.GET, path, as, null);
  }

  private void begin() {
    problems.clear();
    checked = 0;
  }

  /** Fails listing every departure found since {@link #begin()}, or when fewer than {@code least} were checked. */
  private void assertConforms(int least) {
    assertTrue(checked >= least, "responses checked: " + checked);
    assertTrue(problems.isEmpty(), problems.size() + " departures from the document:\n" + String.join("\n",
        problems));
  }

  @Test
  @DisplayName("accounts, relations, feeds, notifications, messaging and activities answers carry only declared "
      + "members of the declared types")
  void mainFlow() {
    begin();
    User alice = kith.register();
    User bob = kith.register();
    call("register", 201, HttpMethod.POST, "/accounts", null, new JsonObject()
        .put("username", "k" + KithTestKit.newUserId()).put("password", "Sunny-meadow-42"));
    get("getOwnProfile", "/me", alice);
    call("updateOwnProfile", 200, HttpMethod.PATCH, "/me", alice, new JsonObject().put("nickname", "Alice")
        .put("signature", "hello").put("interests", new JsonArray().add("hiking")).put("birthday", "1990-04-21"));
    get("getProfile", "/users/" + bob.id(), alice);
    get("findByUsername", "/users/by-username/" + bob.username(), alice);
    call("followUser", 200, HttpMethod.PUT, "/following/" + bob.id(), alice, null);
    call("followUser", 200, HttpMethod.PUT, "/following/" + alice.id(), bob, null);
    get("listFollowers", "/users/" + bob.id() + "/followers", alice);
    get("listFollowing", "/users/" + alice.id() + "/following", alice);
    get("getRelationCounts", "/users/" + bob.id() + "/counts", alice);
    get("listFriends", "/me/friends", alice);
    call("queryRelationships", 200, HttpMethod.POST, "/relationships", alice,
        new JsonObject().put("ids", new JsonArray().add(bob.id())));

    JsonObject post = call("publishPost", 201, HttpMethod.POST, "/posts", bob,
        new JsonObject().put("text", "a walk").put("visibility", "public"));
    long postId = post.getLong("id");
    get("getPost", "/posts/" + postId, alice);
    call("likePost", 200, HttpMethod.PUT, "/posts/" + postId + "/like", alice, null);
    get("listLikers", "/posts/" + postId + "/likes", bob);
    get("listLikedPosts", "/me/likes", alice);
    call("addComment", 201, HttpMethod.POST, "/posts/" + postId + "/comments", alice,
        new JsonObject().put("text", "nice"));
    get("listComments", "/posts/" + postId + "/comments", bob);
    call("repostPost", 201, HttpMethod.POST, "/posts/" + postId + "/reposts", alice, new JsonObject());
    get("listUserPosts", "/users/" + bob.id() + "/posts", alice);
    kith.awaitPage("/timelines/home", alice, "bob's post at home", p -> !p.getJsonArray("items").isEmpty());
    get("getHomeTimeline", "/timelines/home", alice);
    get("getLatestTimeline", "/timelines/latest", alice);

    kith.awaitPage("/notifications", bob, "bob's notifications", p -> p.getJsonArray("items").size() >= 3);
    get("listNotifications", "/notifications", bob);
    get("listGroupedNotifications", "/notifications/grouped", bob);
    get("getUnreadNotificationCounts", "/notifications/unread-counts", bob);
    get("getNotificationPreferences", "/notifications/preferences", bob);

    JsonObject message = call("sendDirectMessage", 201, HttpMethod.POST, "/direct/" + bob.id() + "/messages", alice,
        new JsonObject().put("client_id", "c1").put("text", "hi bob")).getJsonObject("message");
    long conversation = message.getLong("conversation");
    get("getDirectConversation", "/direct/" + bob.id() + "/conversation", alice);
    get("listConversations", "/conversations", bob);
    get("getConversation", "/conversations/" + conversation, bob);
    get("listMessages", "/conversations/" + conversation + "/messages", bob);
    call("markConversationRead", 200, HttpMethod.PUT, "/conversations/" + conversation + "/read", bob,
        new JsonObject().put("seq", message.getLong("seq")));
    get("getMessagingSettings", "/me/messaging-settings", bob);
    JsonObject group = call("createChatGroup", 201, HttpMethod.POST, "/groups", alice, new JsonObject()
        .put("kind", "topic").put("name", "Walkers").put("topic", "walks"));
    call("joinChatGroup", 200, HttpMethod.POST, "/groups/" + group.getLong("id") + "/join", bob, null);
    get("getChatGroup", "/groups/" + group.getLong("id"), bob);
    get("listChatGroupMembers", "/groups/" + group.getLong("id") + "/members", bob);
    call("sendGroupMessage", 201, HttpMethod.POST, "/groups/" + group.getLong("id") + "/messages", bob,
        new JsonObject().put("client_id", "g1").put("text", "hello all"));
    JsonObject board = call("createBoard", 201, HttpMethod.POST, "/boards", alice, new JsonObject()
        .put("title", "plan").put("members", new JsonArray().add(bob.id())));
    call("drawStroke", 201, HttpMethod.POST, "/boards/" + board.getLong("id") + "/strokes", bob, new JsonObject()
        .put("tool", "pen").put("color", "#112233").put("width", 2)
        .put("points", new JsonArray().add(new JsonArray().add(1).add(2))));
    get("listBoardStrokes", "/boards/" + board.getLong("id") + "/strokes", alice);
    get("listBoards", "/boards", bob);

    long start = System.currentTimeMillis() + 24 * HOUR;
    JsonObject activity = call("createActivity", 201, HttpMethod.POST, "/activities", alice, new JsonObject()
        .put("title", "Morning walk").put("start", start).put("end", start + HOUR)
        .put("place", new JsonObject().put("name", "The park")).put("capacity", 10));
    long activityId = activity.getLong("id");
    call("joinActivity", 200, HttpMethod.PUT, "/activities/" + activityId + "/participation", bob, null);
    get("getActivity", "/activities/" + activityId, bob);
    get("listActivityParticipants", "/activities/" + activityId + "/participants", alice);
    get("listOrganisedActivities", "/me/activities/organised", alice);
    get("listJoinedActivities", "/me/activities/joined", bob);
    get("listFriendsActivities", "/activities/friends", bob);

    assertConforms(45);
  }

  @Test
  @DisplayName("sessions, people, friend groups, presence, chat notifications, readers, boards and activity edits "
      + "answer only declared members of the declared types")
  void moreOperations() {
    begin();
    String username = "k" + KithTestKit.newUserId();
    String password = "Sunny-meadow-42";
    JsonObject registered = call("register", 201, HttpMethod.POST, "/accounts", null, new JsonObject()
        .put("username", username).put("password", password));
    call("login", 200, HttpMethod.POST, "/auth/login", null, new JsonObject().put("login", username)
        .put("password", password));
    call("refreshTokens", 200, HttpMethod.POST, "/auth/refresh", null, new JsonObject()
        .put("refresh_token", registered.getJsonObject("tokens").getString("refresh_token")));
    User carol = new User(registered.getJsonObject("user").getLong("id"), username,
        registered.getJsonObject("tokens").getString("access_token"));
    User dave = kith.register();
    get("ping", "/ping", null);
    get("whoami", "/whoami", carol);
    get("listSessions", "/auth/sessions", carol);
    call("setPresenceMode", 200, HttpMethod.PUT, "/me/presence", carol, new JsonObject().put("mode", "friends"));
    call("queryPresence", 200, HttpMethod.POST, "/people/presence", carol,
        new JsonObject().put("ids", new JsonArray().add(dave.id())));
    call("lookupContacts", 200, HttpMethod.POST, "/people/lookup", carol,
        new JsonObject().put("emails", new JsonArray().add("nobody@example.org")));
    get("searchPeople", "/people/search?prefix=" + dave.username().substring(0, 3), carol);
    kith.befriend(carol, dave);
    JsonObject group = call("createCircle", 201, HttpMethod.POST, "/me/circles", carol,
        new JsonObject().put("name", "close"));
    call("addCircleMembers", 200, HttpMethod.POST, "/me/circles/" + group.getLong("id") + "/members", carol,
        new JsonObject().put("ids", new JsonArray().add(dave.id())));
    get("listCircles", "/me/circles", carol);
    get("listCircleMembers", "/me/circles/" + group.getLong("id") + "/members", carol);

    call("sendDirectMessage", 201, HttpMethod.POST, "/direct/" + dave.id() + "/messages", carol,
        new JsonObject().put("client_id", "m1").put("text", "are you there?"));
    kith.awaitPage("/notifications?types=message", dave, "dave's message notification",
        p -> !p.getJsonArray("items").isEmpty());
    get("listNotifications", "/notifications?types=message", dave);
    call("markNotificationsRead", 200, HttpMethod.POST, "/notifications/read", dave, new JsonObject().put("all", true));

    JsonObject chat = call("createChatGroup", 201, HttpMethod.POST, "/groups", carol, new JsonObject()
        .put("kind", "friends").put("name", "pals").put("members", new JsonArray().add(dave.id())));
    JsonObject sent = call("sendGroupMessage", 201, HttpMethod.POST, "/groups/" + chat.getLong("id") + "/messages",
        carol, new JsonObject().put("client_id", "g2").put("text", "plans?")).getJsonObject("message");
    get("listMessageReaders", "/messages/" + sent.getLong("id") + "/readers", carol);
    get("searchChatGroups", "/groups?q=walk", carol);
    get("listGroupInvitations", "/me/group-invitations", dave);
    JsonObject board = call("createBoard", 201, HttpMethod.POST, "/boards", carol, new JsonObject().put("title", "b"));
    get("getBoard", "/boards/" + board.getLong("id"), carol);

    long start = System.currentTimeMillis() + 48 * HOUR;
    JsonObject activity = call("createActivity", 201, HttpMethod.POST, "/activities", carol, new JsonObject()
        .put("title", "Picnic").put("start", start).put("end", start + HOUR)
        .put("place", new JsonObject().put("name", "The lake")).put("visibility", "invitation"));
    String at = "/activities/" + activity.getLong("id");
    call("updateActivity", 200, HttpMethod.PATCH, at, carol, new JsonObject().put("introduction", "bring food"));
    call("inviteToActivity", 200, HttpMethod.POST, at + "/invitations", carol,
        new JsonObject().put("users", new JsonArray().add(dave.id())));
    call("cancelActivity", 200, HttpMethod.POST, at + "/cancel", carol, null);

    assertConforms(25);
  }

  @Test
  @DisplayName("edits, lists of blocks, mutes, hides and tags, follow requests, recalls, chat group roles, board "
      + "members and preferences answer only declared members of the declared types")
  void editsAndLists() {
    begin();
    User erin = kith.register();
    User frank = kith.register();
    User grace = kith.register();
    kith.befriend(erin, frank);
    kith.befriend(erin, grace);
    call("updateOwnProfile", 200, HttpMethod.PATCH, "/me", grace, new JsonObject()
        .put("settings", new JsonObject().put("follow_approval", true)));
    User henry = kith.register();
    call("followUser", 200, HttpMethod.PUT, "/following/" + grace.id(), henry, null);
    get("listIncomingFollowRequests", "/me/follow-requests/incoming", grace);
    get("listOutgoingFollowRequests", "/me/follow-requests/outgoing", henry);
    kith.put("/me/blocks/" + henry.id(), erin).expectNoContent();
    kith.put("/me/mutes/" + grace.id(), erin).expectNoContent();
    kith.put("/me/hides/" + frank.id(), erin).expectNoContent();
    kith.put("/me/tags/climbers/users/" + frank.id(), erin).expectNoContent();
    get("listBlocks", "/me/blocks", erin);
    get("listMutes", "/me/mutes", erin);
    get("listHides", "/me/hides", erin);
    get("listTags", "/me/tags", erin);
    get("listTaggedUsers", "/me/tags/climbers/users", erin);
    get("listTagsOnUser", "/users/" + frank.id() + "/tags", erin);
    JsonObject circle = call("createCircle", 201, HttpMethod.POST, "/me/circles", erin,
        new JsonObject().put("name", "circle"));
    call("renameCircle", 200, HttpMethod.PATCH, "/me/circles/" + circle.getLong("id"), erin,
        new JsonObject().put("name", "inner circle"));

    long post = kith.publish(frank, "first");
    call("editPost", 200, HttpMethod.PATCH, "/posts/" + post, frank, new JsonObject().put("text", "first, edited"));
    call("repostPost", 201, HttpMethod.POST, "/posts/" + post + "/reposts", erin, new JsonObject().put("text", "see"));
    get("listReposts", "/posts/" + post + "/reposts", frank);
    get("getMomentsTimeline", "/timelines/moments", erin);

    JsonObject sent = call("sendDirectMessage", 201, HttpMethod.POST, "/direct/" + frank.id() + "/messages", erin,
        new JsonObject().put("client_id", "r1").put("text", "oops")).getJsonObject("message");
    call("recallMessage", 200, HttpMethod.POST, "/messages/" + sent.getLong("id") + "/recall", erin, null);
    call("updateMessagingSettings", 200, HttpMethod.PATCH, "/me/messaging-settings", frank,
        new JsonObject().put("read_receipts", false));
    JsonObject chat = call("createChatGroup", 201, HttpMethod.POST, "/groups", erin, new JsonObject()
        .put("kind", "topic").put("name", "Climbing").put("topic", "climbing"));
    String group = "/groups/" + chat.getLong("id");
    call("updateChatGroup", 200, HttpMethod.PATCH, group, erin, new JsonObject().put("about", "ropes and rocks"));
    call("inviteToChatGroup", 200, HttpMethod.POST, group + "/invitations", erin,
        new JsonObject().put("users", new JsonArray().add(frank.id())));
    call("joinChatGroup", 200, HttpMethod.POST, group + "/join", frank, null);
    call("setChatGroupMemberRole", 200, HttpMethod.PUT, group + "/members/" + frank.id() + "/role", erin,
        new JsonObject().put("role", "admin"));

    JsonObject board = kith.post("/boards", erin, new JsonObject().put("title", "route")).expect(201);
    call("addBoardMembers", 200, HttpMethod.POST, "/boards/" + board.getLong("id") + "/members", erin,
        new JsonObject().put("users", new JsonArray().add(frank.id())));
    call("clearBoard", 200, HttpMethod.POST, "/boards/" + board.getLong("id") + "/clear", frank, null);

    call("setNotificationPreferences", 200, HttpMethod.PUT, "/notifications/preferences", erin,
        new JsonObject().put("muted_types", new JsonArray().add("like")));
    call("muteUserNotifications", 200, HttpMethod.PUT, "/notifications/preferences/muted-users/" + frank.id(),
        erin, null);
    call("deleteNotifications", 200, HttpMethod.POST, "/notifications/delete", erin,
        new JsonObject().put("ids", new JsonArray().add(1)));

    assertConforms(25);
  }
}
