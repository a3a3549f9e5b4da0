package io.kith.bench.scenario.relations;

import io.kith.accounts.api.AccountsService;
import io.kith.bench.scenario.EdgeSeeder;
import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.relations.api.RelationsInternal;
import io.kith.relations.api.RelationsService;
import io.kith.relations.service.RelationsSeeder;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The relations scenarios write the relations domain's documents straight into MongoDB: these tests seed the same
 * way on the test stores and ask the real relations service (deployed as the app does, through its module), so that
 * a change of the domain's documents shows up here rather than as a benchmark measuring the wrong thing.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SeededGraphTest {

  private Vertx vertx;
  private Platform platform;
  private RelationsService relations;
  private RelationsInternal relationsInternal;
  private AccountsService accounts;

  @BeforeAll
  void deploy() {
    vertx = Vertx.vertx();
    platform = Await.result(KithTestKit.platform(vertx, new JsonObject()
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000))));
    Set<String> wanted = Set.of("accounts", "relations");
    KithModule[] modules = ServiceLoader.load(KithModule.class).stream().map(ServiceLoader.Provider::get)
        .filter(m -> wanted.contains(m.name())).toArray(KithModule[]::new);
    assertEquals(2, modules.length, "the accounts and relations modules are on the class path");
    Await.result(KithTestKit.deploy(platform, modules));
    relations = RelationsService.proxy(vertx);
    relationsInternal = RelationsInternal.proxy(vertx);
    accounts = AccountsService.proxy(vertx);
  }

  @AfterAll
  void undeploy() {
    if (platform != null) {
      Await.result(platform.close());
    }
    if (vertx != null) {
      Await.result(vertx.close());
    }
  }

  private <T> T onContext(Supplier<Future<T>> work) {
    Promise<T> done = Promise.promise();
    vertx.runOnContext(v -> work.get().onComplete(done));
    return Await.result(done.future());
  }

  private void insert(String collection, List<JsonObject> docs) {
    onContext(() -> EdgeSeeder.seed(vertx, platform.mongo(), collection, EdgeSeeder.of(docs), collection));
  }

  @Test
  @DisplayName("the relations service answers the seeded mix exactly as the relations-batch scenario expects")
  void batchMixMatchesTheService() {
    long viewer = platform.ids().next();
    List<Long> others = new ArrayList<>();
    for (int i = 0; i < RelationsBatchScenario.IDS; i++) {
      others.add(platform.ids().next());
    }
    RelationsMix mix = RelationsMix.build(viewer, others, platform.ids()::next, 300, platform.ids()::next,
        System.currentTimeMillis());
    insert(RelationsSeeder.EDGES, mix.edges());
    insert(RelationsSeeder.TAGS, mix.tags());
    insert(RelationsSeeder.GROUPS, mix.groups());
    insert(RelationsSeeder.MEMBERS, mix.members());

    JsonObject answer = Await.result(relations.relationships(viewer, others));
    int blockedBy = 0;
    int hiddenFrom = 0;
    JsonObject asHttp = new JsonObject();
    for (Map.Entry<String, Object> e : answer) {
      JsonObject r = ((JsonObject) e.getValue()).copy();
      blockedBy += Boolean.TRUE.equals(r.remove("blocked_by")) ? 1 : 0;
      hiddenFrom += Boolean.TRUE.equals(r.remove("hidden_from")) ? 1 : 0;
      r.put("circles", r.remove("groups")); // the service's friend groups are circles over HTTP
      asHttp.put(e.getKey(), r);
    }
    assertEquals(mix.expect(), RelationsMix.Counts.of(asHttp));
    assertEquals(mix.expect(), RelationsMix.Counts.of(RelationsBatchScenario.check(asHttp, mix.expect())));
    assertEquals(10, blockedBy, "1 % of the users block the viewer");
    assertEquals(20, hiddenFrom, "2 % hide their posts from the viewer");
    Map<String, Long> sizes = new java.util.TreeMap<>();
    Await.result(relations.groups(viewer)).getJsonArray("items").forEach(g ->
        sizes.put(((JsonObject) g).getString("name"), ((JsonObject) g).getLong("size")));
    assertEquals(Map.of("Colleagues", 60L, "Family", 50L), sizes, "the service lists the seeded groups");
    assertThrows(IllegalStateException.class, () -> RelationsMix.Counts.of(answer),
        "the service's own answer holds blocked_by, which the HTTP reply must not");
  }

  @Test
  @DisplayName("the seeded mix obeys the domain's rules: unique edges, no follow across a block, groups of friends")
  void mixIsConsistent() {
    List<Long> others = new ArrayList<>();
    for (long i = 0; i < 1000; i++) {
      others.add(10_000 + i);
    }
    AtomicLong ids = new AtomicLong();
    AtomicLong strangers = new AtomicLong(100_000);
    RelationsMix mix = RelationsMix.build(1, others, ids::incrementAndGet, 50, strangers::getAndIncrement, 0);
    Set<String> keys = new HashSet<>();
    Set<String> follows = new HashSet<>();
    Set<String> blocks = new HashSet<>();
    Set<String> friends = new HashSet<>();
    for (JsonObject e : mix.edges()) {
      String key = e.getString("t") + ":" + e.getLong("a") + ":" + e.getLong("b");
      assertTrue(keys.add(key), "edge " + key + " once");
      String pair = Math.min(e.getLong("a"), e.getLong("b")) + ":" + Math.max(e.getLong("a"), e.getLong("b"));
      switch (e.getString("t")) {
        case "f" -> follows.add(pair);
        case "b" -> blocks.add(pair);
        case "F" -> friends.add(e.getLong("a") + ":" + e.getLong("b"));
        default -> { }
      }
    }
    follows.retainAll(blocks);
    assertTrue(follows.isEmpty(), "no follow across a block");
    for (JsonObject m : mix.members()) {
      assertTrue(friends.contains(m.getLong("owner") + ":" + m.getLong("member")), "group members are friends");
    }
    long sized = mix.groups().stream().mapToLong(g -> g.getLong("size")).sum();
    assertEquals(mix.members().size(), sized, "group sizes count their members");
    Set<Long> allIds = new HashSet<>();
    mix.edges().forEach(e -> allIds.add(e.getLong("_id")));
    mix.tags().forEach(e -> allIds.add(e.getLong("_id")));
    mix.groups().forEach(e -> allIds.add(e.getLong("_id")));
    mix.members().forEach(e -> allIds.add(e.getLong("_id")));
    assertEquals(mix.edges().size() + mix.tags().size() + mix.groups().size() + mix.members().size(), allIds.size());
  }

  @Test
  @DisplayName("walking a seeded follower list through the service takes the expected pages, each full of followers")
  void followerWalkMatchesTheService() {
    List<Long> real = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      String name = "s" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
      JsonObject reply = Await.result(accounts.register(new JsonObject().put("username", name)
          .put("password", "correct horse battery"), "127.0.0.1"));
      real.add(reply.getJsonObject("user").getLong("id"));
    }
    long celebrity = platform.ids().next();
    int seeded = 1_050;
    onContext(() -> RelationsFollowersScenario.seedFollowerAccounts(vertx, platform.mongo(), seeded,
        "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 8)));
    onContext(() -> EdgeSeeder.seed(vertx, platform.mongo(), RelationsSeeder.EDGES,
        EdgeSeeder.follows(celebrity, seeded, i -> RelationsFollowersScenario.ANONYMOUS_BASE + i,
            platform.ids()::next, System::currentTimeMillis), "seeded follows"));
    List<JsonObject> top = new ArrayList<>();
    real.forEach(f -> top.add(RelationsSeeder.edge(platform.ids().next(), RelationsSeeder.FOLLOW, f, celebrity,
        System.currentTimeMillis())));
    insert(RelationsSeeder.EDGES, top);

    long total = seeded + real.size();
    onContext(() -> RelationsFollowersScenario.setCount(platform.mongo(), celebrity, total));
    assertEquals(total, Await.result(relationsInternal.counts(celebrity)).getLong("follower_count"),
        "the service reads the count where the scenario writes it");
    FollowerWalk walk = new FollowerWalk(RelationsFollowersScenario.pages(total));
    Set<Long> realSet = new HashSet<>(real);
    LongPredicate anyFollower = RelationsFollowersScenario.follower(realSet, seeded);
    Set<Long> listed = new HashSet<>();
    long pages = 0;
    // the celebrity reads its own list, which needs no account for it
    do {
      FollowerWalk.Step step = walk.next();
      JsonObject page = Await.result(relations.followers(celebrity, celebrity, PageRequest.after(step.cursor(),
          RelationsFollowersScenario.PAGE)).map(Page::toApiJson));
      RelationsFollowersScenario.checkPage(page, RelationsFollowersScenario.expectedItems(step.depth(), total),
          anyFollower);
      page.getJsonArray("items").forEach(item -> listed.add(((JsonObject) item).getJsonObject("user").getLong("id")));
      walk.answered(step, page.getString("next_cursor"));
      pages++;
    } while (walk.laps() == 0);
    assertEquals(RelationsFollowersScenario.pages(total), pages);
    assertEquals(pages, walk.advances());
    assertEquals(total, listed.size(), "every follower, seeded or registered, is listed once");
    FollowerWalk.Step again = walk.next();
    assertNull(again.cursor(), "the walk starts again at the top");
    JsonObject first = Await.result(relations.followers(celebrity, celebrity,
        PageRequest.first(RelationsFollowersScenario.PAGE)).map(Page::toApiJson));
    assertNotNull(first.getString("next_cursor"));
    for (int i = 0; i < real.size(); i++) {
      assertTrue(realSet.contains(first.getJsonArray("items").getJsonObject(i).getJsonObject("user").getLong("id")),
          "the registered followers, newest, are on top");
    }
    assertThrows(IllegalStateException.class, () -> RelationsFollowersScenario.checkPage(first, 2, anyFollower),
        "a page with another number of items fails the check");
    assertThrows(IllegalStateException.class, () -> RelationsFollowersScenario.checkPage(first,
        RelationsFollowersScenario.PAGE, realSet::contains), "a page listing someone else fails the check");
  }

  @Test
  @DisplayName("pages of 100 are full down to the list's last followers; a full last page is followed by an empty one")
  void pageArithmetic() {
    assertEquals(100, RelationsFollowersScenario.expectedItems(0, 250));
    assertEquals(50, RelationsFollowersScenario.expectedItems(2, 250));
    assertEquals(0, RelationsFollowersScenario.expectedItems(3, 250));
    assertEquals(11, RelationsFollowersScenario.pages(1_050));
    assertEquals(11, RelationsFollowersScenario.pages(1_000));
    assertEquals(10_002, RelationsFollowersScenario.pages(1_000_100));
  }
}
