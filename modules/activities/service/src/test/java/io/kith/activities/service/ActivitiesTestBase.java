package io.kith.activities.service;

import io.kith.accounts.api.AccountsService;
import io.kith.accounts.service.AccountsModule;
import io.kith.activities.api.ActivitiesEvents;
import io.kith.activities.api.ActivitiesService;
import io.kith.feeds.service.FeedsModule;
import io.kith.messaging.api.MessagingService;
import io.kith.messaging.service.MessagingModule;
import io.kith.platform.Platform;
import io.kith.platform.error.Failures;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.events.EventConsumer;
import io.kith.platform.events.EventLog;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Poll;
import io.kith.relations.api.RelationsService;
import io.kith.relations.service.RelationsModule;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Deploys accounts, relations, feeds (its media store), messaging and activities on the test stores once per class
 * and calls activities through its event-bus proxy. Each test makes its own users and activities. Rate limits are
 * raised out of the way unless a class sets them in {@link #activitiesConfig()}.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class ActivitiesTestBase {

  protected static final long MINUTE = 60_000L;
  protected static final long HOUR = 60 * MINUTE;
  protected static final long DAY = 24 * HOUR;
  protected static final Duration DEADLINE = Duration.ofSeconds(20);

  protected Vertx vertx;
  protected Platform platform;
  protected AccountsService accounts;
  protected RelationsService relations;
  protected MessagingService messaging;
  protected ActivitiesService activities;

  /** Overrides of the {@code activities} configuration for this class. */
  protected JsonObject activitiesConfig() {
    return new JsonObject();
  }

  @BeforeAll
  void deploy() throws Exception {
    vertx = Vertx.vertx();
    platform = await(KithTestKit.platform(vertx, new JsonObject()
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000).put("argon2-max-queued", 100_000))
        .put("activities", new JsonObject().put("creates-per-hour", 1_000_000).put("invitees-per-hour", 1_000_000)
            .put("sweep-interval-ms", 100).put("repair-interval-seconds", 1).mergeIn(activitiesConfig()))));
    await(KithTestKit.deploy(platform, new AccountsModule(), new RelationsModule(), new FeedsModule(),
        new MessagingModule(), new ActivitiesModule()));
    accounts = AccountsService.proxy(vertx);
    relations = RelationsService.proxy(vertx);
    messaging = MessagingService.proxy(vertx);
    activities = ActivitiesService.proxy(vertx);
  }

  @AfterAll
  void undeploy() throws Exception {
    if (platform != null) {
      await(platform.close());
    }
    if (vertx != null) {
      await(vertx.close());
    }
  }

  // ---------------------------------------------------------------- futures and failures

  protected static <T> T await(Future<T> future) throws Exception {
    return future.toCompletionStage().toCompletableFuture().get(60, TimeUnit.SECONDS);
  }

  /** Asserts that {@code future} fails with {@code code} (and names {@code field}, when given). */
  protected static ServiceException failsWith(String code, String field, Future<?> future) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> await(future));
    assertEquals(code, Failures.codeOf(e.getCause()), "failure: " + e.getCause());
    ServiceException se = (ServiceException) e.getCause();
    if (field != null) {
      assertEquals(field, se.getDebugInfo().getString(Failures.FIELD), "field of " + se.getMessage());
    }
    return se;
  }

  protected void pollUntil(String what, Supplier<Future<Boolean>> condition) throws Exception {
    await(Poll.until(vertx, DEADLINE, what, condition));
  }

  // ---------------------------------------------------------------- users

  /** Registers {@code n} users (accounts exist: summaries, follows) and returns their ids. */
  protected List<Long> newUsers(int n) throws Exception {
    List<Long> ids = new ArrayList<>();
    while (ids.size() < n) {
      List<Future<JsonObject>> wave = new ArrayList<>();
      for (int i = 0; i < Math.min(16, n - ids.size()); i++) {
        String name = "a" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        wave.add(accounts.register(new JsonObject().put("username", name).put("password", "correct horse battery"),
            "test-" + UUID.randomUUID()).map(r -> r.getJsonObject("user")));
      }
      await(Future.all(wave));
      wave.forEach(f -> ids.add(f.result().getLong("id")));
    }
    return ids;
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
    String group = "activities-test-" + UUID.randomUUID();
    EventRecorder recorder = new EventRecorder(group);
    recorder.consumer = await(platform.events().consume(ActivitiesEvents.DOMAIN, group, e -> {
      recorder.seen.add(e);
      return Future.succeededFuture();
    }));
    return recorder;
  }

  /** The activities events seen by one consumer group. */
  protected final class EventRecorder implements AutoCloseable {
    private final String group;
    final List<DomainEvent> seen = new CopyOnWriteArrayList<>();
    private EventConsumer consumer;

    private EventRecorder(String group) {
      this.group = group;
    }

    /** Events of {@code type} about {@code activity}, seen so far. */
    List<DomainEvent> of(String type, long activity) {
      return seen.stream().filter(e -> e.type().equals(type)
          && e.payload().getLong("activity", 0L) == activity).toList();
    }

    /** Waits until {@code n} events of {@code type} about {@code activity} were seen; returns them. */
    List<DomainEvent> await(String type, long activity, int n) throws Exception {
      pollUntil(n + " " + type + " of " + activity, () -> Future.succeededFuture(of(type, activity).size() >= n));
      return of(type, activity);
    }

    @Override
    public void close() throws Exception {
      if (consumer != null) {
        ActivitiesTestBase.await(consumer.stop());
      }
      ActivitiesTestBase.await(platform.redisApi()
          .xgroup(List.of("DESTROY", EventLog.stream(ActivitiesEvents.DOMAIN), group)));
    }
  }

  protected static List<Long> longs(JsonArray array) {
    List<Long> out = new ArrayList<>();
    array.forEach(x -> out.add(((Number) x).longValue()));
    return out;
  }
}
