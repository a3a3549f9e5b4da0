package io.kith.activities.service;

import io.kith.accounts.api.AccountsService;
import io.kith.accounts.service.AccountsModule;
import io.kith.activities.api.ActivitiesEvents;
import io.kith.activities.api.ActivitiesInternal;
import io.kith.activities.api.ActivitiesService;
import io.kith.feeds.service.FeedsModule;
import io.kith.messaging.api.MessagingInternal;
import io.kith.messaging.api.MessagingService;
import io.kith.messaging.service.MessagingModule;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.ModuleTestBase;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.TestUsers;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.RelationsService;
import io.kith.relations.service.RelationsModule;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;


/**
 * Deploys accounts, relations, feeds (its media store), messaging and activities on the test stores once per class
 * and calls activities through its event-bus proxy. Each test makes its own users and activities. Rate limits are
 * raised out of the way unless a class sets them in {@link #activitiesConfig()}.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ActivitiesTestBase extends ModuleTestBase {

  protected static final long MINUTE = 60_000L;
  protected static final long HOUR = 60 * MINUTE;
  protected static final long DAY = 24 * HOUR;
  protected static final Duration DEADLINE = Duration.ofSeconds(20);

  protected AccountsService accounts;
  protected RelationsService relations;
  protected RelationsInternal relationsInternal;
  protected MessagingService messaging;
  protected MessagingInternal messagingInternal;
  protected ActivitiesService activities;
  protected ActivitiesInternal activitiesInternal;

  /** Overrides of the {@code activities} configuration for this class. */
  protected JsonObject activitiesConfig() {
    return new JsonObject();
  }

  @BeforeAll
  void deploy() throws Exception {
    startPlatform(new JsonObject()
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000).put("argon2-max-queued", 100_000))
        .put("activities", new JsonObject().put("creates-per-hour", 1_000_000).put("invitees-per-hour", 1_000_000)
            .put("sweep-interval-ms", 100).put("repair-interval-seconds", 1).mergeIn(activitiesConfig())));
    await(KithTestKit.deploy(platform, new AccountsModule(), new RelationsModule(), new FeedsModule(),
        new MessagingModule(), new ActivitiesModule()));
    accounts = AccountsService.proxy(vertx);
    relations = RelationsService.proxy(vertx);
    relationsInternal = RelationsInternal.proxy(vertx);
    messaging = MessagingService.proxy(vertx);
    messagingInternal = MessagingInternal.proxy(vertx);
    activities = ActivitiesService.proxy(vertx);
    activitiesInternal = ActivitiesInternal.proxy(vertx);
  }

  // ---------------------------------------------------------------- futures and failures

  protected void pollUntil(String what, Supplier<Future<Boolean>> condition) throws Exception {
    await(Poll.until(vertx, DEADLINE, what, condition));
  }

  // ---------------------------------------------------------------- users

  /** Registers {@code n} users (accounts exist: summaries, follows) and returns their ids. */
  protected List<Long> newUsers(int n) throws Exception {
    return TestUsers.newUsers(accounts::register, "a", n, 16);
  }


  protected long newUser() throws Exception {
    return newUsers(1).get(0);
  }

  /** Ids no account has (enough where nobody needs a profile: joins under load). */
  protected static List<Long> ghostUsers(int n) {
    List<Long> ids = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      ids.add(KithTestKit.newUserId());
    }
    return ids;
  }

  protected void befriend(long a, long b) throws Exception {
    await(relations.follow(a, b));
    await(relations.follow(b, a));
  }

  // ---------------------------------------------------------------- activities

  /** A valid activity body starting in {@code startIn} ms, lasting two hours. */
  protected static JsonObject body(long startIn) {
    long start = System.currentTimeMillis() + startIn;
    return new JsonObject().put("title", "Meetup " + UUID.randomUUID().toString().substring(0, 8))
        .put("introduction", "Bring snacks").put("start", start).put("end", start + 2 * HOUR)
        .put("place", new JsonObject().put("name", "The park"));
  }

  protected static JsonObject body() {
    return body(DAY);
  }

  protected JsonObject create(long organiser, JsonObject body) throws Exception {
    return await(activities.create(organiser, body));
  }

  protected long createId(long organiser, JsonObject body) throws Exception {
    return create(organiser, body).getLong("id");
  }

  protected String join(long user, long activity) throws Exception {
    return await(activities.join(user, activity)).getString("status");
  }

  /** The ids of a page's items ({@code {items: [{id}]}}). */
  /** The filters of a list query: its members but {@code limit} and {@code cursor}, which page it. */
  protected static JsonObject filters(JsonObject query) {
    JsonObject filters = query.copy();
    filters.remove("limit");
    filters.remove("cursor");
    return filters;
  }

  /** The page a list query asks for: its {@code limit} and {@code cursor} members. */
  protected static PageRequest pageOf(JsonObject query) {
    return new PageRequest(query.getInteger("limit"), 0, 0, query.getString("cursor"));
  }

  protected static List<Long> ids(JsonObject page) {
    List<Long> out = new ArrayList<>();
    page.getJsonArray("items").forEach(i -> out.add(((JsonObject) i).getLong("id")));
    return out;
  }

  /** The user ids of a participants page. */
  protected static List<Long> userIds(JsonObject page) {
    List<Long> out = new ArrayList<>();
    page.getJsonArray("items").forEach(i -> out.add(((JsonObject) i).getJsonObject("user").getLong("id")));
    return out;
  }

  /** Every participant id of a status, following {@code next}. */
  protected List<Long> allParticipants(long viewer, long activity, String status, int limit) throws Exception {
    List<Long> all = new ArrayList<>();
    String cursor = null;
    for (int i = 0; i < 10_000; i++) {
      JsonObject q = new JsonObject().put("status", status).put("limit", limit);
      if (cursor != null) {
        q.put("cursor", cursor);
      }
      JsonObject page = await(activities.participants(viewer, activity, filters(q), pageOf(q)).map(Page::toJson));
      all.addAll(userIds(page));
      cursor = page.getString("next");
      if (cursor == null) {
        return all;
      }
    }
    throw new AssertionError("paging did not end");
  }

  // ---------------------------------------------------------------- events

  /** Starts recording the activities stream in a consumer group of its own (from now on). Close it at the end. */
  protected EventRecorder recordEvents() throws Exception {
    EventRecorder recorder = new EventRecorder();
    recorder.start();
    return recorder;
  }

  /** The activities events seen by one consumer group. */
  protected final class EventRecorder extends io.kith.platform.testkit.EventRecorder {

    private EventRecorder() {
      super(platform, ActivitiesEvents.DOMAIN);
    }

    /** Events of {@code type} about {@code activity}, seen so far. */
    List<DomainEvent> of(String type, long activity) {
      return matching(e -> e.type().equals(type) && e.payload().getLong("activity", 0L) == activity);
    }

    /** Waits until {@code n} events of {@code type} about {@code activity} were seen; returns them. */
    List<DomainEvent> await(String type, long activity, int n) throws Exception {
      pollUntil(n + " " + type + " of " + activity, () -> Future.succeededFuture(of(type, activity).size() >= n));
      return of(type, activity);
    }
  }

  protected static List<Long> longs(JsonArray array) {
    List<Long> out = new ArrayList<>();
    array.forEach(x -> out.add(((Number) x).longValue()));
    return out;
  }
}
