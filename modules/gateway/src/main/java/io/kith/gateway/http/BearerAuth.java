package io.kith.gateway.http;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.token.AccessClaims;
import io.kith.platform.token.AccessTokens;
import io.kith.platform.token.Sessions;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;
import io.vertx.openapi.contract.OpenAPIContract;
import io.vertx.openapi.contract.Operation;
import io.vertx.openapi.contract.SecurityRequirement;

import java.util.List;

/**
 * Authenticates operations that the contract marks with {@code bearerAuth}, before their input is validated, so that
 * an unauthenticated caller learns nothing about the operation's input rules. The verified claims are put on the
 * routing context under {@link Http#CALLER}; route handlers take the acting user from there and nowhere else.
 *
 * <p>An operation whose security requirements include the empty one ({@code security: [{bearerAuth: []}, {}]}) takes
 * the token optionally: without an Authorization header it proceeds anonymously (no {@link Http#CALLER}; see
 * {@link Http#viewerId}), but a header that is present, even an empty one, must verify like anywhere else. An
 * operation that takes a user token or an API key ({@code security: [{bearerAuth: []}, {apiKeyAuth: [scope]}]})
 * leaves a presented key to {@link ApiKeyAuth}.
 *
 * <p>A token is accepted when its signature, algorithm, issuer, audience and expiry verify, and its session is
 * still alive (a logout or "log out everywhere" takes effect at once). A request with more than one
 * {@code Authorization} header is refused ({@code token_invalid}) whatever they hold.
 */
public final class BearerAuth implements Handler<RoutingContext> {

  private static final String PREFIX = "bearer ";
  /** The contract's security scheme of user access tokens. */
  static final String SCHEME = "bearerAuth";
  private final OpenAPIContract contract;
  private final AccessTokens tokens;
  private final Sessions sessions;

  /** Creates the handler over the contract it consults. */
  public BearerAuth(OpenAPIContract contract, Sessions sessions) {
    this.contract = contract;
    this.tokens = sessions.accessTokens();
    this.sessions = sessions;
  }

  @Override
  public void handle(RoutingContext rc) {
    Operation op = operationOf(contract, rc);
    if (op == null || op.getSecurityRequirements() == null || op.getSecurityRequirements().isEmpty()
        || op.getSecurityRequirements().stream().noneMatch(r -> r.getNames().contains(SCHEME))) {
      // no user token here: open operations, and those of another scheme (API keys: ApiKeyAuth)
      rc.next();
      return;
    }
    if (ApiKeyAuth.alternativeTo(op) && ApiKeyAuth.offersKey(rc)) {
      // an operation that also takes an API key (security: [{bearerAuth: []}, {apiKeyAuth: [...]}]): ApiKeyAuth
      // authenticates the key
      rc.next();
      return;
    }
    List<String> headers = rc.request().headers().getAll("Authorization");
    if (headers.size() > 1) {
      // proxies and frameworks disagree on which of several credentials counts: pick none
      rc.response().putHeader("WWW-Authenticate", "Bearer error=\"invalid_request\"");
      refuse(rc, op, Failures.of(KithErrors.TOKEN_INVALID, "send exactly one Authorization header"));
      return;
    }
    String header = headers.isEmpty() ? null : headers.get(0);
    if (header == null && isOptional(op)) {
      rc.next();
      return;
    }
    if (header == null || header.isBlank()) {
      rc.response().putHeader("WWW-Authenticate", "Bearer");
      refuse(rc, op,
          Failures.of(KithErrors.UNAUTHENTICATED, "this operation needs an Authorization: Bearer access token"));
      return;
    }
    if (header.length() <= PREFIX.length() || !header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
      rc.response().putHeader("WWW-Authenticate", "Bearer error=\"invalid_request\"");
      refuse(rc, op, Failures.of(KithErrors.TOKEN_INVALID, "the Authorization header must read: Bearer <access token>"));
      return;
    }
    authenticate(header.substring(PREFIX.length()).trim()).onComplete(ar -> {
      if (ar.succeeded()) {
        rc.put(Http.CALLER, ar.result());
        rc.next();
      } else {
        rc.response().putHeader("WWW-Authenticate", "Bearer error=\"invalid_token\"");
        refuse(rc, op, ar.cause());
      }
    });
  }

  /**
   * Fails the request, first naming its operation's route for the HTTP metrics: refused here, before the router
   * reaches that route, it would otherwise count as {@code route="unmatched"} (the name is the router's own form of
   * the path, {@code /api/v1/posts/:postId}, so refused and served requests share their series).
   */
  private static void refuse(RoutingContext rc, Operation op, Throwable failure) {
    rc.request().routed(op.getOpenAPIPath().replaceAll("\\{([^}/]+)}", ":$1"));
    rc.fail(failure);
  }

  private static boolean isOptional(Operation op) {
    return op.getSecurityRequirements().stream().anyMatch(SecurityRequirement::isEmpty);
  }

  /** The contract's operation of a request, found as the router finds its route. */
  static Operation operationOf(OpenAPIContract contract, RoutingContext rc) {
    String path = rc.normalizedPath();
    Operation op = contract.findOperation(path, rc.request().method());
    // the router serves "/a/b/" on the route of "/a/b": find the operation the same way, or a trailing slash would
    // reach the operation unauthenticated
    while (op == null && path.length() > 1 && path.endsWith("/")) {
      path = path.substring(0, path.length() - 1);
      op = contract.findOperation(path, rc.request().method());
    }
    return op;
  }

  /** Verifies a token and its session; shared with the bridges. */
  public static Future<AccessClaims> authenticate(AccessTokens tokens, Sessions sessions, String token) {
    return tokens.verify(token).compose(claims -> sessions.isActive(claims.userId(), claims.sessionId())
        .recover(e -> Failures.fail(KithErrors.UNAVAILABLE, "cannot check the session right now; retry"))
        .compose(alive -> alive ? Future.succeededFuture(claims)
            : Failures.fail(KithErrors.SESSION_REVOKED, "the session has ended; log in again")));
  }

  private Future<AccessClaims> authenticate(String token) {
    return authenticate(tokens, sessions, token);
  }
}
