package io.kith.platform.testkit;

import io.kith.platform.Platform;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A service test class with a platform of its own on the shared test stores and modules deployed on it, for the
 * class: {@link #vertx} and {@link #platform} live from {@link #startPlatform} (called in the class's
 * {@code @BeforeAll}) until after the class's own {@code @AfterAll} methods.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class ModuleTestBase extends ServiceTestBase {

  protected Vertx vertx;
  protected Platform platform;

  /** Starts the class's Vert.x and a platform on the test stores with {@code overrides}; deploy modules on it next. */
  protected void startPlatform(JsonObject overrides) throws Exception {
    vertx = Vertx.vertx();
    platform = await(KithTestKit.platform(vertx, overrides));
  }

  @AfterAll
  void stopPlatform() throws Exception {
    if (platform != null) {
      await(platform.close());
    }
    if (vertx != null) {
      await(vertx.close());
    }
  }
}
