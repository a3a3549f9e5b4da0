package io.kith.relations.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A third user's followers and following lists as a viewer in a block with some of the users on them: those users
 * are left out, pages are still full, and no cursor points at a left-out user.
 */
class ListsAcrossBlocksTest extends RelationsTestBase {

  @Test
  @DisplayName("a followers list leaves out users who block the viewer and users the viewer blocks, not for a stranger")
  void followersWithoutBlocks() throws Exception {
    List<Long> users = newUsers(6);
    long owner = users.get(0);
    long viewer = users.get(1);
    long stranger = users.get(2);
    long blocksViewer = users.get(3);
    long blockedByViewer = users.get(4);
    long plain = users.get(5);
    for (long f : List.of(blocksViewer, blockedByViewer, plain)) {
      await(relations.follow(f, owner));
    }
    await(relations.block(blocksViewer, viewer));
    await(relations.block(viewer, blockedByViewer));

    assertEquals(List.of(plain, blockedByViewer, blocksViewer),
        userIds(await(relations.followers(stranger, owner, PageRequest.first(10)).map(Page::toJson))));
    assertEquals(List.of(plain), userIds(await(relations.followers(viewer, owner, PageRequest.first(10))
        .map(Page::toJson))));
    assertEquals(List.of(plain), allPages((n, c) -> relations.followers(viewer, owner, PageRequest.after(c, n))
        .map(Page::toJson), 1));
  }

  @Test
  @DisplayName("a following list leaves out users who block the viewer, on every page")
  void followingWithoutBlockers() throws Exception {
    List<Long> users = newUsers(9);
    long owner = users.get(0);
    long viewer = users.get(1);
    List<Long> followed = users.subList(2, 9);
    for (long f : followed) {
      await(relations.follow(owner, f));
    }
    // every other followed user, the newest among them, blocks the viewer
    List<Long> shown = new ArrayList<>();
    for (int i = 0; i < followed.size(); i++) {
      if (i % 2 == 0) {
        await(relations.block(followed.get(i), viewer));
      } else {
        shown.add(0, followed.get(i));
      }
    }
    assertEquals(shown, userIds(await(relations.following(viewer, owner, PageRequest.first(10)).map(Page::toJson))));
    for (int limit = 1; limit <= 4; limit++) {
      assertEquals(shown, allPages((n, c) -> relations.following(viewer, owner, PageRequest.after(c, n))
          .map(Page::toJson), limit), "limit " + limit);
    }
  }

  @Test
  @DisplayName("pages are filled past hidden users and the cursor is the last user shown, as if the hidden were absent")
  void cursorNeverAtHiddenUser() throws Exception {
    List<Long> users = newUsers(7);
    long owner = users.get(0);
    long viewer = users.get(1);
    // followers, oldest first: s1, s2, h1, h2, s3 (h1 and h2 block the viewer)
    long s1 = users.get(2);
    long s2 = users.get(3);
    long h1 = users.get(4);
    long h2 = users.get(5);
    long s3 = users.get(6);
    for (long f : List.of(s1, s2, h1, h2, s3)) {
      await(relations.follow(f, owner));
    }
    await(relations.block(h1, viewer));
    await(relations.block(h2, viewer));

    JsonObject first = await(relations.followers(viewer, owner, PageRequest.first(2)).map(Page::toJson));
    assertEquals(List.of(s3, s2), userIds(first), "the page is filled past the hidden users");
    JsonObject second = await(relations.followers(viewer, owner, PageRequest.after(first.getString("next"), 2))
        .map(Page::toJson));
    assertEquals(List.of(s1), userIds(second));
    assertNull(second.getString("next"));

    // the same list with the hidden users really gone gives the same pages and the same cursors
    await(relations.unfollow(h1, owner));
    await(relations.unfollow(h2, owner));
    JsonObject without = await(relations.followers(viewer, owner, PageRequest.first(2)).map(Page::toJson));
    assertEquals(userIds(first), userIds(without));
    assertEquals(without.getString("next"), first.getString("next"));
  }

  @Test
  @DisplayName("a list whose every user blocks the viewer is an empty last page")
  void allHidden() throws Exception {
    List<Long> users = newUsers(5);
    long owner = users.get(0);
    long viewer = users.get(1);
    for (long f : users.subList(2, 5)) {
      await(relations.follow(f, owner));
      await(relations.block(f, viewer));
    }
    JsonObject page = await(relations.followers(viewer, owner, PageRequest.first(2)).map(Page::toJson));
    assertEquals(List.of(), userIds(page));
    assertNull(page.getString("next"));
  }

  @Test
  @DisplayName("the viewer's own tag, mute and hide lists leave out users who block the viewer, keep those the viewer blocks")
  void ownListsWithoutBlockers() throws Exception {
    List<Long> users = newUsers(4);
    long me = users.get(0);
    long blocker = users.get(1);
    long blockedByMe = users.get(2);
    long plain = users.get(3);
    for (long u : List.of(blocker, blockedByMe, plain)) {
      await(relations.tagUser(me, u, "work"));
      await(relations.mute(me, u));
      await(relations.hide(me, u));
    }
    List<Long> all = List.of(plain, blockedByMe, blocker);
    assertEquals(all, userIds(await(relations.taggedUsers(me, "work", PageRequest.first(10)).map(Page::toJson))));
    assertEquals(all, userIds(await(relations.mutes(me, PageRequest.first(10)).map(Page::toJson))));
    assertEquals(all, userIds(await(relations.hides(me, PageRequest.first(10)).map(Page::toJson))));

    await(relations.block(blocker, me));
    await(relations.block(me, blockedByMe));
    List<Long> shown = List.of(plain, blockedByMe);
    assertEquals(shown, userIds(await(relations.taggedUsers(me, "work", PageRequest.first(10)).map(Page::toJson))));
    assertEquals(shown, userIds(await(relations.mutes(me, PageRequest.first(10)).map(Page::toJson))));
    assertEquals(shown, userIds(await(relations.hides(me, PageRequest.first(10)).map(Page::toJson))));
    assertEquals(shown, allPages((n, c) -> relations.taggedUsers(me, "work", PageRequest.after(c, n))
        .map(Page::toJson), 1));
    assertEquals(shown, allPages((n, c) -> relations.mutes(me, PageRequest.after(c, n)).map(Page::toJson), 1));
    assertEquals(shown, allPages((n, c) -> relations.hides(me, PageRequest.after(c, n)).map(Page::toJson), 1));
    failsWith("validation_failed", relations.taggedUsers(me, "", PageRequest.first(10)).map(Page::toJson));
    failsWith("validation_failed", relations.mutes(me, PageRequest.after("x", 10)).map(Page::toJson));
  }

  @Test
  @DisplayName("across a block with the list's owner the list is user_not_found, and a bad cursor is validation_failed")
  void refusals() throws Exception {
    List<Long> users = newUsers(3);
    long owner = users.get(0);
    long viewer = users.get(1);
    await(relations.follow(users.get(2), owner));
    failsWith("validation_failed", relations.followers(viewer, owner, PageRequest.after("abc", 10)).map(Page::toJson));
    failsWith("validation_failed", relations.following(viewer, owner, PageRequest.after("-5", 10)).map(Page::toJson));
    await(relations.block(owner, viewer));
    failsWith("user_not_found", relations.followers(viewer, owner, PageRequest.first(10)).map(Page::toJson));
    failsWith("user_not_found", relations.following(viewer, owner, PageRequest.first(10)).map(Page::toJson));
  }
}
