package io.kith.gateway.http;

import io.kith.gateway.support.TestGateway;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.kith.gateway.support.TestGateway.API;
import static io.kith.gateway.support.TestGateway.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("The API reference page and the AsyncAPI document")
class ApiDocsTest {

  private static final Pattern ASSET = Pattern.compile("(?:src|href)=\"([^\"]+)\"");
  private TestGateway gateway;

  @AfterEach
  void tearDown() {
    if (gateway != null) {
      gateway.close();
    }
  }

  /** The response to an anonymous GET of {@code path}, asserted 200 with a content type starting {@code type}. */
  private HttpResponse<Buffer> served(String path, String type) {
    HttpResponse<Buffer> response = gateway.get(path, null);
    assertEquals(200, response.statusCode(), path + ": " + response.bodyAsString());
    String actual = response.getHeader("Content-Type");
    assertTrue(actual != null && actual.startsWith(type), path + " is " + actual);
    return response;
  }

  @Test
  @DisplayName("/api/v1/docs answers HTML without a token, under a CSP that allows only same-origin scripts")
  void page(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    HttpResponse<Buffer> page = served(API + "/docs", "text/html");

    String csp = page.getHeader("Content-Security-Policy");
    assertTrue(csp != null && csp.contains("default-src 'none'") && csp.contains("script-src 'self';")
        && csp.contains("style-src 'self';") && csp.contains("frame-ancestors 'none'") && !csp.contains("unsafe"),
        String.valueOf(csp));
    assertEquals("nosniff", page.getHeader("X-Content-Type-Options"));
    assertTrue(!page.bodyAsString().contains("<script>") && !page.bodyAsString().matches("(?s).*<script[^>]*>[^<]+"
        + "</script>.*"), "no inline script: the CSP would refuse it");
  }

  @Test
  @DisplayName("every asset the page references is same-origin and answers 200 with its content type")
  void assets(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    String html = gateway.get(API + "/docs", null).bodyAsString();

    List<String> assets = new ArrayList<>();
    Matcher m = ASSET.matcher(html);
    while (m.find()) {
      assets.add(m.group(1));
    }

    assertTrue(assets.size() >= 3, assets.toString());
    for (String asset : assets) {
      assertTrue(asset.startsWith("/") && !asset.startsWith("//"), "not same-origin: " + asset);
      String expected = asset.endsWith(".css") ? "text/css" : asset.endsWith(".js") ? "text/javascript"
          : asset.endsWith(".png") ? "image/png" : "?";
      assertTrue(served(asset, expected).body().length() > 0, asset);
    }
    // the page's script starts Swagger UI on the served contract
    String init = gateway.get(API + "/docs/init.js", null).bodyAsString();
    assertTrue(init.contains("'/api/v1/openapi.yaml'"), init);
    assertEquals(200, gateway.get(API + "/openapi.yaml", null).statusCode());
  }

  @Test
  @DisplayName("an asset that is not in the WebJar, or a path climbing out of it, is 404 problem+json")
  void missingAsset(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    assertProblem(gateway.get(ApiDocs.ASSETS + "no-such-file.js", null), 404, "not_found");
    assertProblem(gateway.get(ApiDocs.ASSETS + "..%2f..%2f..%2fmaven/org.webjars/swagger-ui/pom.properties", null),
        404, "not_found");
  }

  @Test
  @DisplayName("the AsyncAPI document is served at /api/v1/asyncapi.yaml without a token, as YAML")
  void asyncApi(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    HttpResponse<Buffer> response = served(API + "/asyncapi.yaml", "application/yaml");

    assertTrue(response.bodyAsString().startsWith("asyncapi: 3.0.0"), response.bodyAsString());
    assertTrue(response.bodyAsString().contains("address: kith.user.{userId}"));
  }

  @Test
  @DisplayName("the documents are read-only: a POST to the page is 405 or 404 problem+json, never served")
  void readOnly(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    HttpResponse<Buffer> response = gateway.call(HttpMethod.POST, API + "/docs", null);

    assertTrue(response.statusCode() == 404 || response.statusCode() == 405, response.bodyAsString());
    assertTrue(response.getHeader("Content-Type").startsWith("application/problem+json"),
        response.getHeader("Content-Type"));
  }
}
