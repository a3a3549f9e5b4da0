package io.kith.app.clients;

import io.kith.app.support.TestNode;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.json.JsonObject;

/**
 * One whole Kith node (every domain module and the gateway, real wiring, in-process on the test kit's stores) for
 * the flow tests of the clients generated from the OpenAPI document: the TypeScript client's here, the Java
 * client's in {@code modules/clients/java} (through this module's test-jar). Those tests talk to it only through
 * the generated client, over its {@link #port()}.
 */
public final class ClientsKith extends TestNode {

  private ClientsKith(JsonObject overrides) {
    super(overrides, "127.0.0.1", new PoolOptions());
  }

  /** Starts a node running accounts, relations, feeds, messaging, notifications, activities and the gateway. */
  public static ClientsKith start() {
    return new ClientsKith(config("accounts", "relations", "feeds", "messaging", "notifications", "activities",
        "gateway"));
  }

  /** The base URL a client is given ({@code http://127.0.0.1:<port>}). */
  public String baseUrl() {
    return "http://127.0.0.1:" + port();
  }
}
