package io.kith.platform.store;

import io.vertx.core.Future;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Response;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;

/** Helpers for Redis Lua scripts called by digest (EVALSHA). */
public final class LuaScripts {

  private LuaScripts() {
  }

  /**
   * A script called by its digest: EVALSHA, and EVAL only when Redis does not know the script (after a restart, a
   * flush or a failover: EVAL caches it again). Immutable and shareable.
   */
  public static final class Script {

    private final String text;
    private final String sha;

    /** A script with its text. */
    public Script(String text) {
      this.text = text;
      this.sha = sha1(text);
    }

    /** The script's digest. */
    public String sha() {
      return sha;
    }

    /**
     * Runs the script: {@code numKeysKeysAndArgs} is what follows the script in EVAL (the number of keys, the keys,
     * then the arguments).
     */
    public Future<Response> run(RedisAPI api, List<String> numKeysKeysAndArgs) {
      List<String> bySha = new ArrayList<>(numKeysKeysAndArgs.size() + 1);
      bySha.add(sha);
      bySha.addAll(numKeysKeysAndArgs);
      return api.evalsha(bySha).recover(e -> {
        if (e.getMessage() == null || !e.getMessage().contains("NOSCRIPT")) {
          return Future.failedFuture(e);
        }
        List<String> byText = new ArrayList<>(bySha);
        byText.set(0, text);
        return api.eval(byText);
      });
    }
  }

  /**
   * The text of a script kept as a class-path resource ({@code path} from the class-path root, e.g.
   * {@code "io/kith/feeds/service/timeline-push.lua"}). Fails at once when it is missing.
   */
  public static String resource(String path) {
    try (InputStream in = LuaScripts.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing script " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The SHA-1 digest Redis names a script by, in lower-case hex. */
  public static String sha1(String script) {
    try {
      byte[] digest = MessageDigest.getInstance("SHA-1").digest(script.getBytes(StandardCharsets.UTF_8));
      StringBuilder hex = new StringBuilder(40);
      for (byte b : digest) {
        hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
      }
      return hex.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-1 is missing from this JVM", e);
    }
  }
}
