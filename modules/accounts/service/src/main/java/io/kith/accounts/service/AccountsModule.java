package io.kith.accounts.service;

import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.vertx.core.Future;

/** The accounts module ({@code kith.modules} name {@code accounts}). */
public final class AccountsModule implements KithModule {

  @Override
  public String name() {
    return "accounts";
  }

  @Override
  public int order() {
    return 10;
  }

  @Override
  public Future<String> deploy(Platform platform) {
    return platform.vertx().deployVerticle(new AccountsVerticle(platform));
  }
}
