package io.kith.accounts.service;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The profile cache never lets an older copy of an account replace a newer one. The interleavings are played out
 * step by step: a second cache over the same Redis stands for a reader on another node whose miss read the record
 * before a write and fills the cache after it.
 */
class ProfileCacheTest extends AccountsTestBase {

  private ProfileCache otherNode() {
    return new ProfileCache(platform.redis(), new AccountStore(platform.mongo()), 3600);
  }

  @Test
  @DisplayName("a cache fill with a copy read before an update does not replace the copy the update put")
  void staleFillAfterPutIsIgnored() throws Exception {
    long owner = newUser();
    long viewer = newUser();
    patch(owner, new JsonObject().put("birthday", "1990-04-25")
        .put("settings", new JsonObject().put("birthday_visibility", "everyone")));
    assertEquals("1990-04-25", await(accounts.profile(viewer, owner)).getString("birthday"));
    // a reader on another node missed the cache and read the record while the birthday was public ...
    await(platform.redisApi().del(java.util.List.of(ProfileCache.key(owner))));
    JsonObject readBeforeUpdate = await(new AccountStore(platform.mongo()).byId(owner));

    // ... the owner hides the birthday, which puts the new copy in the cache ...
    patch(owner, new JsonObject().put("settings", new JsonObject().put("birthday_visibility", "nobody")));
    // ... and only then the reader fills the cache with what it read
    await(otherNode().fill(readBeforeUpdate));

    JsonObject seen = await(accounts.profile(viewer, owner));
    assertFalse(seen.containsKey("birthday"), "the stale copy shows the hidden birthday: " + seen);
    assertEquals("nobody", await(accounts.profile(owner, owner)).getJsonObject("settings")
        .getString("birthday_visibility"));
  }

  @Test
  @DisplayName("a cache fill with a newer copy replaces an older cached one")
  void newerFillReplacesOlder() throws Exception {
    long owner = newUser();
    long viewer = newUser();
    assertFalse(await(accounts.profile(viewer, owner)).containsKey("signature"));
    // the record moves on without the cache being told (say, a put that failed)
    await(platform.mongo().findOneAndUpdate(AccountStore.COLLECTION, new JsonObject().put("_id", owner),
        new JsonObject().put("$set", new JsonObject().put("signature", "newer")).put("$inc",
            new JsonObject().put("v", 1))));
    JsonObject newer = await(new AccountStore(platform.mongo()).byId(owner));

    await(otherNode().fill(newer));

    assertEquals("newer", await(accounts.profile(viewer, owner)).getString("signature"));
  }

  @Test
  @DisplayName("a miss fills the cache; the next read comes from it")
  void missFills() throws Exception {
    long owner = newUser();
    await(platform.redisApi().del(java.util.List.of(ProfileCache.key(owner))));
    assertEquals(owner, await(otherNode().get(owner)).getLong("_id"));
    assertTrue(await(platform.redisApi().exists(java.util.List.of(ProfileCache.key(owner)))).toInteger() == 1);
  }

  @Test
  @DisplayName("a parsed copy is reused only while Redis answers the same bytes; a changed copy is parsed afresh")
  void parsedCopyFollowsRedis() throws Exception {
    long owner = newUser();
    ProfileCache cache = otherNode();
    await(cache.get(owner)); // a miss (from the record) or a first parse
    JsonObject first = await(cache.get(owner));
    assertSame(first, await(cache.get(owner)), "the same bytes are parsed again");

    // the owner changes the profile: the write puts a new copy, which this node has not parsed yet
    patch(owner, new JsonObject().put("signature", "changed"));
    JsonObject second = await(cache.get(owner));
    assertNotSame(first, second);
    assertEquals("changed", second.getString("signature"));
    assertFalse(first.containsKey("signature"), "the parsed copy handed out before was changed");

    // a copy rewritten behind the node's back (another node's fill, a restore) is what the next read sees
    JsonObject rewritten = second.copy().put("signature", "rewritten").put(AccountStore.VERSION,
        second.getLong(AccountStore.VERSION, 0L) + 1);
    await(otherNode().fill(rewritten));
    assertEquals("rewritten", await(cache.get(owner)).getString("signature"));

    // a dropped copy is read from the record again
    await(platform.redisApi().del(java.util.List.of(ProfileCache.key(owner))));
    assertEquals("changed", await(cache.get(owner)).getString("signature"));
  }
}
