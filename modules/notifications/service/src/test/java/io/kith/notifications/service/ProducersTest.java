package io.kith.notifications.service;

import io.kith.notifications.api.Notifications;
import io.kith.platform.page.Page;
import io.kith.platform.testkit.KithTestKit;
import io.kith.relations.api.RelationsEvents;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("Notifications made from relations and feeds actions")
class ProducersTest extends NotificationsTestBase {

  @Test
  @DisplayName("a follow, a follow request, its acceptance and a friendship each tell the right user")
  void relationsProducers() throws Exception {
    List<Long> u = newUsers(3);
    long alice = u.get(0);
    long bob = u.get(1);
    long carol = u.get(2);

    follow(bob, alice);
    List<JsonObject> seen = awaitNotifications(alice, "alice's new follower", items ->
        count(items, Notifications.FOLLOWER) == 1);
    JsonObject n = seen.get(0);
    assertEquals(bob, n.getLong("from_user"));
    assertEquals(alice, n.getLong("to_user"));
    assertTrue(n.getBoolean("unread"));
    assertEquals(bob, n.getJsonObject("actor").getLong("id"), "the actor's summary: " + n.encode());

    // alice follows back: both are friends now
    follow(alice, bob);
    awaitNotifications(bob, "bob's follower and friend", items -> count(items, Notifications.FOLLOWER) == 1
        && count(items, Notifications.FRIEND) == 1);
    awaitNotifications(alice, "alice's friend", items -> count(items, Notifications.FRIEND) == 1);

    // carol requires approval: bob's follow is a request; carol accepts it
    await(accounts.updateProfile(carol, new JsonObject().put("settings",
        new JsonObject().put("follow_approval", true))));
    assertEquals("requested", await(relations.follow(bob, carol)).getString("state"));
    awaitNotifications(carol, "carol's follow request", items -> count(items, Notifications.FOLLOW_REQUEST) == 1);
    await(relations.acceptRequest(carol, bob));
    List<JsonObject> bobs = awaitNotifications(bob, "bob's accepted request", items ->
        count(items, Notifications.REQUEST_ACCEPTED) == 1);
    assertEquals(carol, bobs.stream().filter(x -> Notifications.REQUEST_ACCEPTED.equals(x.getString("type")))
        .findFirst().orElseThrow().getLong("from_user"));
    // the answered request's notification goes; the new follower's stays
    awaitNotifications(carol, "carol's request notification answered", items ->
        count(items, Notifications.FOLLOW_REQUEST) == 0 && count(items, Notifications.FOLLOWER) == 1);
    assertCountersMatchScan(carol);
  }

  @Test
  @DisplayName("comments, replies, likes, reposts and mentions tell the author; unlike and deletions take them back")
  void feedsProducers() throws Exception {
    List<Long> u = newUsers(3);
    long alice = u.get(0);
    long bob = u.get(1);
    long carol = u.get(2);
    long post = publish(alice, post("public"));

    long comment = await(feeds.comment(bob, post, new JsonObject().put("text", "nice"))).getLong("id");
    long reply = await(feeds.comment(carol, post, new JsonObject().put("text", "agreed").put("reply_to", comment)))
        .getLong("id");
    await(feeds.like(bob, post));
    long repost = await(feeds.repost(carol, post, new JsonObject().put("text", "look"))).getLong("id");
    long mentioning = publish(bob, post("public").put("mentions", new JsonArray().add(alice)));

    List<JsonObject> mine = awaitNotifications(alice, "alice's five notifications", items -> items.size() == 5);
    assertEquals(2, count(mine, Notifications.COMMENT), "bob's comment and carol's reply on alice's post");
    assertEquals(1, count(mine, Notifications.LIKE));
    assertEquals(1, count(mine, Notifications.REPOST));
    assertEquals(1, count(mine, Notifications.MENTION));
    JsonObject rp = mine.stream().filter(x -> Notifications.REPOST.equals(x.getString("type"))).findFirst()
        .orElseThrow();
    assertEquals(post, rp.getLong("post"));
    assertEquals(repost, rp.getLong("repost"));
    assertEquals(mentioning, mine.stream().filter(x -> Notifications.MENTION.equals(x.getString("type")))
        .findFirst().orElseThrow().getLong("post"));

    List<JsonObject> bobs = awaitNotifications(bob, "bob's reply", items -> count(items, Notifications.REPLY) == 1);
    JsonObject r = bobs.get(0);
    assertEquals(carol, r.getLong("from_user"));
    assertEquals(reply, r.getLong("comment"));
    assertEquals(comment, r.getLong("reply_to"));
    assertEquals(post, r.getLong("post"));

    // unlike removes the like notification; deleting the reply removes both of its notifications
    await(feeds.unlike(bob, post));
    awaitNotifications(alice, "the like taken back", items -> count(items, Notifications.LIKE) == 0);
    await(feeds.deleteComment(carol, reply));
    awaitNotifications(bob, "the reply gone", items -> count(items, Notifications.REPLY) == 0);
    awaitNotifications(alice, "carol's comment gone", items -> count(items, Notifications.COMMENT) == 1);
    // deleting the repost takes its notification; deleting the post takes everything about it
    await(feeds.delete(carol, repost));
    awaitNotifications(alice, "the repost gone", items -> count(items, Notifications.REPOST) == 0);
    await(feeds.delete(alice, post));
    List<JsonObject> left = awaitNotifications(alice, "only the mention left", items -> items.size() == 1);
    assertEquals(Notifications.MENTION, left.get(0).getString("type"));
    assertCountersMatchScan(alice);
    assertCountersMatchScan(bob);
  }

