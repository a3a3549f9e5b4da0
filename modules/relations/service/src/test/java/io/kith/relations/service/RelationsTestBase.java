package io.kith.relations.service;

import io.kith.accounts.api.AccountsInternal;
import io.kith.accounts.api.AccountsService;
import io.kith.accounts.service.AccountsModule;
import io.kith.platform.events.DomainEvent;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.ModuleTestBase;
import io.kith.platform.testkit.Poll;
import io.kith.platform.testkit.TestUsers;
import io.kith.relations.api.RelationsEvents;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.RelationsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Deploys accounts and relations on the test stores once per class and calls relations through its event-bus proxy.
 * Each test registers its own users.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class RelationsTestBase extends ModuleTestBase {

  private static final int REGISTRATION_WAVE = 16;

  protected AccountsService accounts;
  protected AccountsInternal accountsInternal;
  protected RelationsService relations;
  protected RelationsInternal relationsInternal;

  @BeforeAll
  void deploy() throws Exception {
    // one user here follows a hundred others in a moment to fill pages; the limits have their own tests (app module)
    startPlatform(new JsonObject()
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000).put("argon2-max-queued", 100_000))
        .put("relations", new JsonObject().put("follows-per-minute", 100_000).put("blocks-per-minute", 100_000)));
    await(KithTestKit.deploy(platform, new AccountsModule(), new RelationsModule()));
    accounts = AccountsService.proxy(vertx);
    accountsInternal = AccountsInternal.proxy(vertx);
    relations = RelationsService.proxy(vertx);
    relationsInternal = RelationsInternal.proxy(vertx);
  }

  /** Registers a fresh user and returns their id. */
  protected long newUser() throws Exception {
    return await(register()).getLong("id");
  }

  /** Registers {@code n} fresh users at once (password hashing runs in parallel) and returns their ids. */
  protected List<Long> newUsers(int n) throws Exception {
    return TestUsers.newUsers(accounts::register, "r", n, REGISTRATION_WAVE);
  }


  /** Registers {@code n} fresh users who require approval of followers. */
  protected List<Long> newPrivateUsers(int n) throws Exception {
    List<Long> ids = newUsers(n);
    List<Future<JsonObject>> all = new ArrayList<>();
    for (long id : ids) {
      all.add(accounts.updateProfile(id, new JsonObject().put("settings",
          new JsonObject().put("follow_approval", true))));
    }
    await(Future.all(all));
    return ids;
  }

  /** Registers a fresh user; yields their own profile. */
  protected Future<JsonObject> register() {
    return TestUsers.register(accounts::register, "r");
  }


  /** Makes {@code a} and {@code b} friends (both public accounts). */
  protected void befriend(long a, long b) throws Exception {
    await(relations.follow(a, b));
    await(relations.follow(b, a));
  }

  /** The user ids of a page of {@code {user, since}} items, in page order. */
  protected static List<Long> userIds(JsonObject page) {
    List<Long> ids = new ArrayList<>();
    JsonArray items = page.getJsonArray("items");
    for (int i = 0; i < items.size(); i++) {
      ids.add(items.getJsonObject(i).getJsonObject("user").getLong("id"));
    }
    return ids;
  }

  /** Every user id of a {@code {user, since}} list, following {@code next} cursors until the end. */
  protected static List<Long> allPages(PageFetcher fetch, int limit) throws Exception {
    List<Long> ids = new ArrayList<>();
    String cursor = null;
    for (int pages = 0; pages < 10_000; pages++) {
      JsonObject page = await(fetch.page(limit, cursor));
      assertTrue(page.getJsonArray("items").size() <= limit, "page larger than its limit: " + page);
      ids.addAll(userIds(page));
      cursor = page.getString("next");
      if (cursor == null) {
        return ids;
      }
    }
    throw new AssertionError("paging did not end");
  }

  /** One page of a list. */
  @FunctionalInterface
  protected interface PageFetcher {
    Future<JsonObject> page(int limit, String cursor);
  }

  /** Waits until {@code condition} holds, polling with a deadline. */
  protected void pollUntil(String what, Supplier<Future<Boolean>> condition) throws Exception {
    await(Poll.until(vertx, Duration.ofSeconds(60), what, condition));
  }

  /**
   * Starts recording the {@code events:relations} stream in a consumer group of its own (reading what is appended
   * from now on). Close it at the end of the test.
   */
  protected EventRecorder recordEvents() throws Exception {
    EventRecorder recorder = new EventRecorder();
    recorder.start();
    return recorder;
  }

  /** The relations events seen by one consumer group. */
  protected final class EventRecorder extends io.kith.platform.testkit.EventRecorder {

    private EventRecorder() {
      super(platform, RelationsEvents.DOMAIN);
    }

    /** Events of {@code type} from {@code from} to {@code to} seen so far. */
    List<DomainEvent> of(String type, long from, long to) {
      return matching(e -> e.type().equals(type) && from == e.payload().getLong("from")
          && to == e.payload().getLong("to"));
    }

    /** Events of {@code type} between the two users, in either direction, seen so far. */
    List<DomainEvent> between(String type, long a, long b) {
      return matching(e -> e.type().equals(type)
          && (a == e.payload().getLong("from") && b == e.payload().getLong("to")
          || b == e.payload().getLong("from") && a == e.payload().getLong("to")));
    }

    /** Every event seen so far that involves {@code user}. */
    List<DomainEvent> involving(long user) {
      return matching(e -> user == e.payload().getLong("from") || user == e.payload().getLong("to"));
    }

    /** Waits until an event of {@code type} from {@code from} to {@code to} has been seen; returns it. */
    DomainEvent awaitEvent(String type, long from, long to) throws Exception {
      pollUntil(type + " " + from + " -> " + to, () -> Future.succeededFuture(!of(type, from, to).isEmpty()));
      return of(type, from, to).get(0);
    }
  }

  /** The users of {@link #everyKind()}: {@code bystander} has nothing to do with {@code me}; the two groups' ids. */
  protected record EveryKind(long me, long a, long b, long c, long d, long p1, long e, long f, long bystander,
                              long mine, long pals) {
  }

  /**
   * Gives {@code me} data of every kind: me follows a, b follows me, me and c are friends, me requests to follow p1
   * and d requests to follow me, me blocks e and f blocks me, me and a mute each other, me and b hide from each
   * other, me has a group holding c and is in c's group "pals", me tags a and a tags me. The bystander follows a, is
   * c's friend and in c's group, and tags a.
   */
  protected EveryKind everyKind() throws Exception {
    List<Long> u = newUsers(8);
    long me = u.get(0);
    long a = u.get(1);
    long b = u.get(2);
    long c = u.get(3);
    long d = u.get(4);
    long e = u.get(5);
    long f = u.get(6);
    long bystander = u.get(7);
    long p1 = newPrivateUser();
    await(relations.follow(me, a));
    await(relations.follow(b, me));
    befriend(me, c);
    befriend(bystander, c);
    await(relations.follow(bystander, a));
    await(relations.follow(me, p1));
    await(accounts.updateProfile(me, new JsonObject().put("settings", new JsonObject().put("follow_approval", true))));
    assertEquals("requested", await(relations.follow(d, me)).getString("state"));
    await(relations.block(me, e));
    await(relations.block(f, me));
    await(relations.mute(me, a));
    await(relations.mute(a, me));
    await(relations.hide(me, b));
    await(relations.hide(b, me));
    long mine = await(relations.createGroup(me, "close")).getLong("id");
    await(relations.addGroupMembers(me, mine, List.of(c)));
    long pals = await(relations.createGroup(c, "pals")).getLong("id");
    await(relations.addGroupMembers(c, pals, List.of(me, bystander)));
    await(relations.tagUser(me, a, "work"));
    await(relations.tagUser(a, me, "x"));
    await(relations.tagUser(bystander, a, "y"));
    return new EveryKind(me, a, b, c, d, p1, e, f, bystander, mine, pals);
  }

  /** Registers a fresh user who requires approval of followers. */
  protected long newPrivateUser() throws Exception {
    long id = newUser();
    await(accounts.updateProfile(id, new JsonObject().put("settings", new JsonObject().put("follow_approval", true))));
    return id;
  }
}
