package io.kith.app.push;

import io.kith.platform.testkit.KithTestKit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/** The node and the webhook receiver of one push test class, started before its tests and closed after them. */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class HooksTest {

  protected HooksKith kith;
  protected Receiver receiver;

  /** How long the class's node retries a failing webhook delivery, in hours. */
  protected double retryHours() {
    return 1.0;
  }

  @BeforeAll
  void startNode() {
    kith = HooksKith.start(retryHours());
    receiver = new Receiver(kith.client());
  }

  @AfterAll
  void stopNode() {
    try {
      if (receiver != null) {
        receiver.close();
      }
    } finally {
      if (kith != null) {
        kith.close();
      }
    }
  }
}
