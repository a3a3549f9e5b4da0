package io.kith.notifications.service;

import io.kith.accounts.api.AccountsService;
import io.kith.feeds.api.FeedsInternal;
import io.kith.notifications.api.NotificationsEvents;
import io.kith.notifications.api.NotificationsInternal;
import io.kith.notifications.api.events.NotificationStored;
import io.kith.platform.error.Failures;
import io.kith.platform.events.Erasures;
import io.kith.platform.events.EventLog;
import io.kith.platform.store.StoreFailures;
import io.kith.platform.testkit.KithTestKit;
import io.kith.relations.api.RelationsInternal;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * System notifications (an announcement's batches) over a MongoDB that refuses some calls, as the embedded server's
 * pool waits did in the 10,000-recipient bench: a second notifications service on the class's platform, built over
 * a MongoDB client that refuses chosen calls once each and bound at an address of its own, is called through a proxy
 * as the announcement walk calls notifications; each batch is retried with the same key until it succeeds, as the
 * walk retries a failed batch.
 */
@DisplayName("System notifications while MongoDB refuses some calls")
class SystemNoticeFaultsTest extends NotificationsTestBase {

  private static final String TYPE = "announcement";

  /** The recipients of the test under way, in order: which calls are refused depends on a recipient's place. */
  private final List<Long> recipients = new CopyOnWriteArrayList<>();
  /** The calls refused so far (each once). */
  private final Set<String> refused = ConcurrentHashMap.newKeySet();
  /** The recipient of each record inserted through the refusing client (the finishing write names only the id). */
  private final Map<Long, Long> recipientOf = new ConcurrentHashMap<>();
  private NotificationsInternal faulty;
  /** The recipient whose first finishing write waits for {@link #resume} (0: none). */
  private volatile long stalled;
  /** Completed when the stalled recipient's first finishing write arrived and waits. */
  private volatile Promise<Void> reached = Promise.promise();
  /** Lets the stalled finishing write go on. */
  private volatile Promise<Void> resume = Promise.promise();

  @Override
  protected JsonObject notificationsConfig() {
    return new JsonObject().put("custom-types", new JsonArray().add(new JsonObject().put("name", TYPE)
        .put("fields", new JsonObject().put("title", "string").put("body", "string"))));
  }

  @BeforeAll
  void deployFaulty() throws Exception {
    NotificationsSettings settings = NotificationsSettings.from(platform.config().section("notifications"));
    NotificationRecords records = new NotificationRecords(refusing(platform.mongo()));
    HotStore hot = new HotStore(platform.redis(), user -> records.recent(user, settings.maxPerUser()),
        settings.maxPerUser(), settings.types());
    Pushes pushes = new Pushes(platform);
    SystemChanges system = new SystemChanges(records, hot, new Changes(platform, settings, records, hot, pushes),
        pushes);
    Delivery delivery = new Delivery(platform, records, hot, new Views(AccountsService.proxy(vertx)), pushes, system);
    SystemNotices notices = new SystemNotices(settings.customTypes(), new Notifier(delivery, records,
        RelationsInternal.proxy(vertx), FeedsInternal.proxy(vertx), new Erasures(platform.mongo())));
    faulty = bindAside(NotificationsInternal.class, notices);
  }

  /**
   * {@code real}, refusing once each, as MongoDB unavailable: the record's insert of every fifth recipient (nothing
   * stored), the read that rebuilds the Redis side of every third (the record stored, its Redis side and event not),
   * and the write that marks every fourth delivery finished (the record and its Redis side stored, the event not).
   */
  private MongoClient refusing(MongoClient real) {
    return (MongoClient) Proxy.newProxyInstance(MongoClient.class.getClassLoader(), new Class<?>[] {MongoClient.class},
        (proxy, method, args) -> {
          String fault = fault(method.getName(), args);
          if (fault != null && refused.add(fault)) {
            return Future.failedFuture(StoreFailures.unavailable("MongoDB"));
          }
          if (stalls(method.getName(), args) && reached.tryComplete()) {
            return resume.future().compose(v -> {
              try {
                return (Future<?>) invoke(real, method, args);
              } catch (Throwable e) {
                return Future.failedFuture(e);
              }
            });
          }
          return invoke(real, method, args);
        });
  }

  private static Object invoke(MongoClient real, Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(real, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  /** Whether this call is a finishing write ({@code $unset} of the hold) of the stalled recipient's record. */
  private boolean stalls(String method, Object[] args) {
    return stalled != 0 && method.equals("updateCollection") && args[1] instanceof JsonObject doc
        && args[2] instanceof JsonObject update && update.containsKey("$unset")
        && recipientOf.getOrDefault(doc.getLong("_id", 0L), 0L) == stalled;
  }

  private String fault(String method, Object[] args) {
    if (args == null || args.length < 2 || !NotificationRecords.NOTIFICATIONS.equals(args[0])
        || !(args[1] instanceof JsonObject doc)) {
      return null;
    }
    if (method.equals("insert") && doc.containsKey("_id")) {
      recipientOf.put(doc.getLong("_id"), doc.getLong("to"));
    }
    long to = method.equals("updateCollection") ? recipientOf.getOrDefault(doc.getLong("_id", 0L), 0L)
        : doc.getLong("to", 0L);
    int place = recipients.indexOf(to);
    if (place < 0) {
      return null;
    }
    return switch (method) {
      case "insert" -> place % 5 == 0 ? "insert " + place : null;
      case "findWithOptions" -> place % 3 == 1 ? "rebuild " + place : null;
      case "updateCollection" -> args[2] instanceof JsonObject update && update.containsKey("$unset")
          && place % 4 == 2 ? "finish " + place : null;
      default -> null;
    };
  }

  @Test
  @DisplayName("an announcement to 40 recipients whose inserts, Redis rebuilds and finishing writes MongoDB refuses "
      + "in part stores one notification and appends one NotificationStored per recipient once its batches are "
      + "retried")
  void everyRecipientOnceDespiteRefusals() throws Exception {
    List<Long> users = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      users.add(KithTestKit.newUserId());
    }
    recipients.addAll(users);
    String key = "a" + UUID.randomUUID();
    JsonObject fields = new JsonObject().put("title", key).put("body", "the app is new");
    String from = System.currentTimeMillis() + "-0";

    int failedTries = 0;
    for (int b = 0; b < users.size(); b += 10) {
      failedTries += tellUntilDone(users.subList(b, b + 10), fields, key);
    }

    assertTrue(failedTries >= 4, "every batch met a refusal: " + failedTries + " failed tries, refused " + refused);
    Map<Long, Integer> stored = new TreeMap<>();
    for (JsonObject doc : await(platform.mongo().find(NotificationRecords.NOTIFICATIONS,
        new JsonObject().put("key", "system:" + key)))) {
      stored.merge(doc.getLong("to"), 1, Integer::sum);
      assertFalse(doc.containsKey(NotificationRecords.PENDING), "every delivery finished: " + doc);
    }
    assertEquals(counted(users), stored, "one notification per recipient");
    assertEquals(counted(users), events(from, key), "one NotificationStored per recipient");
  }

  @Test
  @DisplayName("a recipient whose notification another delivery holds is refused as unavailable, and gets it once "
      + "when that delivery lets it go")
  void heldByAnotherDelivery() throws Exception {
    long user = KithTestKit.newUserId();
    String key = "a" + UUID.randomUUID();
    JsonObject fields = new JsonObject().put("title", key).put("body", "held");
    String from = System.currentTimeMillis() + "-0";
    long held = KithTestKit.newUserId();
    await(platform.mongo().insert(NotificationRecords.NOTIFICATIONS, new JsonObject().put("_id", held)
        .put("to", user).put("type", TYPE).put("created", System.currentTimeMillis()).put("unread", true)
        .put("key", "system:" + key).put("data", fields)
        .put(NotificationRecords.PENDING, System.currentTimeMillis() + 600_000)));

    failsWith("unavailable", faulty.notifySystem(List.of(user), TYPE, fields, key));
    assertEquals(Map.of(), events(from, key), "nothing announced while it is held");

    await(platform.mongo().updateCollection(NotificationRecords.NOTIFICATIONS, new JsonObject().put("_id", held),
        new JsonObject().put("$set", new JsonObject().put(NotificationRecords.PENDING, 0L))));
    await(faulty.notifySystem(List.of(user), TYPE, fields, key));
    await(faulty.notifySystem(List.of(user), TYPE, fields, key));

    assertEquals(Map.of(user, 1), events(from, key), "announced once, by the delivery that took it over");
    assertEquals(List.of(held), all(user).stream().map(n -> n.getLong("id")).toList());
  }

  @Test
  @DisplayName("a delivery whose hold ran out while it worked, so that another delivery took its record over and "
      + "announced it, announces nothing when it goes on: one NotificationStored")
  void outlivedHoldAnnouncesOnce() throws Exception {
    long user = KithTestKit.newUserId();
    String key = "a" + UUID.randomUUID();
    JsonObject fields = new JsonObject().put("title", key).put("body", "slow");
    String from = System.currentTimeMillis() + "-0";
    reached = Promise.promise();
    resume = Promise.promise();
    stalled = user;
    try {
      Future<JsonObject> slow = faulty.notifySystem(List.of(user), TYPE, fields, key);
      await(reached.future());
      // the slow delivery's hold runs out, as 30 s of a stalled node would make it
      await(platform.mongo().updateCollection(NotificationRecords.NOTIFICATIONS, new JsonObject().put("to", user)
          .put("key", "system:" + key), new JsonObject().put("$set", new JsonObject()
          .put(NotificationRecords.PENDING, 0L))));
      await(faulty.notifySystem(List.of(user), TYPE, fields, key));
      assertEquals(Map.of(user, 1), events(from, key), "the delivery that took the record over announced it");
      resume.complete();
      await(slow);
    } finally {
      stalled = 0;
      resume.tryComplete();
    }
    JsonObject doc = await(platform.mongo().findOne(NotificationRecords.NOTIFICATIONS, new JsonObject()
        .put("to", user).put("key", "system:" + key), null));
    assertFalse(doc.containsKey(NotificationRecords.PENDING), "finished: " + doc);
    assertEquals(Map.of(user, 1), events(from, key), "announced once");
  }

  /** Tells a batch until it succeeds; answers how many tries failed (each unavailable, counting its failures). */
  private int tellUntilDone(List<Long> batch, JsonObject fields, String key) throws Exception {
    for (int failed = 0; failed < 10; failed++) {
      try {
        await(faulty.notifySystem(batch, TYPE, fields, key));
        return failed;
      } catch (ExecutionException e) {
        assertEquals("unavailable", Failures.codeOf(e.getCause()), "failure: " + e.getCause());
        assertTrue(e.getCause().getMessage().matches("\\d+ of 10 notifications not stored.*"),
            e.getCause().getMessage());
      }
    }
    throw new AssertionError("the batch " + batch + " kept failing");
  }

  private static Map<Long, Integer> counted(List<Long> users) {
    Map<Long, Integer> out = new TreeMap<>();
    users.forEach(u -> out.put(u, 1));
    return out;
  }

  /** How many {@code NotificationStored} of the announcement titled {@code title} each user has, since {@code from}. */
  private Map<Long, Integer> events(String from, String title) throws Exception {
    Map<Long, Integer> out = new TreeMap<>();
    Response entries = await(platform.redisApi().xrange(List.of(EventLog.stream(NotificationsEvents.DOMAIN), from,
        "+")));
    for (Response entry : entries) {
      Map<String, String> kv = new ConcurrentHashMap<>();
      Response pairs = entry.get(1);
      for (int i = 0; i + 1 < pairs.size(); i += 2) {
        kv.put(pairs.get(i).toString(), pairs.get(i + 1).toString());
      }
      if (!NotificationStored.class.getSimpleName().equals(kv.get("type"))) {
        continue;
      }
      NotificationStored event = NotificationStored.fromJson(new JsonObject(kv.get("payload")));
      JsonObject data = event.notification().getJsonObject("data", new JsonObject());
      if (title.equals(data.getString("title"))) {
        out.merge(event.userId(), 1, Integer::sum);
      }
    }
    return out;
  }
}
