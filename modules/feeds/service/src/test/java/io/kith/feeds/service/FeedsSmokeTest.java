package io.kith.feeds.service;

import io.kith.accounts.api.AccountsService;
import io.kith.accounts.service.AccountsModule;
import io.kith.feeds.api.FeedsService;
import io.kith.platform.Platform;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.ServiceTestBase;
import io.kith.platform.testkit.TestUsers;
import io.kith.relations.api.RelationsService;
import io.kith.relations.service.RelationsModule;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The main path end to end through the proxy: publish, fan-out to a follower's home, like, comment, repost. */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FeedsSmokeTest extends ServiceTestBase {

  private Vertx vertx;
  private Platform platform;
  private AccountsService accounts;
  private RelationsService relations;
  private FeedsService feeds;

  @BeforeAll
  void deploy() throws Exception {
    vertx = Vertx.vertx();
    platform = await(KithTestKit.platform(vertx, new JsonObject()
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000))));
    await(KithTestKit.deploy(platform, new AccountsModule(), new RelationsModule(), new FeedsModule()));
    accounts = AccountsService.proxy(vertx);
    relations = RelationsService.proxy(vertx);
    feeds = FeedsService.proxy(vertx);
  }

  @AfterAll
  void undeploy() throws Exception {
    await(platform.close());
    await(vertx.close());
  }

  private long newUser() throws Exception {
    return await(TestUsers.register(accounts::register, "f")).getLong("id");
  }

  @Test
  void publishFanOutLikeCommentRepost() throws Exception {
    long author = newUser();
    long reader = newUser();
    await(relations.follow(reader, author));
    // the reader's home exists before the post, so fan-out adds to it
    assertEquals(0, await(feeds.home(reader, PageRequest.ids(0, 0, 20))
        .map(Page::toJson)).getJsonArray("items").size());
    JsonObject post = await(feeds.publish(author, new JsonObject().put("text", "hello")));
    long id = post.getLong("id");
    assertEquals("hello", post.getString("text"));
    await(Poll.until(vertx, Duration.ofSeconds(10), "post in the reader's home", () ->
        feeds.home(reader, PageRequest.ids(0, 0, 20)).map(Page::toJson).map(p -> p.getJsonArray("items").size() == 1)));
    JsonObject liked = await(feeds.like(reader, id));
    assertEquals(1L, liked.getLong("like_count"));
    await(feeds.comment(reader, id, new JsonObject().put("text", "nice")));
    JsonObject repost = await(feeds.repost(reader, id, new JsonObject().put("text", "look")));
    assertEquals("visible", repost.getJsonObject("repost_of").getString("state"));
    JsonObject seen = await(feeds.post(reader, id));
    assertEquals(new JsonObject().put("likes", 1L).put("comments", 1L).put("reposts", 1L).put("reposts_total", 1L),
        seen.getJsonObject("counts"));
    assertTrue(seen.getJsonObject("viewer").getBoolean("liked"));
    assertTrue(seen.getJsonObject("viewer").getBoolean("reposted"));
    JsonArray home = await(feeds.home(reader, PageRequest.ids(0, 0, 20)).map(Page::toJson)).getJsonArray("items");
    assertEquals(2, home.size(), home.encodePrettily());
  }

  @Test
  void fanOutSurvivesARedisThatForgotItsScripts() throws Exception {
    long author = newUser();
    long reader = newUser();
    await(relations.follow(reader, author));
    await(feeds.home(reader, PageRequest.ids(0, 0, 20)).map(Page::toJson));
    await(platform.redisApi().script(java.util.List.of("FLUSH")));
    long id = await(feeds.publish(author, new JsonObject().put("text", "after a script flush"))).getLong("id");
    await(Poll.until(vertx, Duration.ofSeconds(10), "post in the reader's home", () ->
        platform.redisApi().lpos(java.util.List.of(Timelines.key(Timelines.HOME, reader), Long.toString(id)))
            .map(r -> r != null)));
  }
}
