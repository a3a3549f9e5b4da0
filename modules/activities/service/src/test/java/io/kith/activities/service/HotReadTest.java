package io.kith.activities.service;

import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Objects;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A nearby search reads up to 1,000 candidates from Redis. In one batch (6 commands each) the Redis client refused
 * the read at its default waiting-handler limit (4,096), and every candidate then fell back to MongoDB: the read must
 * go in chunks.
 */
@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("Activities in Redis: a read of 1,000 activities at the client's default limits")
class HotReadTest {

  @Test
  @DisplayName("1,000 activities read in one call answer one entry each (null where Redis holds none)")
  void thousandCandidates(Vertx vertx) {
    Platform platform = Await.result(KithTestKit.platform(vertx));
    try {
      HotActivities hot = new HotActivities(platform.redis(), 30L * 24 * 3_600_000);
      long base = platform.ids().next();
      List<Long> ids = LongStream.range(0, 1_000).map(i -> base + i).boxed().toList();
      List<HotActivities.Hot> read = Await.result(hot.read(ids, 42));
      assertEquals(1_000, read.size());
      assertTrue(read.stream().allMatch(Objects::isNull), "none of these activities is in Redis");
    } finally {
      Await.result(platform.close());
    }
  }
}
