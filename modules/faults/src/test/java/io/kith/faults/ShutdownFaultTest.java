package io.kith.faults;

import io.kith.bench.cluster.KithNode;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** SIGTERM of every node at once, under mixed load, then a fresh start. */
class ShutdownFaultTest extends FaultTestBase {

  @Test
  @DisplayName("SIGTERM of all nodes under load: each stops by itself, and after a restart every acknowledged "
      + "message, post, follow, like and join is there, once")
  void sigtermAll() throws Exception {
    start("shutdown", MixedLoad.LIMITS);
    Load load = new Load();
    MixedLoad work = new MixedLoad(cluster.api, load, cluster.nodes()).setUp();
    work.start();
    while (work.acknowledged() < 100) {
      Thread.sleep(20);
    }
    cluster.nodes().forEach(load::faulted);
    List<CompletableFuture<Boolean>> stopping = new ArrayList<>();
    for (KithNode node : cluster.nodes()) {
      stopping.add(CompletableFuture.supplyAsync(() -> {
        try {
          return node.terminate(Duration.ofSeconds(120));
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
      }));
    }
    List<Boolean> exited = stopping.stream().map(CompletableFuture::join).toList();
    work.stop();
    assertEquals(List.of(true, true, true), exited, "every node exits by itself after SIGTERM");
    load.assertRefusalsAllowed();

    cluster.restartNodes();
    work.assertNothingLost(cluster.nodes());
  }
}
