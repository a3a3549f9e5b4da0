package io.kith.push.service.announcements;

import io.kith.accounts.api.AccountsInternal;
import io.kith.notifications.api.NotificationsInternal;
import io.kith.platform.bus.ServiceBindings;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.ModuleTestBase;
import io.kith.platform.testkit.Poll;
import io.kith.push.api.ApiKeys;
import io.kith.push.api.SystemNotificationsService;
import io.kith.push.service.PushModule;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The announcement walk of the push module, called through its service proxy, with stand-ins for the two services it
 * asks bound at their addresses: accounts' walk over a fixed list of active accounts, and notifications refusing some
 * batches as {@code unavailable} (as a MongoDB pool wait makes it), so that the walk's retries can be watched.
 */
@DisplayName("Announcements: the walk over every account while notifications refuses batches")
class AnnouncementWalkTest extends ModuleTestBase {

  private static final Duration WAIT = Duration.ofSeconds(60);

  private final List<Long> everyone = new ArrayList<>();
  /** Every batch notifications was asked to tell, in order, with whether it was refused. */
  private final List<JsonObject> asked = new CopyOnWriteArrayList<>();
  private SystemNotificationsService service;

  @BeforeAll
  void start() throws Exception {
    startPlatform(new JsonObject().put("kith", new JsonObject().put("modules", new JsonArray().add("push")))
        .put("push", new JsonObject().put("announcements", new JsonObject().put("batch", 3).put("poll-ms", 50L))));
    for (int i = 0; i < 8; i++) {
      everyone.add(KithTestKit.newUserId());
    }
    everyone.sort(null);
    ServiceBindings bindings = new ServiceBindings(vertx);
    await(bindings.bind(AccountsInternal.class, stub(AccountsInternal.class, "activeUsers", args -> {
      long after = (Long) args[0];
      int limit = (Integer) args[1];
      List<Long> ids = everyone.stream().filter(id -> id > after).limit(limit).toList();
      return Future.succeededFuture(new JsonObject().put("ids", new JsonArray(ids))
          .put("next", ids.size() < limit ? null : ids.get(ids.size() - 1)));
    }), AccountsInternal.ADDRESS));
    await(bindings.bind(NotificationsInternal.class, stub(NotificationsInternal.class, "notifySystem",
        args -> notifySystem((List<?>) args[0], (String) args[3])), NotificationsInternal.ADDRESS));
    await(new PushModule().deploy(platform));
    service = SystemNotificationsService.proxy(vertx);
  }

  /** Refuses the second batch twice and the third once, as a store in trouble; tells the others. */
  private Future<Object> notifySystem(List<?> users, String key) {
    if (users.isEmpty()) {
      return Future.succeededFuture(new JsonObject().put("users", 0));
    }
    long refusedBefore = asked.stream().filter(a -> a.getBoolean("refused")).count();
    int batch = (int) asked.stream().filter(a -> !a.getBoolean("refused")).count() + 1;
    boolean refuse = (batch == 2 && refusedBefore < 2) || (batch == 3 && refusedBefore < 3);
    asked.add(new JsonObject().put("users", new JsonArray(new ArrayList<>(users))).put("key", key)
        .put("refused", refuse));
    return refuse ? Failures.fail(KithErrors.UNAVAILABLE, "1 of " + users.size() + " notifications not stored")
        : Future.succeededFuture(new JsonObject().put("users", users.size()));
  }

  @SuppressWarnings("unchecked")
  private static <T> T stub(Class<T> type, String method, Function<Object[], Future<?>> answer) {
    return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, m, args) ->
        m.getName().equals(method) ? answer.apply(args) : Future.failedFuture("not in this test: " + m.getName()));
  }

  @Test
  @DisplayName("every account is told once, each refused batch told again from where the walk stood with the same "
      + "key, and the job ends done with every account counted")
  void refusedBatchesAreToldAgain() throws Exception {
    JsonObject key = new JsonObject().put("scopes", new JsonArray().add(ApiKeys.ANNOUNCEMENTS_WRITE));
    long job = await(service.send(key, new JsonObject().put("all", true).put("type", "news")
        .put("fields", new JsonObject()))).getLong("announcement");

    await(Poll.until(vertx, WAIT, "the announcement to end", () -> platform.mongo()
        .findOne(AnnouncementStore.COLLECTION, new JsonObject().put("_id", job), null)
        .map(doc -> !AnnouncementStore.RUNNING.equals(doc.getString("state")))));

    JsonObject done = await(platform.mongo().findOne(AnnouncementStore.COLLECTION,
        new JsonObject().put("_id", job), null));
    assertEquals(AnnouncementStore.DONE, done.getString("state"));
    assertEquals(everyone.size(), done.getLong("told"));
    assertEquals(0, done.getInteger("failures"));
    Map<Long, Integer> told = new TreeMap<>();
    List<String> order = new ArrayList<>();
    for (JsonObject a : asked) {
      assertEquals(done.getString("key"), a.getString("key"), "one key for every batch and retry");
      order.add(a.getJsonArray("users").encode() + (a.getBoolean("refused") ? " refused" : ""));
      if (!a.getBoolean("refused")) {
        a.getJsonArray("users").forEach(u -> told.merge(((Number) u).longValue(), 1, Integer::sum));
      }
    }
    Map<Long, Integer> once = new TreeMap<>();
    everyone.forEach(u -> once.put(u, 1));
    assertEquals(once, told, "every account told once: " + order);
    List<Long> second = everyone.subList(3, 6);
    List<Long> third = everyone.subList(6, 8);
    assertEquals(List.of(encode(everyone.subList(0, 3)), encode(second) + " refused", encode(second) + " refused",
        encode(second), encode(third) + " refused", encode(third)), order, "each refused batch told again before the walk goes on");
  }

  private static String encode(List<Long> users) {
    return new JsonArray(new ArrayList<>(users)).encode();
  }
}