  @Test
  @DisplayName("nobody is told about their own actions")
  void notYourself() throws Exception {
    long alice = newUsers(1).get(0);
    long post = publish(alice, post("public"));
    await(feeds.like(alice, post));
    await(feeds.comment(alice, post, new JsonObject().put("text", "me")));
    drainFeeds(alice, post);
    assertEquals(List.of(), all(alice));
    assertEquals(0L, await(notifications.unreadCounts(alice)).getLong("total"));
  }

  @Test
  @DisplayName("a duplicate event, and the same event content appended twice, make one notification")
  void duplicates() throws Exception {
    long alice = KithTestKit.newUserId();
    long bob = KithTestKit.newUserId();
    relationsEvent(RelationsEvents.USER_FOLLOWED, bob, alice);
    relationsEvent(RelationsEvents.USER_FOLLOWED, bob, alice);
    drain(alice);
    // the same stream entry delivered again (what a claim after a crash does) is skipped by event id
    var log = platform.events();
    var event = await(log.append(RelationsEvents.DOMAIN, RelationsEvents.FRIENDSHIP_FORMED,
        new JsonObject().put("from", bob).put("to", alice)));
    drain(alice);
    await(log.once(Producers.RELATIONS_GROUP, e -> {
      throw new AssertionError("a handled event ran again: " + e);
    }).apply(event));
    List<JsonObject> items = all(alice);
    assertEquals(1, count(items, Notifications.FOLLOWER), items.toString());
    assertEquals(1, count(items, Notifications.FRIEND), items.toString());
    assertEquals(2L, await(notifications.unreadCounts(alice)).getLong("total"));
    assertCountersMatchScan(alice);
  }

  @Test
  @DisplayName("a blocked user's actions, either way, and a hiding user's actions produce nothing; a block removes what exists")
  void blocksAndHides() throws Exception {
    List<Long> u = newUsers(4);
    long alice = u.get(0);
    long bob = u.get(1);
    long carol = u.get(2);
    long dave = u.get(3);
    long post = publish(alice, post("public"));

    // bob liked and followed before the block: the block takes those back
    follow(bob, alice);
    await(feeds.like(bob, post));
    awaitNotifications(alice, "bob's follow and like", items -> items.size() == 2);
    await(relations.block(alice, bob));
    awaitNotifications(alice, "the block removing bob's notifications", List::isEmpty);

    // events naming the pair (as a racing like would) make nothing, either way of the block
    await(platform.events().append("feeds", "PostLiked", new JsonObject().put("post", post).put("post_author", alice)
        .put("from", bob)));
    long bobsPost = publish(bob, post("public"));
    await(platform.events().append("feeds", "PostLiked", new JsonObject().put("post", bobsPost)
        .put("post_author", bob).put("from", alice)));
    relationsEvent(RelationsEvents.USER_FOLLOWED, bob, alice);
    relationsEvent(RelationsEvents.USER_FOLLOWED, alice, bob);
    // carol hides her posts from alice; dave is hidden from by alice: neither tells alice anything
    await(relations.hide(carol, alice));
    await(relations.hide(alice, dave));
    relationsEvent(RelationsEvents.USER_FOLLOWED, carol, alice);
    relationsEvent(RelationsEvents.USER_FOLLOWED, dave, alice);
    drain(alice);
    drain(bob);
    // the likes travel on the feeds stream: wait until it has passed them too
    drainFeeds(alice, post);
    drainFeeds(bob, bobsPost);
    assertEquals(List.of(), all(alice));
    assertEquals(List.of(), all(bob));
  }

