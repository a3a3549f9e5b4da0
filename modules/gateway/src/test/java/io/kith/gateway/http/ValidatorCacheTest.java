package io.kith.gateway.http;

import io.kith.gateway.GatewayVerticle;
import io.kith.platform.testkit.Await;
import io.vertx.core.Vertx;
import io.vertx.json.schema.Validator;
import io.vertx.junit5.VertxExtension;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Parameter;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(VertxExtension.class)
class ValidatorCacheTest {

  @Test
  @DisplayName("a parameter's schema gets one validator, reused for every request, that still refuses bad values")
  void oneValidatorPerSchema(Vertx vertx) {
    OpenAPIContract parsed = Await.result(GatewayVerticle.loadContract(vertx)).contract();
    OpenAPIContract contract = ValidatorCache.wrap(parsed);
    Parameter limit = contract.operation("getHomeTimeline").getParameters().stream()
        .filter(p -> p.getName().equals("limit")).findFirst().orElseThrow();
    Parameter other = contract.operation("getMomentsTimeline").getParameters().stream()
        .filter(p -> p.getName().equals("since_id")).findFirst().orElseThrow();

    Validator first = contract.getSchemaRepository().validator(limit.getSchema());
    assertSame(first, contract.getSchemaRepository().validator(limit.getSchema()));
    assertNotSame(first, contract.getSchemaRepository().validator(other.getSchema()));
    assertNotSame(parsed.getSchemaRepository().validator(limit.getSchema()),
        parsed.getSchemaRepository().validator(limit.getSchema()), "the library builds one per call");

    assertTrue(first.validate(20).getValid());
    assertFalse(first.validate(0).getValid());
    assertFalse(first.validate(101).getValid());
    assertTrue(first.validate(1).getValid());
    assertEquals(parsed.operations().size(), contract.operations().size());
    assertSame(parsed.findOperation("/api/v1/timelines/home", io.vertx.core.http.HttpMethod.GET),
        contract.findOperation("/api/v1/timelines/home", io.vertx.core.http.HttpMethod.GET));
  }
}
