package io.kith.platform.testkit;

import io.kith.platform.Platform;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A test class with a platform of its own on the shared embedded stores, for tests of one store-backed part (a cache,
 * a script) without deploying a module: {@link #vertx} and {@link #platform} live for the class.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class PlatformTestBase {

  protected Vertx vertx;
  protected Platform platform;

  @BeforeAll
  void startPlatform() {
    vertx = Vertx.vertx();
    platform = Await.result(KithTestKit.platform(vertx));
  }

  @AfterAll
  void stopPlatform() {
    if (platform != null) {
      Await.result(platform.close());
    }
    if (vertx != null) {
      Await.result(vertx.close());
    }
  }

  /** The result of {@code future}, as {@link Await#result}. */
  protected static <T> T await(Future<T> future) {
    return Await.result(future);
  }
}
