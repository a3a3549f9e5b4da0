package io.kith.platform.testkit;

import io.kith.platform.Platform;
import io.kith.platform.bus.ServiceBindings;
import io.kith.platform.bus.ServiceProxies;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.UUID;

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

  /**
   * Binds {@code service} (one the test built, such as over stores that fail on cue) at an address of its own, from a
   * verticle so that it runs on one event loop as a module's does; answers a proxy to it, called as any node would.
   */
  protected <T> T bindAside(Class<T> type, T service) throws Exception {
    String address = "test.aside." + type.getSimpleName() + "." + UUID.randomUUID();
    await(vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        return new ServiceBindings(vertx).bind(type, service, address);
      }
    }));
    return ServiceProxies.proxy(vertx, type, address);
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
