package io.kith.gateway.support;

import io.kith.accounts.api.AccountsService;
import io.kith.gateway.GatewayVerticle;
import io.kith.gateway.bridge.RoomAccess;
import io.kith.gateway.http.ApiRoutes;
import io.kith.gateway.http.AuthRoutes;
import io.kith.gateway.http.SystemRoutes;
import io.kith.platform.Platform;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.token.TokenPair;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * One gateway for one test: a platform on the test kit's stores, the gateway verticle deployed on the test's Vert.x
 * (ephemeral HTTP port), and an HTTP client pointed at it. Close it at the end of the test.
 */
public final class TestGateway implements AutoCloseable {

  /** The API base path. */
  public static final String API = "/api/v1";
  private static final Pattern INTERNALS = Pattern.compile(
      "Exception|Error:|\\bat [a-z]+\\.[a-z]|io\\.vertx|io\\.kith|java\\.|javax\\.|netty|\\.java:");

  private final Vertx vertx;
  private final Platform platform;
  private final int port;
  private final WebClient http;

  private TestGateway(Vertx vertx, Platform platform, int port) {
    this.vertx = vertx;
    this.platform = platform;
    this.port = port;
    this.http = WebClient.create(vertx, new WebClientOptions().setDefaultHost("localhost").setDefaultPort(port)
        .setFollowRedirects(false));
  }

  /** Starts a platform with {@code overrides} and deploys one gateway verticle with the system and auth routes. */
  public static TestGateway start(Vertx vertx, JsonObject overrides) {
    return start(vertx, overrides, platform -> { });
  }

  /** Like {@link #start(Vertx, JsonObject)}, letting {@code prepare} adjust the platform before the gateway starts. */
  public static TestGateway start(Vertx vertx, JsonObject overrides, Consumer<Platform> prepare) {
    return start(vertx, overrides, prepare,
        platform -> List.of(new SystemRoutes(), authRoutes(platform)));
  }

  /**
   * The auth routes over the platform's sessions, without an accounts module: logging out everywhere ends the
   * sessions (there are no device tokens to forget); any other accounts call fails.
   */
  public static AuthRoutes authRoutes(Platform platform) {
    AccountsService accounts = (AccountsService) Proxy.newProxyInstance(AccountsService.class.getClassLoader(),
        new Class<?>[] {AccountsService.class}, (proxy, method, args) -> "logoutEverywhere".equals(method.getName())
            ? platform.sessions().revokeAll((Long) args[0])
            : Future.failedFuture(new UnsupportedOperationException(method.getName() + " without accounts")));
    return new AuthRoutes(platform.sessions(), accounts);
  }

  /** Starts a gateway whose verticle mounts the route groups that {@code routes} makes. */
  public static TestGateway start(Vertx vertx, JsonObject overrides, Consumer<Platform> prepare,
                                  Function<Platform, List<ApiRoutes>> routes) {
    Platform platform = Await.result(KithTestKit.platform(vertx, overrides));
    try {
      prepare.accept(platform);
      Await.result(vertx.deployVerticle(() -> new GatewayVerticle(platform, routes.apply(platform), RoomAccess.NONE),
          new DeploymentOptions()));
    } catch (RuntimeException | AssertionError e) {
      Await.result(platform.close());
      throw e;
    }
    return new TestGateway(vertx, platform, httpPort(vertx));
  }

  /** Starts a gateway with the default test configuration. */
  public static TestGateway start(Vertx vertx) {
    return start(vertx, new JsonObject());
  }

  /** The HTTP port the gateway recorded in {@link GatewayVerticle#PORTS_MAP}. */
  public static int httpPort(Vertx vertx) {
    Object port = vertx.sharedData().getLocalMap(GatewayVerticle.PORTS_MAP).get("http");
    if (!(port instanceof Integer) || (Integer) port <= 0) {
      throw new AssertionError("the gateway recorded no HTTP port: " + port);
    }
    return (Integer) port;
  }

  public Vertx vertx() {
    return vertx;
  }

  public Platform platform() {
    return platform;
  }

  public int port() {
    return port;
  }

  public WebClient client() {
    return http;
  }

  /** Opens a session for a fresh user. */
  public TokenPair newSession() {
    return Await.result(KithTestKit.newSession(platform));
  }

  /** Opens another session for {@code userId}. */
  public TokenPair openSession(long userId, String device) {
    return Await.result(platform.sessions().open(userId, device));
  }

  /** A request on the gateway, with a bearer token when {@code accessToken} is not null. */
  public HttpRequest<Buffer> request(HttpMethod method, String path, String accessToken) {
    HttpRequest<Buffer> request = http.request(method, path);
    if (accessToken != null) {
      request.bearerTokenAuthentication(accessToken);
    }
    return request;
  }

  /** GET {@code path} with an optional bearer token. */
  public HttpResponse<Buffer> get(String path, String accessToken) {
    return Await.result(request(HttpMethod.GET, path, accessToken).send());
  }

  /** {@code method} on {@code path} with an optional bearer token and no body. */
  public HttpResponse<Buffer> call(HttpMethod method, String path, String accessToken) {
    return Await.result(request(method, path, accessToken).send());
  }

  /** POST of a JSON body. */
  public HttpResponse<Buffer> postJson(String path, String accessToken, JsonObject body) {
    return Await.result(request(HttpMethod.POST, path, accessToken).sendJsonObject(body));
  }

  /** POST of raw bytes declared as {@code application/json}. */
  public HttpResponse<Buffer> postRaw(String path, String accessToken, String body) {
    return Await.result(request(HttpMethod.POST, path, accessToken)
        .putHeader("Content-Type", "application/json")
        .sendBuffer(Buffer.buffer(body)));
  }

  /** GET /api/v1/whoami with {@code accessToken}. */
  public HttpResponse<Buffer> whoami(String accessToken) {
    return get(API + "/whoami", accessToken);
  }

  /**
   * Asserts that {@code response} is an RFC 9457 problem with {@code status} and {@code code}, served as
   * application/problem+json, and that its body gives nothing of the implementation away.
   */
  public static JsonObject assertProblem(HttpResponse<Buffer> response, int status, String code) {
    String text = response.bodyAsString();
    assertEquals(status, response.statusCode(), "status of " + text);
    assertEquals("application/problem+json", response.getHeader("Content-Type"), "content type of " + text);
    JsonObject body = new JsonObject(text);
    assertEquals(code, body.getString("code"), "code of " + text);
    assertEquals(status, body.getInteger("status"), "status member of " + text);
    assertEquals("https://kith.dev/problems/" + code, body.getString("type"), "type of " + text);
    assertNoInternals(text);
    return body;
  }

  /** Asserts that a response body carries no stack trace, exception class or package name. */
  public static void assertNoInternals(String text) {
    assertFalse(INTERNALS.matcher(text).find(), "the body gives internals away: " + text);
  }

  @Override
  public void close() {
    http.close();
    Await.result(platform.close());
  }
}
