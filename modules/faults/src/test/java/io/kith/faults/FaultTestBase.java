package io.kith.faults;

import org.junit.jupiter.api.AfterEach;

import java.util.Map;

/** A scenario's cluster: started by the test ({@link #start}), stopped after it whatever happened. */
abstract class FaultTestBase {

  /** The scenario's cluster, once started. */
  protected FaultCluster cluster;

  /** Starts the cluster for scenario {@code name} (its files under target/faults/name) with these KITH_ overrides. */
  protected FaultCluster start(String name, Map<String, String> overrides) throws Exception {
    cluster = FaultCluster.start(name, overrides);
    return cluster;
  }

  @AfterEach
  void stopCluster() {
    if (cluster != null) {
      cluster.close();
    }
  }
}
