package io.kith.feeds.service;

import io.kith.accounts.api.AccountsService;
import io.kith.accounts.service.AccountsModule;
import io.kith.feeds.api.FeedsEvents;
import io.kith.feeds.api.FeedsInternal;
import io.kith.feeds.api.FeedsService;
import io.kith.feeds.api.MediaClient;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.ModuleTestBase;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.TestImages;
import io.kith.platform.testkit.TestUsers;
import io.kith.relations.api.RelationsService;
import io.kith.relations.service.RelationsModule;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deploys accounts, relations and feeds on the test stores once per class and calls feeds through its event-bus proxy.
 * Each test registers its own users. Rate limits are raised out of the way unless a class sets them in
 * {@link #feedsConfig()}.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FeedsTestBase extends ModuleTestBase {

  private static final int REGISTRATION_WAVE = 16;
  /** How long a timeline may take to show what the fan-out worker delivers. */
  protected static final Duration FAN_OUT_DEADLINE = Duration.ofSeconds(60);

  protected AccountsService accounts;
  protected RelationsService relations;
  protected FeedsService feeds;
  protected FeedsInternal feedsInternal;

  /**
   * The {@code feeds} configuration of this class, merged over the test defaults (which raise the rate limits). Keys:
   * {@code celebrity-threshold}, {@code timeline-cap}, {@code backfill-posts}, {@code posts-per-hour},
   * {@code comments-per-minute}, {@code likes-per-minute}.
   */
  protected JsonObject feedsConfig() {
    return new JsonObject();
  }

  @BeforeAll
  void deploy() throws Exception {
    JsonObject feedsConf = new JsonObject()
        .put("posts-per-hour", 1_000_000)
        .put("comments-per-minute", 1_000_000)
        .put("likes-per-minute", 1_000_000)
        .mergeIn(feedsConfig());
    startPlatform(new JsonObject()
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000).put("argon2-max-queued", 100_000))
        .put("feeds", feedsConf));
    await(KithTestKit.deploy(platform, new AccountsModule(), new RelationsModule(), new FeedsModule()));
    accounts = AccountsService.proxy(vertx);
    relations = RelationsService.proxy(vertx);
    feeds = FeedsService.proxy(vertx);
    feedsInternal = FeedsInternal.proxy(vertx);
  }

  // ---------------------------------------------------------------- futures and failures

  // ---------------------------------------------------------------- users and relations

  /** Registers a fresh user and returns their id. */
  protected long newUser() throws Exception {
    return newUsers(1).get(0);
  }

  /** Registers {@code n} fresh users (hashing in parallel waves) and returns their ids. */
  protected List<Long> newUsers(int n) throws Exception {
    return TestUsers.newUsers(accounts::register, "f", n, REGISTRATION_WAVE);
  }


  /** {@code a} follows {@code b} (public accounts: no request). */
  protected void follow(long a, long b) throws Exception {
    assertEquals("following", await(relations.follow(a, b)).getString("state"));
  }

  /** Makes {@code a} and {@code b} friends (mutual follows). */
  protected void befriend(long a, long b) throws Exception {
    follow(a, b);
    follow(b, a);
  }

  protected void block(long actor, long target) throws Exception {
    await(relations.block(actor, target));
  }

  /** {@code actor} stops seeing {@code target}'s posts. */
  protected void mute(long actor, long target) throws Exception {
    await(relations.mute(actor, target));
  }

  /** {@code actor}'s posts never reach {@code target}. */
  protected void hide(long actor, long target) throws Exception {
    await(relations.hide(actor, target));
  }

  /** Creates a friend group of {@code owner} holding {@code members} (who must be the owner's friends). */
  protected long group(long owner, Long... members) throws Exception {
    long id = await(relations.createGroup(owner, "g" + UUID.randomUUID().toString().substring(0, 8))).getLong("id");
    if (members.length > 0) {
      await(relations.addGroupMembers(owner, id, Arrays.asList(members)));
    }
    return id;
  }

  /** Puts {@code owner}'s contact tag {@code tag} on each of {@code targets}. */
  protected void tag(long owner, String tag, Long... targets) throws Exception {
    for (long target : targets) {
      await(relations.tagUser(owner, target, tag));
    }
  }

  // ---------------------------------------------------------------- posts

  /** A post body with a unique text. */
  protected static JsonObject body(String visibility) {
    JsonObject body = new JsonObject().put("text", "post " + UUID.randomUUID());
    if (visibility != null) {
      body.put("visibility", visibility);
    }
    return body;
  }

  /** An audience {@code {users, circles, tags}}. */
  protected static JsonObject audience(List<Long> users, List<Long> groups, List<String> tags) {
    return new JsonObject().put("users", new JsonArray(users)).put("circles", new JsonArray(groups))
        .put("tags", new JsonArray(tags));
  }

  /** Publishes a post of {@code visibility} with a unique text; returns its id. */
  protected long publish(long author, String visibility) throws Exception {
    return await(feeds.publish(author, body(visibility))).getLong("id");
  }

  /** Publishes a post of {@code visibility} ({@code only} or {@code except}) for {@code audience}; returns its id. */
  protected long publish(long author, String visibility, JsonObject audience) throws Exception {
    return await(feeds.publish(author, body(visibility).put("audience", audience))).getLong("id");
  }

  /** Publishes a public post; returns its id. */
  protected long publishPublic(long author) throws Exception {
    return publish(author, "public");
  }

  // ---------------------------------------------------------------- media

  /** Uploads a small real PNG of {@code owner} through the media transfer, as the gateway does; returns its media id. */
  protected long uploadPng(long owner) throws Exception {
    byte[] bytes = TestImages.png(40, 30);
    Path file = Files.createTempFile("kith-upload", ".png");
    try {
      Files.write(file, bytes);
      Promise<JsonObject> done = Promise.promise();
      vertx.getOrCreateContext().runOnContext(v -> vertx.fileSystem()
          .open(file.toString(), new OpenOptions().setRead(true))
          .compose(body -> MediaClient.create(vertx).upload(owner, "image/png", bytes.length, body)
              .eventually(body::close))
          .onComplete(done));
      return await(done.future()).getLong("id");
    } finally {
      Files.deleteIfExists(file);
    }
  }

  // ---------------------------------------------------------------- pages

  /** The ids of a page's items ({@code {items: [{id, ...}]}}), in page order. */
  protected static List<Long> ids(JsonObject page) {
    List<Long> ids = new ArrayList<>();
    JsonArray items = page.getJsonArray("items");
    for (int i = 0; i < items.size(); i++) {
      ids.add(items.getJsonObject(i).getLong("id"));
    }
    return ids;
  }

  /** The ids of a {@code visiblePosts} answer ({@code {items: [ids]}}), in answer order. */
  protected static List<Long> visibleIds(JsonObject answer) {
    return answer.getJsonArray("items").stream().map(x -> ((Number) x).longValue()).toList();
  }

  /** The user ids of a likers page ({@code {items: [{user, at}]}}), in page order. */
  protected static List<Long> likerIds(JsonObject page) {
    List<Long> ids = new ArrayList<>();
    JsonArray items = page.getJsonArray("items");
    for (int i = 0; i < items.size(); i++) {
      ids.add(items.getJsonObject(i).getJsonObject("user").getLong("id"));
    }
    return ids;
  }

  /** One page of a cursor list. */
  @FunctionalInterface
  protected interface Pager {
    Future<JsonObject> page(long maxId, int limit);
  }

  /** Every item id of a list, following {@code next_max_id} until it is null. */
  protected static List<Long> allPages(Pager pager, int limit, java.util.function.Function<JsonObject, List<Long>> ids)
      throws Exception {
    List<Long> all = new ArrayList<>();
    long maxId = 0;
    for (int pages = 0; pages < 1_000; pages++) {
      JsonObject page = await(pager.page(maxId, limit));
      List<Long> got = ids.apply(page);
      assertTrue(got.size() <= limit, "page larger than its limit: " + page.encode());
      all.addAll(got);
      Long next = page.getLong("next_max_id");
      if (next == null) {
        return all;
      }
      assertTrue(next < maxId || maxId == 0, "next_max_id does not move back: " + page.encode());
      maxId = next;
    }
    throw new AssertionError("paging did not end");
  }

  protected List<Long> home(long viewer) throws Exception {
    return ids(await(feeds.home(viewer, PageRequest.ids(0, 0, 100)).map(Page::toJson)));
  }

  protected List<Long> moments(long viewer) throws Exception {
    return ids(await(feeds.moments(viewer, PageRequest.ids(0, 0, 100)).map(Page::toJson)));
  }

  protected List<Long> userPosts(long viewer, long user) throws Exception {
    return ids(await(feeds.userPosts(viewer, user, PageRequest.ids(0, 0, 100)).map(Page::toJson)));
  }

  protected List<Long> latest(long viewer) throws Exception {
    return ids(await(feeds.latest(viewer, PageRequest.ids(0, 0, 100)).map(Page::toJson)));
  }

  // ---------------------------------------------------------------- waiting

  /** Waits until {@code condition} holds, polling with a deadline. */
  protected void pollUntil(String what, Supplier<Future<Boolean>> condition) throws Exception {
    await(Poll.until(vertx, FAN_OUT_DEADLINE, what, condition));
  }

  /** Waits until the first page of {@code list} (limit 100) holds {@code postId}. */
  protected void awaitListed(String what, Supplier<Future<JsonObject>> list, long postId) throws Exception {
    pollUntil(what + " shows post " + postId, () -> list.get().map(p -> ids(p).contains(postId)));
  }

  /** Waits until the first page of {@code list} (limit 100) no longer holds {@code postId}. */
  protected void awaitUnlisted(String what, Supplier<Future<JsonObject>> list, long postId) throws Exception {
    pollUntil(what + " drops post " + postId, () -> list.get().map(p -> !ids(p).contains(postId)));
  }

  protected void awaitInHome(long viewer, long postId) throws Exception {
    awaitListed("home of " + viewer, () -> feeds.home(viewer, PageRequest.ids(0, 0, 100)).map(Page::toJson), postId);
  }

  protected void awaitInMoments(long viewer, long postId) throws Exception {
    awaitListed("moments of " + viewer, () -> feeds.moments(viewer, PageRequest.ids(0, 0, 100)).map(Page::toJson),
        postId);
  }

  /** Waits until {@code viewer}'s view of {@code postId} satisfies {@code check}; returns that view. */
  protected JsonObject awaitView(long viewer, long postId, String what, Predicate<JsonObject> check) throws Exception {
    JsonObject[] last = new JsonObject[1];
    try {
      pollUntil(what, () -> feeds.post(viewer, postId).map(v -> {
        last[0] = v;
        return check.test(v);
      }));
    } catch (ExecutionException e) {
      throw new AssertionError(what + "; last view: " + (last[0] == null ? null : last[0].encode()), e.getCause());
    }
    return last[0];
  }

  // ---------------------------------------------------------------- events

  /**
   * Starts recording the {@code events:feeds} stream in a consumer group of its own (from now on). Close it at the end
   * of the test.
   */
  protected EventRecorder recordEvents() throws Exception {
    EventRecorder recorder = new EventRecorder();
    recorder.start();
    return recorder;
  }

  /** The feeds events seen by one consumer group. */
  protected final class EventRecorder extends io.kith.platform.testkit.EventRecorder {

    private EventRecorder() {
      super(platform, FeedsEvents.DOMAIN);
    }

    /** Events of {@code type} whose payload has {@code field} = {@code value}, seen so far. */
    List<DomainEvent> of(String type, String field, long value) {
      return matching(e -> e.type().equals(type)
          && e.payload().getValue(field) instanceof Number n && n.longValue() == value);
    }

    /** Waits until an event of {@code type} with {@code field} = {@code value} was seen; returns the first. */
    DomainEvent await(String type, String field, long value) throws Exception {
      pollUntil(type + " with " + field + "=" + value, () -> Future.succeededFuture(!of(type, field, value).isEmpty()));
      return of(type, field, value).get(0);
    }
  }
}
