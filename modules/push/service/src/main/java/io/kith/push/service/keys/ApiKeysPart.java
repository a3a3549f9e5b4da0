package io.kith.push.service.keys;

import io.kith.platform.Platform;
import io.kith.platform.bus.ServiceBindings;
import io.kith.push.api.ApiKeysService;
import io.vertx.core.Future;

/**
 * The API keys part of the push module: the key store, {@link ApiKeysService} bound on its address, and the operator
 * check the other admin parts (webhooks) use.
 */
public final class ApiKeysPart {

  private final ServiceBindings bindings;
  private final OperatorCheck operator;
  private final ApiKeyStore store;
  private final ApiKeysServiceImpl service;

  /** The part on a node's platform. */
  public ApiKeysPart(Platform platform) {
    this.operator = new OperatorCheck(platform.vertx());
    this.store = new ApiKeyStore(platform.mongo());
    this.service = new ApiKeysServiceImpl(store, platform.ids(), operator);
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
