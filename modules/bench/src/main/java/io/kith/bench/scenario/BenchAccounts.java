package io.kith.bench.scenario;

import io.kith.bench.client.BenchHttpClient;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;

/**
 * Users that a scenario creates through the public HTTP API before the load, with names fresh to the run, and the
 * accounts requests the scenarios send.
 *
 * <p>Every registration counts against the target's {@code accounts.register-max-per-address} (10 per hour by
 * default): in-process runs raise it, remote targets must allow as many registrations as the scenario makes.
 */
public final class BenchAccounts {

  public static final String REGISTER = "/api/v1/accounts";
  public static final String LOGIN = "/api/v1/auth/login";
  public static final String USERS = "/api/v1/users/";
  /** Device label of the sessions the bench opens, so an operator can tell them apart. */
  public static final String DEVICE = "kith-bench";

  private static final SecureRandom RANDOM = new SecureRandom();
  private static final String TAG_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
  private static final int TAG_LENGTH = 8;

  /**
   * A registered user.
   *
   * @param id          user id
   * @param username    login name
   * @param password    the password it was registered with
   * @param accessToken access token of the registration's session
   */
  public record User(long id, String username, String password, String accessToken) {
  }

  private final BenchHttpClient http;
  private final String tag;
  private final String password;

  /**
   * @param http the client to register with
   * @param tag  a short lower-case tag unique to the run ({@link #newTag()}), part of every username and password
   */
  public BenchAccounts(BenchHttpClient http, String tag) {
    this.http = http;
    this.tag = tag;
    this.password = "Bench-" + tag + "-passphrase";
  }

  /** A random tag of 8 lower-case letters and digits: 36^8 values, so runs do not collide on usernames. */
  public static String newTag() {
    StringBuilder s = new StringBuilder(TAG_LENGTH);
    for (int i = 0; i < TAG_LENGTH; i++) {
      s.append(TAG_ALPHABET.charAt(RANDOM.nextInt(TAG_ALPHABET.length())));
    }
    return s.toString();
  }

  /** The username of {@code role} in this run, e.g. {@code bench_k3x9q0za_reader} (at most 30 characters). */
  public String username(String role) {
    return "bench_" + tag + "_" + role;
  }

  /** Registers the user {@code role} ({@code POST /api/v1/accounts}, 201). */
  public Future<User> register(String role) {
    String username = username(role);
    JsonObject body = new JsonObject().put("username", username).put("password", password).put("device", DEVICE);
    return http.postJson(REGISTER, body, null, 201)
        .map(reply -> {
          JsonObject user = reply.getJsonObject("user");
          Object id = user == null ? null : user.getValue("id");
          if (!(id instanceof Number) || ((Number) id).longValue() <= 0) {
            throw new IllegalStateException("the registration reply has no user id");
          }
          String token = Replies.accessToken(reply.getJsonObject("tokens"));
          return new User(((Number) id).longValue(), username, password, token);
        })
        .recover(e -> Future.failedFuture(new IllegalStateException("registering " + username + " failed: "
            + e.getMessage() + hint(e.getMessage()), e)));
  }

  /** Registers {@code roles} one after another (in parallel they would only queue for the password hashing). */
  public Future<List<User>> registerAll(List<String> roles) {
    List<User> users = new ArrayList<>(roles.size());
    Future<Void> chain = Future.succeededFuture();
    for (String role : roles) {
      chain = chain.compose(v -> register(role).map(user -> {
        users.add(user);
        return null;
      }));
    }
    return chain.map(v -> users);
  }

  /**
   * The roles {@code named}, then {@code count} more named {@code prefix} and their number: {@code roles(List.of(
   * "reader"), "a", 3)} is reader, a0, a1, a2.
   */
  public static List<String> roles(List<String> named, String prefix, int count) {
    List<String> roles = new ArrayList<>(named);
    for (int i = 0; i < count; i++) {
      roles.add(prefix + i);
    }
    return roles;
  }

  /** The ids of {@code users}, in order. */
  public static List<Long> ids(List<User> users) {
    return users.stream().map(User::id).toList();
  }

  /** Logs {@code user} in ({@code POST /api/v1/auth/login}, 200) and completes with the new access token. */
  public Future<String> login(User user) {
    JsonObject body = new JsonObject().put("login", user.username()).put("password", user.password())
        .put("device", DEVICE);
    return http.postJson(LOGIN, body, null, 200).map(Replies::accessToken);
  }

  /** Reads {@code userId}'s profile as the holder of {@code token} and checks it is that user's. */
  public Future<JsonObject> profile(long userId, String token) {
    return http.getJson(USERS + userId, token).map(body -> Replies.profile(body, userId));
  }

  private static String hint(String message) {
    if (message != null && message.contains("registration_throttled")) {
      return " (the target limits registrations per client address: raise accounts.register-max-per-address "
          + "for bench runs, or wait for accounts.register-window-seconds)";
    }
    return "";
  }

  /**
   * Configuration for in-process runs of the accounts scenarios. The bench registers and logs in from one address and
   * reads profiles as one user, far beyond what a person does, so these limits are lifted: registrations per address,
   * failed logins per address (not expected, but a stray failure must not throttle a whole run) and profile reads per
   * user per minute. The limits are still counted on every request, so their cost stays in the measurement.
   */
  public static JsonObject unthrottled() {
    return new JsonObject().put("accounts", new JsonObject()
        .put("register-max-per-address", 100_000)
        .put("login-max-failures-per-address", 1_000_000)
        .put("profile-reads-per-minute", 100_000_000));
  }
}
