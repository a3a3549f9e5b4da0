package io.kith.gateway.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;

import java.io.IOException;
import java.io.StringReader;
import java.util.Properties;

/**
 * The published contracts and the API reference, all public: {@code GET /api/v1/openapi.yaml} (HTTP),
 * {@code GET /api/v1/asyncapi.yaml} (the event-bus bridge) and {@code GET /api/v1/docs}, a Swagger UI page over the
 * OpenAPI document. Swagger UI comes from its WebJar on the class path, so nothing is fetched from elsewhere at run
 * time and no Node is needed.
 *
 * @param asyncapi         the AsyncAPI document's text
 * @param page             the reference page
 * @param init             the page's script, which starts Swagger UI
 * @param swaggerUiVersion the version of the Swagger UI WebJar on the class path (its folder)
 */
public record ApiDocs(Buffer asyncapi, Buffer page, Buffer init, String swaggerUiVersion) {

  /** Path of the API reference page. */
  public static final String DOCS = "/api/v1/docs";
  /** Path prefix of the page's Swagger UI assets (the WebJar's files). */
  public static final String ASSETS = DOCS + "/assets/";
  /** Classpath location of the AsyncAPI document of the bridges. */
  public static final String ASYNCAPI = "asyncapi.yaml";
  /**
   * The page's Content-Security-Policy: scripts, styles, images and fetches from this origin only, nothing inline, no
   * framing. {@code data:} images because Swagger UI's stylesheet draws its icons as data URIs (checked in Chromium:
   * the page renders, expands operations and runs "Try it out" with no violation under this policy).
   */
  static final String CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
      + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
  private static final String WEBJAR = "META-INF/resources/webjars/swagger-ui/";
  private static final String WEBJAR_POM = "META-INF/maven/org.webjars/swagger-ui/pom.properties";
  private static final String YAML = "application/yaml; charset=utf-8";

  /** Reads the AsyncAPI document, the page and the version of the Swagger UI WebJar from the class path. */
  public static Future<ApiDocs> load(Vertx vertx) {
    Future<Buffer> asyncapi = vertx.fileSystem().readFile(ASYNCAPI);
    Future<Buffer> page = vertx.fileSystem().readFile("api-docs/index.html");
    Future<Buffer> init = vertx.fileSystem().readFile("api-docs/init.js");
    Future<Buffer> pom = vertx.fileSystem().readFile(WEBJAR_POM);
    return Future.all(asyncapi, page, init, pom).map(all ->
        new ApiDocs(asyncapi.result(), page.result(), init.result(), version(pom.result())));
  }

  /** The version a WebJar's {@code pom.properties} names (also its folder under META-INF/resources/webjars). */
  static String version(Buffer pomProperties) {
    Properties properties = new Properties();
    try {
      properties.load(new StringReader(pomProperties.toString()));
    } catch (IOException e) {
      throw new IllegalStateException("cannot read a WebJar's pom.properties", e);
    }
    return properties.getProperty("version");
  }

  /** Mounts the three documents and the page's assets on {@code router}; {@code openapi} is the contract's text. */
  public void mount(Router router, Buffer openapi) {
    router.get("/api/v1/openapi.yaml").handler(rc -> rc.response().putHeader("Content-Type", YAML).end(openapi));
    router.get("/api/v1/asyncapi.yaml").handler(rc -> rc.response().putHeader("Content-Type", YAML).end(asyncapi));
    router.get(DOCS).handler(rc -> strict(rc).putHeader("Content-Type", "text/html; charset=utf-8").end(page));
    router.get(DOCS + "/init.js").handler(rc -> strict(rc)
        .putHeader("Content-Type", "text/javascript; charset=utf-8").end(init));
    StaticHandler assets = StaticHandler.create(WEBJAR + swaggerUiVersion)
        .setDirectoryListing(false)
        .setIncludeHidden(false)
        // the WebJar's files change only with its version, which is in no URL here: a day, then revalidate
        .setMaxAgeSeconds(86_400);
    router.get(ASSETS + "*").handler(rc -> {
      strict(rc);
      assets.handle(rc);
    });
  }

  private static HttpServerResponse strict(RoutingContext rc) {
    return rc.response().putHeader("Content-Security-Policy", CSP);
  }
}
