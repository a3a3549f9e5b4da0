package io.kith.faults;

import io.kith.bench.cluster.KithNode;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Checks that the event consumers work: a follow reaches the followed user's notifications (relations stream,
 * notifications' group) and a post reaches a follower's home timeline (feeds stream, the fan-out group).
 */
final class Consumers {

  /** Generous: a consumer that works delivers in well under a second; one that does not never does. */
  private static final long DEADLINE_SECONDS = 60;

  private Consumers() {
  }

  /** Fresh users follow and post through {@code gateways}; fails unless both consumers deliver within the deadline. */
  static void assertWork(Api api, List<KithNode> gateways) throws InterruptedException {
    Load calls = new Load();
    Api.User author = api.register(gateways.get(0));
    Api.User follower = api.register(gateways.get(1 % gateways.size()));
    calls.acknowledged(gateways, 0, node -> api.put(node, "/following/" + author.id(), follower));
    // a home timeline nobody reads is not fanned out to: read it once
    calls.acknowledged(gateways, 0, node -> api.get(node, "/timelines/home", follower));
    long post = calls.acknowledged(gateways, 0, node -> api.post(node, "/posts", author,
        new JsonObject().put("text", "after the fault").put("visibility", "public"))).json().getLong("id");

    await(api, gateways, author, "/notifications?limit=50", "a follower notification from " + follower.id(),
        n -> "follower".equals(n.getString("type")) && n.getLong("from_user", 0L) == follower.id());
    await(api, gateways, follower, "/timelines/home?limit=50", "post " + post + " fanned out to the follower",
        p -> p.getLong("id") == post);
    calls.assertRefusalsAllowed();
  }

  private static void await(Api api, List<KithNode> gateways, Api.User as, String path, String what,
                            Predicate<JsonObject> item) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
    for (int i = 0; ; i++) {
      Api.Reply reply = api.get(gateways.get(i % gateways.size()), path, as);
      if (reply.status() == 200 && reply.json().getJsonArray("items").stream()
          .anyMatch(o -> item.test((JsonObject) o))) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new AssertionError("never saw " + what + " within " + DEADLINE_SECONDS + " s; last answer " + reply);
      }
      Thread.sleep(250);
    }
  }
}
