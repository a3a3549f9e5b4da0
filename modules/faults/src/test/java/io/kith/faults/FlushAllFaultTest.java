package io.kith.faults;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

/** FLUSHALL of the shared Redis while the cluster runs. */
class FlushAllFaultTest extends FaultTestBase {

  @Test
  @DisplayName("after FLUSHALL every event consumer works again without a node restart: a new follow reaches "
      + "notifications and a new post a follower's home timeline")
  void consumersWorkAfterFlushAll() throws Exception {
    start("flushall", Map.of());
    Consumers.assertWork(cluster.api, cluster.nodes());
    cluster.flushRedis();
    // the users of the first check were logged out: sessions live only in Redis; the check registers new ones
    Consumers.assertWork(cluster.api, cluster.nodes());
  }
}
