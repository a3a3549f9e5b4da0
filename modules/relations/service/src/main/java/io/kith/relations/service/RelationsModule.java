package io.kith.relations.service;

import io.kith.platform.KithModule;
import io.kith.platform.Platform;
import io.vertx.core.Future;

/** The relations module ({@code kith.modules} name {@code relations}). */
public final class RelationsModule implements KithModule {

  @Override
  public String name() {
    return "relations";
  }

  @Override
  public int order() {
    return 20;
  }

  @Override
  public Future<String> deploy(Platform platform) {
    return platform.vertx().deployVerticle(new RelationsVerticle(platform));
  }
}
