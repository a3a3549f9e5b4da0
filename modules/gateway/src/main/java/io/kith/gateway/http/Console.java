package io.kith.gateway.http;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.StaticHandler;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Kith Console: a browser application at {@code /console} that uses only the public HTTP API and the SockJS
 * bridge. Its files are static, from the class path ({@code console/}); its libraries are WebJars served at
 * {@code /console/lib/<webjar>/...} without their version in the URL, so the page's import map does not change when a
 * library is upgraded. Nothing is built or fetched from elsewhere at run time. With {@code console.enabled} off
 * nothing is mounted (404 problem+json, like any unknown path).
 *
 * @param page   the page ({@code console/index.html})
 * @param csp    the Content-Security-Policy of every console response
 * @param webjar each library's URL name and its class-path folder (the WebJar's versioned folder)
 */
public record Console(Buffer page, String csp, Map<String, String> webjar) {

  /** Configuration section. */
  public static final String SECTION = "console";
  /** Config key ({@code console} section): whether the gateway serves the console. */
  public static final String ENABLED = "enabled";
  /** Path of the console. */
  public static final String PATH = "/console";
  /** Path prefix of the libraries. */
  public static final String LIB = PATH + "/lib/";
  /** The WebJars the console may load: their artifact ids, which are also their folder and URL names. */
  static final List<String> LIBRARIES = List.of("lit", "lit-html", "lit-element", "lit__reactive-element",
      "sockjs-client", "uplot");
  // an import map is an inline script: the policy allows exactly this one by its hash, and no other inline script
  private static final Pattern IMPORT_MAP = Pattern.compile("<script type=\"importmap\">(.*?)</script>",
      Pattern.DOTALL);
  private static final String ROOT = "console";

  /** Reads the page and the versions of the WebJars from the class path. */
  public static Future<Console> load(Vertx vertx) {
    Future<Buffer> page = vertx.fileSystem().readFile(ROOT + "/index.html");
    List<Future<Buffer>> poms = new ArrayList<>();
    for (String name : LIBRARIES) {
      poms.add(vertx.fileSystem().readFile("META-INF/maven/org.webjars.npm/" + name + "/pom.properties"));
    }
    List<Future<Buffer>> all = new ArrayList<>(poms);
    all.add(page);
    return Future.all(all).map(done -> {
      Map<String, String> webjars = new LinkedHashMap<>();
      for (int i = 0; i < LIBRARIES.size(); i++) {
        String name = LIBRARIES.get(i);
        webjars.put(name, "META-INF/resources/webjars/" + name + "/" + ApiDocs.version(poms.get(i).result()));
      }
      return new Console(page.result(), policy(page.result().toString()), webjars);
    });
  }

  /**
   * The policy: scripts, styles, fetches and the bridge from this origin only, the import map by its hash, no other
   * inline script, no framing. Images and videos may be {@code blob:} because the console reads media with its
   * bearer token and shows what it fetched; {@code data:} images for small icons in the stylesheet.
   */
  static String policy(String html) {
    Matcher map = IMPORT_MAP.matcher(html);
    String hashes = "";
    while (map.find()) {
      hashes += " 'sha256-" + sha256(map.group(1)) + "'";
    }
    return "default-src 'none'; script-src 'self'" + hashes + "; style-src 'self'; img-src 'self' data: blob:; "
        + "media-src 'self' blob:; connect-src 'self'; font-src 'self'; manifest-src 'self'; base-uri 'none'; "
        + "form-action 'none'; frame-ancestors 'none'";
  }

  private static String sha256(String text) {
    try {
      return Base64.getEncoder().encodeToString(
          MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /** Whether {@code config} (the {@code console} section) turns the console on; on when the key is absent. */
  public static boolean enabled(JsonObject config) {
    return config.getBoolean(ENABLED, true);
  }

  /** Mounts the console on {@code router} and makes {@code GET /} redirect to it. */
  public void mount(Router router) {
    router.get("/").handler(rc -> rc.redirect(PATH + "/"));
    router.get(PATH).handler(rc -> page(rc));
    router.get(PATH + "/").handler(rc -> page(rc));
    for (Map.Entry<String, String> lib : webjar.entrySet()) {
      StaticHandler files = StaticHandler.create(lib.getValue())
          .setDirectoryListing(false)
          .setIncludeHidden(false)
          // a WebJar's files change only with its version, which is in no URL here: a day, then revalidate
          .setMaxAgeSeconds(86_400);
      router.get(LIB + lib.getKey() + "/*").handler(rc -> files.handle(strict(rc)));
    }
    StaticHandler own = StaticHandler.create(ROOT)
        .setDirectoryListing(false)
        .setIncludeHidden(false)
        // the console's own files change with every Kith build: revalidated on each load (ETag / Last-Modified)
        .setMaxAgeSeconds(0);
    router.get(PATH + "/*").handler(rc -> own.handle(strict(rc)));
  }

  private void page(RoutingContext rc) {
    strict(rc).response().putHeader("Content-Type", "text/html; charset=utf-8")
        .putHeader("Cache-Control", "no-cache").end(page);
  }

  private RoutingContext strict(RoutingContext rc) {
    rc.response().putHeader("Content-Security-Policy", csp);
    return rc;
  }
}
