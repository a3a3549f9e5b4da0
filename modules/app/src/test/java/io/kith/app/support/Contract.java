package io.kith.app.support;

import io.kith.gateway.GatewayVerticle;
import io.kith.platform.testkit.Await;
import io.vertx.core.Vertx;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;

import java.util.List;

/** The OpenAPI contract the gateway serves, read from the class path as the gateway reads it. */
public final class Contract {

  private Contract() {
  }

  /** The contract's operations tagged {@code tag} (a domain: "feeds", "messaging", ...). */
  public static List<Operation> operations(String tag) {
    Vertx vertx = Vertx.vertx();
    try {
      OpenAPIContract contract = Await.result(GatewayVerticle.loadContract(vertx)).contract();
      return contract.operations().stream().filter(op -> op.getTags().contains(tag)).toList();
    } finally {
      Await.result(vertx.close());
    }
  }
}
