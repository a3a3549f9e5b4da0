package io.kith.platform.testkit.probe;

import io.vertx.codegen.annotations.ProxyGen;
import io.vertx.codegen.annotations.VertxGen;
import io.vertx.core.Future;

/** A service a test binds on as many nodes as it likes, to see which instance answers a call. */
@ProxyGen
@VertxGen
public interface ProbeService {

  /** Answers with the name of the instance that served the call. */
  Future<String> where();

  /** Fails with {@code not_found} (404) naming {@code what}, as a domain's refusal does. */
  Future<String> refuse(String what);

  /** Never answers: the caller's send timeout decides. */
  Future<String> stall();
}
