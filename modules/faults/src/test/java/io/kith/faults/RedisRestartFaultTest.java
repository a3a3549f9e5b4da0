package io.kith.faults;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A restart of redis-server (SIGTERM, then a start on the same port and append-only file) under mixed load. */
class RedisRestartFaultTest extends FaultTestBase {

  @Test
  @DisplayName("a Redis restart under load: calls are refused with 503 meanwhile, no acknowledged message, post, "
      + "follow or like is lost or stored twice, the load goes on afterwards and every event consumer works again "
      + "without a node restart")
  void redisRestart() throws Exception {
    MixedLoad work = loadAcrossRestart("redis-restart");
    work.assertNothingLost(cluster.nodes(), false);
    Consumers.assertWork(cluster.api, cluster.nodes());
  }

  @Test
  @DisplayName("a Redis restart under load: every acknowledged activity join is still in the joiner's list")
  void joinsAcrossRedisRestart() throws Exception {
    loadAcrossRestart("redis-restart-joins").assertNothingLost(cluster.nodes());
  }

  // The mixed load through every gateway, Redis restarted once it is under way, then 60 more acknowledgements.
  private MixedLoad loadAcrossRestart(String name) throws Exception {
    start(name, MixedLoad.LIMITS);
    Load load = new Load();
    MixedLoad work = new MixedLoad(cluster.api, load, cluster.nodes()).setUp();
    work.start();
    while (work.acknowledged() < 60) {
      Thread.sleep(20);
    }
    cluster.restartRedis();
    int atRestart = work.acknowledged();
    // the load is acknowledged again afterwards (each operation has its deadline, Load.ACK_DEADLINE)
    while (work.acknowledged() < atRestart + 60) {
      Thread.sleep(20);
    }
    work.stop();
    load.assertRefusalsAllowed();
    return work;
  }
}