  @Test
  @DisplayName("muted types and muted users produce nothing; unmuting lets them through again")
  void preferences() throws Exception {
    long alice = KithTestKit.newUserId();
    long bob = KithTestKit.newUserId();
    long carol = KithTestKit.newUserId();
    JsonObject prefs = await(notifications.setPreferences(alice, new JsonObject()
        .put("muted_types", new JsonArray().add(Notifications.FRIEND))));
    assertEquals(new JsonArray().add(Notifications.FRIEND), prefs.getJsonArray("muted_types"));
    await(notifications.muteUser(alice, carol));
    assertEquals(new JsonArray().add(carol), await(notifications.preferences(alice)).getJsonArray("muted_users"));

    relationsEvent(RelationsEvents.FRIENDSHIP_FORMED, bob, alice);
    relationsEvent(RelationsEvents.USER_FOLLOWED, carol, alice);
    relationsEvent(RelationsEvents.USER_FOLLOWED, bob, alice);
    drain(alice);
    List<JsonObject> items = all(alice);
    assertEquals(1, items.size(), items.toString());
    assertEquals(bob, items.get(0).getLong("from_user"));
    assertEquals(Notifications.FOLLOWER, items.get(0).getString("type"));

    await(notifications.unmuteUser(alice, carol));
    await(notifications.setPreferences(alice, new JsonObject().put("muted_types", new JsonArray())));
    relationsEvent(RelationsEvents.USER_FOLLOWED, carol, alice);
    relationsEvent(RelationsEvents.FRIENDSHIP_FORMED, carol, alice);
    drain(alice);
    assertEquals(3, all(alice).size());
    failsWith("validation_failed", "muted_types", notifications.setPreferences(alice,
        new JsonObject().put("muted_types", new JsonArray().add("likes"))));
    failsWith("validation_failed", "muted_users", notifications.setPreferences(alice,
        new JsonObject().put("muted_users", new JsonArray().add(alice))));
    failsWith("validation_failed", "userId", notifications.muteUser(alice, alice));
    failsWith("validation_failed", "colour", notifications.setPreferences(alice, new JsonObject().put("colour", 1)));
  }

  @Test
  @DisplayName("a notification about a post the recipient can no longer see is not shown, and leaves the counts")
  void visibility() throws Exception {
    List<Long> u = newUsers(2);
    long alice = u.get(0);
    long carol = u.get(1);
    follow(alice, carol);
    // carol mentions alice in a followers-only post, then another one
    long first = publish(carol, post("followers").put("mentions", new JsonArray().add(alice)));
    long second = publish(carol, post("followers").put("mentions", new JsonArray().add(alice)));
    awaitNotifications(alice, "two mentions", items -> count(items, Notifications.MENTION) == 2);
    assertEquals(2L, await(notifications.unreadCounts(alice)).getLong("total"), "the two mentions");

    // carol makes the second post private: its mention goes at once (PostEdited)
    await(feeds.edit(carol, second, new JsonObject().put("visibility", "private")));
    awaitNotifications(alice, "the private post's mention gone", items -> count(items, Notifications.MENTION) == 1);

    // alice unfollows: no event concerns the mention, but the post is invisible to her now: not shown, not counted
    await(relations.unfollow(alice, carol));
    JsonObject page = await(notifications.list(alice, filters(new JsonObject()), pageOf(new JsonObject()))
        .map(Page::toJson));
    assertFalse(page.getJsonArray("items").stream().anyMatch(n -> Long.valueOf(first)
        .equals(((JsonObject) n).getLong("post"))), page.encode());
    JsonObject counts = await(notifications.unreadCounts(alice));
    assertEquals(0L, counts.getJsonObject("by_type").getLong(Notifications.MENTION), counts.encode());
    assertCountersMatchScan(alice);
  }
}
