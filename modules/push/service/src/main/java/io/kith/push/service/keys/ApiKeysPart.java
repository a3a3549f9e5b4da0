package io.kith.push.service.keys;

import io.kith.platform.Platform;
import io.kith.platform.bus.ServiceBindings;
import io.kith.platform.config.Bounds;
import io.kith.push.api.ApiKeysService;
import io.vertx.core.Future;

import java.util.Locale;

/**
 * The API keys part of the push module: the key store, {@link ApiKeysService} bound on its address, and the operator
 * check the other admin parts (webhooks) use.
 */
public final class ApiKeysPart {

  /** Config key ({@code push} section): SHA-256 (hex) of the operator's admin token; empty: no operator. */
  public static final String ADMIN_TOKEN_HASH = "admin-token-hash";

  private final Platform platform;
  private final ServiceBindings bindings;
  private final OperatorCheck operator;
  private final ApiKeyStore store;
  private final ApiKeysServiceImpl service;

  /** The part on a node's platform; reads {@code push.admin-token-hash} (refused unless 64 hex digits or empty). */
  public ApiKeysPart(Platform platform) {
    this.platform = platform;
    String hash = Bounds.of("push", platform.config().section("push")).text(ADMIN_TOKEN_HASH).trim()
        .toLowerCase(Locale.ROOT);
    if (!hash.isEmpty() && !hash.matches("[0-9a-f]{64}")) {
      throw new IllegalArgumentException("push.admin-token-hash must be 64 hex digits (a SHA-256) or empty");
    }
    this.store = new ApiKeyStore(platform.mongo());
    this.service = new ApiKeysServiceImpl(store, platform.ids());
    this.operator = service.operator(hash);
    this.bindings = new ServiceBindings(platform.vertx());
  }

  /** Who may administer (see {@link OperatorCheck}). */
  public OperatorCheck operator() {
    return operator;
  }

  /** Declares the indexes and binds the service. */
  public Future<Void> start() {
    return store.ensureIndexes().compose(v -> bindings.bind(ApiKeysService.class, service, ApiKeysService.ADDRESS));
  }

  /** Unbinds the service. */
  public Future<Void> stop() {
    return bindings.unregister();
  }
}
