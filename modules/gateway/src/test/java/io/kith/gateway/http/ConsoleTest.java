package io.kith.gateway.http;

import io.kith.gateway.support.TestGateway;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.kith.gateway.support.TestGateway.API;
import static io.kith.gateway.support.TestGateway.assertProblem;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith({VertxExtension.class, KithTestKit.class})
@DisplayName("The Kith Console at /console")
class ConsoleTest {

  private static final Pattern SCRIPT = Pattern.compile("<script([^>]*)>(.*?)</script>", Pattern.DOTALL);
  private TestGateway gateway;

  @AfterEach
  void tearDown() {
    if (gateway != null) {
      gateway.close();
    }
  }

  private void assertServed(HttpResponse<Buffer> response, String path, String type) {
    assertEquals(200, response.statusCode(), path + ": " + response.bodyAsString());
    String actual = response.getHeader("Content-Type");
    assertTrue(actual != null && actual.startsWith(type), path + " is " + actual);
    assertTrue(response.body().length() > 0, path);
  }

  @Test
  @DisplayName("/console serves the page without a token, under a same-origin CSP that allows only the import map "
      + "inline, with nosniff and no framing")
  void page(Vertx vertx) throws Exception {
    gateway = TestGateway.start(vertx);

    for (String path : new String[] {"/console", "/console/"}) {
      HttpResponse<Buffer> page = gateway.get(path, null);
      assertServed(page, path, "text/html");
      String html = page.bodyAsString();
      assertTrue(html.contains("<kith-console>"), html);
      String csp = page.getHeader("Content-Security-Policy");
      assertTrue(csp != null && csp.startsWith("default-src 'none'; script-src 'self' 'sha256-")
          && csp.contains("frame-ancestors 'none'") && csp.contains("connect-src 'self'") && !csp.contains("unsafe"),
          String.valueOf(csp));
      assertEquals("nosniff", page.getHeader("X-Content-Type-Options"));
      assertEquals("DENY", page.getHeader("X-Frame-Options"));
      // every inline script is the import map, allowed by its hash; the others are same-origin files
      Matcher script = SCRIPT.matcher(html);
      int maps = 0;
      while (script.find()) {
        if (script.group(2).isBlank()) {
          assertTrue(script.group(1).contains("src=\"/console/"), script.group(1));
        } else {
          assertTrue(script.group(1).contains("type=\"importmap\""), "inline script: " + script.group());
          assertTrue(csp.contains("'sha256-" + sha256(script.group(2)) + "'"), csp);
          maps++;
        }
      }
      assertEquals(1, maps, html);
    }
  }

  @Test
  @DisplayName("the console's own scripts and its libraries from WebJars are served with a JavaScript content type "
      + "and the console's CSP")
  void files(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    for (String path : new String[] {"/console/app.js", "/console/routes.js", "/console/lib/lit/index.js",
        "/console/lib/lit-html/lit-html.js", "/console/lib/lit__reactive-element/reactive-element.js",
        "/console/lib/sockjs-client/dist/sockjs.min.js", "/console/lib/uplot/dist/uPlot.esm.js"}) {
      HttpResponse<Buffer> file = gateway.get(path, null);
      assertServed(file, path, "text/javascript");
      assertTrue(file.getHeader("Content-Security-Policy").contains("frame-ancestors 'none'"), path);
      assertEquals("nosniff", file.getHeader("X-Content-Type-Options"), path);
    }
    assertServed(gateway.get("/console/console.css", null), "/console/console.css", "text/css");
  }

  @Test
  @DisplayName("/ redirects to the console; a missing console file, a path climbing out of it and a POST are "
      + "problem+json, and the API's own 404 still applies under /api")
  void refusals(Vertx vertx) {
    gateway = TestGateway.start(vertx);

    HttpResponse<Buffer> root = gateway.get("/", null);
    assertEquals(302, root.statusCode());
    assertEquals("/console/", root.getHeader("Location"));
    assertProblem(gateway.get("/console/no-such-view.js", null), 404, "not_found");
    assertProblem(gateway.get("/console/lib/lit/no-such-file.js", null), 404, "not_found");
    assertProblem(gateway.get("/console/lib/lit/..%2f..%2f..%2f..%2fmaven/org.webjars.npm/lit/pom.properties", null),
        404, "not_found");
    assertProblem(gateway.get("/console/lib/no-such-lib/index.js", null), 404, "not_found");
    HttpResponse<Buffer> post = gateway.call(HttpMethod.POST, "/console/app.js", null);
    assertTrue(post.statusCode() == 404 || post.statusCode() == 405, post.bodyAsString());
    assertTrue(post.getHeader("Content-Type").startsWith("application/problem+json"), post.getHeader("Content-Type"));
    assertProblem(gateway.get(API + "/no-such-operation", null), 404, "not_found");
  }

  @Test
  @DisplayName("with console.enabled false nothing is served: /console, its files and / are 404 problem+json")
  void disabled(Vertx vertx) {
    gateway = TestGateway.start(vertx, new JsonObject().put("console", new JsonObject().put("enabled", false)));

    assertProblem(gateway.get("/console", null), 404, "not_found");
    assertProblem(gateway.get("/console/app.js", null), 404, "not_found");
    assertProblem(gateway.get("/console/lib/lit/index.js", null), 404, "not_found");
    assertProblem(gateway.get("/", null), 404, "not_found");
  }

  @Test
  @DisplayName("every file the page and its import map name is served")
  void noDanglingReference(Vertx vertx) {
    gateway = TestGateway.start(vertx);
    String html = gateway.get("/console/", null).bodyAsString();
    Matcher ref = Pattern.compile("\"(/console/[^\"]+[^/])\"").matcher(html);
    int count = 0;
    while (ref.find()) {
      assertEquals(200, gateway.get(ref.group(1), null).statusCode(), ref.group(1));
      count++;
    }
    assertTrue(count >= 7, html);
    assertFalse(html.contains("http://") || html.contains("https://"), "every reference is same-origin");
  }

  private static String sha256(String text) throws Exception {
    return Base64.getEncoder().encodeToString(
        MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
  }
}
