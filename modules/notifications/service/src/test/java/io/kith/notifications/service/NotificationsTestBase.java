package io.kith.notifications.service;

import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.accounts.service.AccountsModule;
import io.kith.activities.api.ActivitiesEvents;
import io.kith.feeds.api.FeedsService;
import io.kith.feeds.service.FeedsModule;
import io.kith.messaging.api.MessagingEvents;
import io.kith.notifications.api.Notifications;
import io.kith.notifications.api.NotificationsService;
import io.kith.platform.KithModule;
import io.kith.platform.bus.Addresses;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.EventLog;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.ModuleTestBase;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.TestUsers;
import io.kith.relations.api.RelationsEvents;
import io.kith.relations.api.RelationsService;
import io.kith.relations.service.RelationsModule;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Deploys accounts, relations, feeds and notifications on the test stores once per class and calls notifications
 * through its event-bus proxy. Each test makes its own users (registered, or bare fresh ids for events injected into
 * the event log, which the producers cannot tell apart from real ones).
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class NotificationsTestBase extends ModuleTestBase {

  /** The filters of a list query: its members but the page's ({@code limit}, {@code max_id}, {@code since_id}). */
  protected static JsonObject filters(JsonObject query) {
    JsonObject filters = query.copy();
    filters.remove("limit");
    filters.remove("max_id");
    filters.remove("since_id");
    return filters;
  }

  /** The page a list query asks for: its {@code limit}, {@code max_id} and {@code since_id} members. */
  protected static PageRequest pageOf(JsonObject query) {
    return new PageRequest(query.getInteger("limit"), query.getLong("max_id", 0L), query.getLong("since_id", 0L), null);
  }

  /**
   * How long the producers may take to turn an event into a notification: a deadline for failing, never waited out
   * by a passing test. It is wide because a cold test JVM next to another on a busy CI machine handled its first
   * events at 0.1 to 1.8 s each (warm: 25 to 70 ms), and {@code drain} waits behind every event appended before it.
   */
  protected static final Duration WAIT = Duration.ofSeconds(60);

  protected AccountsService accounts;
  protected AccountsInternal accountsInternal;
  protected RelationsService relations;
  protected FeedsService feeds;
  protected NotificationsService notifications;

  /** The {@code notifications} configuration of this class. */
  protected JsonObject notificationsConfig() {
    return new JsonObject();
  }

  /** Further configuration of this class, merged over the rest (e.g. an {@code eventlog} section). */
  protected JsonObject extraConfig() {
    return new JsonObject();
  }

  /** The modules this class deploys besides notifications (all it talks to, unless a test wants one missing). */
  protected List<KithModule> otherModules() {
    return List.of(new AccountsModule(), new RelationsModule(), new FeedsModule());
  }

  @BeforeAll
  void deploy() throws Exception {
    startPlatform(new JsonObject()
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000).put("argon2-max-queued", 100_000))
        .put("feeds", new JsonObject().put("posts-per-hour", 1_000_000).put("comments-per-minute", 1_000_000)
            .put("likes-per-minute", 1_000_000))
        .put("notifications", notificationsConfig()).mergeIn(extraConfig(), true));
    List<KithModule> modules = new ArrayList<>(otherModules());
    modules.add(new NotificationsModule());
    await(KithTestKit.deploy(platform, modules.toArray(KithModule[]::new)));
    accounts = AccountsService.proxy(vertx);
    accountsInternal = AccountsInternal.proxy(vertx);
    relations = RelationsService.proxy(vertx);
    feeds = FeedsService.proxy(vertx);
    notifications = NotificationsService.proxy(vertx);
  }

  // ---------------------------------------------------------------- users

  /** Registers {@code n} fresh users and returns their ids. */
  protected List<Long> newUsers(int n) throws Exception {
    return TestUsers.newUsers(accounts::register, "n", n, n);
  }


  protected void follow(long a, long b) throws Exception {
    assertEquals("following", await(relations.follow(a, b)).getString("state"));
  }

  protected long publish(long author, JsonObject body) throws Exception {
    return await(feeds.publish(author, body)).getLong("id");
  }

  protected static JsonObject post(String visibility) {
    return new JsonObject().put("text", "post " + UUID.randomUUID()).put("visibility", visibility);
  }

  // ---------------------------------------------------------------- events and notifications

  /** Appends a relations event {@code {from, to}} to the event log, as the relations service would. */
  protected void relationsEvent(String type, long from, long to) throws Exception {
    await(platform.events().append(RelationsEvents.DOMAIN, type, new JsonObject().put("from", from).put("to", to)));
  }

  /** Every notification of {@code user} (pages of 100), newest first. */
  protected List<JsonObject> all(long user, JsonObject query) throws Exception {
    List<JsonObject> out = new ArrayList<>();
    Long maxId = null;
    for (int i = 0; i < 1_000; i++) {
      JsonObject q = query.copy().put("limit", 100);
      if (maxId != null) {
        q.put("max_id", maxId);
      }
      JsonObject page = await(notifications.list(user, filters(q), pageOf(q)).map(Page::toJson));
      page.getJsonArray("items").forEach(n -> out.add((JsonObject) n));
      maxId = page.getLong("next_max_id");
      if (maxId == null) {
        return out;
      }
    }
    throw new AssertionError("paging never ended");
  }

  protected List<JsonObject> all(long user) throws Exception {
    return all(user, new JsonObject());
  }

  /** Waits until {@code user}'s notifications satisfy {@code condition}; returns them. */
  protected List<JsonObject> awaitNotifications(long user, String what, Predicate<List<JsonObject>> condition)
      throws Exception {
    List<List<JsonObject>> last = new ArrayList<>();
    await(Poll.until(vertx, WAIT, what, () -> notifications.list(user, filters(new JsonObject().put("limit", 100)),
        pageOf(new JsonObject().put("limit", 100))).map(Page::toJson).map(page -> {
      List<JsonObject> items = new ArrayList<>();
      page.getJsonArray("items").forEach(n -> items.add((JsonObject) n));
      last.clear();
      last.add(items);
      return condition.test(items);
    })));
    return last.get(0);
  }

  protected static long count(List<JsonObject> items, String type) {
    return items.stream().filter(n -> type.equals(n.getString("type"))).count();
  }

  /**
   * Appends a marker event (a follow of {@code user} by a fresh id) and waits for its notification: the producers
   * handle a stream in order, so everything appended before it has been handled by then.
   */
  protected void drain(long user) throws Exception {
    long marker = KithTestKit.newUserId();
    relationsEvent(RelationsEvents.USER_FOLLOWED, marker, user);
    awaitNotifications(user, "the marker notification", items -> items.stream()
        .anyMatch(n -> Long.valueOf(marker).equals(n.getLong("from_user"))));
    await(notifications.deleteWhere(user, new JsonObject().put("where", new JsonObject().put("from_user", marker))));
  }

  /** Drains the feeds stream too: a like by a fresh user of {@code author}'s post {@code post}. */
  protected void drainFeeds(long user, long postId) throws Exception {
    long marker = KithTestKit.newUserId();
    await(platform.events().append("feeds", "PostLiked", new JsonObject().put("post", postId)
        .put("post_author", user).put("from", marker)));
    awaitNotifications(user, "the feeds marker notification", items -> items.stream()
        .anyMatch(n -> Long.valueOf(marker).equals(n.getLong("from_user"))));
    await(notifications.deleteWhere(user, new JsonObject().put("where", new JsonObject().put("from_user", marker))));
  }

  /** Appends an event to {@code domain}'s stream, as that domain would. */
  protected DomainEvent event(String domain, String type, JsonObject payload) throws Exception {
    return await(platform.events().append(domain, type, payload));
  }

  /**
   * Adds a raw entry to {@code domain}'s stream with the given event id and payload text (which may be anything,
   * for malformed entries, or repeat an event id, as a redelivery would); returns the stream entry's id.
   */
  protected String rawEntry(String domain, long eventId, String type, String payload) throws Exception {
    return await(platform.redisApi().xadd(List.of(EventLog.stream(domain), "*", "id", Long.toString(eventId), "type",
        type, "time", Long.toString(System.currentTimeMillis()), "payload", payload))).toString();
  }

  /** Whether a stream entry is still pending (delivered, not acknowledged) in a consumer group. */
  protected boolean pending(String domain, String group, String entryId) throws Exception {
    Response r = await(platform.redisApi().xpending(List.of(EventLog.stream(domain), group, entryId, entryId, "10")));
    return r != null && r.size() > 0;
  }

  /** Whether a stream entry was moved to the group's dead-letter stream. */
  protected boolean deadLettered(String domain, String group, String entryId) throws Exception {
    Response r = await(platform.redisApi().xrange(List.of(EventLog.stream(domain) + ":dead:" + group, "-", "+")));
    if (r == null) {
      return false;
    }
    for (Response entry : r) {
      Response kv = entry.get(1);
      for (int i = 0; i + 1 < kv.size(); i += 2) {
        if ("entry".equals(kv.get(i).toString()) && entryId.equals(kv.get(i + 1).toString())) {
          return true;
        }
      }
    }
    return false;
  }

  /**
   * Drains {@code domain}'s stream for {@code user}: appends a marker event that notifies {@code user} (an
   * invitation from a fresh id to a fresh group or activity), waits for it and deletes it; the stream's consumer
   * handles entries in order, so everything appended before has been handled by then.
   */
  protected void drainStream(String domain, long user) throws Exception {
    long marker = KithTestKit.newUserId();
    long object = KithTestKit.newUserId();
    if (MessagingEvents.DOMAIN.equals(domain)) {
      event(domain, MessagingEvents.GROUP_INVITED, new JsonObject().put("group", object).put("name", "marker")
          .put("kind", "friends").put("by", marker).put("invited", new JsonArray().add(user)));
    } else {
      event(domain, ActivitiesEvents.ACTIVITY_INVITED, new JsonObject().put("activity", object)
          .put("organiser", marker).put("title", "marker").put("invited", new JsonArray().add(user)));
    }
    awaitNotifications(user, "the " + domain + " marker notification", items -> items.stream()
        .anyMatch(n -> Long.valueOf(marker).equals(n.getLong("from_user"))));
    await(notifications.deleteWhere(user, new JsonObject().put("where", new JsonObject().put("from_user", marker))));
  }

  /** Collects what is published to {@code kith.user.<user>} from now on. */
  protected List<JsonObject> pushes(long user) throws Exception {
    List<JsonObject> got = new CopyOnWriteArrayList<>();
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(Addresses.user(user), m -> got.add(m.body()));
    await(consumer.completion());
    return got;
  }

  protected static List<JsonObject> ofType(List<JsonObject> items, String type) {
    return items.stream().filter(n -> type.equals(n.getString("type"))).toList();
  }

  // ---------------------------------------------------------------- the invariant

  /**
   * Checks the counters of {@code user} against a full scan of the Redis side, and the Redis side against the
   * MongoDB record (same ids, same read state): {@code {total, by_type}} as the scan computes it.
   */
  protected JsonObject assertCountersMatchScan(long user) throws Exception {
    // MongoDB follows Redis (ids a cap eviction removed are deleted from the record after the insert script, possibly
    // after a drain saw the marker): wait for the stores to agree; if they never do, the last check says how
    try {
      await(Poll.until(vertx, WAIT, "the counters, Redis and MongoDB of " + user + " to agree", () ->
          vertx.executeBlocking(() -> {
            try {
              countersMatchScan(user);
              return true;
            } catch (AssertionError e) {
              return false;
            }
          })));
    } catch (ExecutionException e) {
      // reported by the check below
    }
    return countersMatchScan(user);
  }

  private JsonObject countersMatchScan(long user) throws Exception {
    var api = platform.redisApi();
    String prefix = HotStore.prefix(user);
    Response ids = await(api.zrange(List.of(prefix + ":idx", "0", "-1")));
    TreeMap<String, Long> byType = new TreeMap<>();
    Notifications.TYPES.forEach(t -> byType.put(t, 0L));
    long unread = 0;
    TreeMap<Long, Boolean> redisState = new TreeMap<>();
    for (Response id : ids) {
      Response h = await(api.hmget(List.of(prefix + ":n:" + id, "type", "unread")));
      String type = h.get(0).toString();
      boolean isUnread = "1".equals(h.get(1).toString());
      redisState.put(id.toLong(), isUnread);
      if (isUnread) {
        unread++;
        byType.merge(type, 1L, Long::sum);
      }
      assertEquals(1L, await(api.zscore(prefix + ":t:" + type, id.toString())) == null ? 0L : 1L,
          "type index holds " + id);
    }
    JsonObject scan = new JsonObject().put("total", unread).put("by_type", new JsonObject(new java.util.LinkedHashMap<>(byType)));
    JsonObject counters = await(notifications.unreadCounts(user));
    assertEquals(scan.getLong("total"), counters.getLong("total"), "total unread: counters " + counters + " scan " + scan);
    for (String t : Notifications.TYPES) {
      assertEquals(byType.get(t), counters.getJsonObject("by_type").getLong(t), "unread " + t + ": " + counters);
    }
    Response stored = await(api.hget(HotStore.countersKey(user), "stored"));
    assertEquals(ids.size(), stored.toInteger(), "stored counter");
    List<JsonObject> docs = await(platform.mongo().find(NotificationRecords.NOTIFICATIONS,
        new JsonObject().put("to", user)));
    TreeMap<Long, Boolean> mongoState = new TreeMap<>();
    docs.forEach(d -> mongoState.put(d.getLong("_id"), d.getBoolean("unread")));
    assertEquals(redisState, mongoState, "Redis and MongoDB hold the same notifications and read states");
    return scan;
  }

  protected static JsonObject where(String field, Object value) {
    return new JsonObject().put("where", new JsonObject().put(field, value));
  }

  protected static JsonObject types(String... types) {
    return new JsonObject().put("types", new JsonArray(List.of((Object[]) types)));
  }
}
