package io.kith.platform.store;

import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.RedisAPI;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Redis Lua scripts, the one way Kith runs them: each script is a {@code .lua} resource beside the class that uses it
 * ({@link #load}), called by digest (EVALSHA) and sent by text (EVAL) only when Redis does not know it, which happens
 * after a restart, a flush or a failover, and on each node of a Redis Cluster the first time.
 */
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

    /** A script with its text; use {@link LuaScripts#load} for a script of the product. */
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
        if (!noScript(e)) {
          return Future.failedFuture(e);
        }
        List<String> byText = new ArrayList<>(bySha);
        byText.set(0, text);
        return api.eval(byText);
      });
    }

    /**
     * Runs the script on {@code redis}: {@code numKeysKeysAndArgs} is what follows the script in EVAL (the number of
     * keys, the keys, then the arguments; numbers are sent as their decimal text).
     */
    public Future<Response> run(Redis redis, List<?> numKeysKeysAndArgs) {
      return redis.send(request(Command.EVALSHA, sha, numKeysKeysAndArgs))
          .recover(e -> noScript(e) ? redis.send(request(Command.EVAL, text, numKeysKeysAndArgs))
              : Future.failedFuture(e));
    }

    /**
     * Runs the script once per entry of {@code calls} (each what follows the script in EVAL) as one pipelined batch.
     * When Redis does not know the script the batch fails as a whole, and it is sent again by text; so a script run
     * in a batch must be safe to run twice (one that succeeded on a node that knew the script runs once more).
     */
    public Future<List<Response>> batch(Redis redis, List<? extends List<?>> calls) {
      List<Call> all = new ArrayList<>(calls.size());
      for (List<?> args : calls) {
        all.add(new Call(this, args));
      }
      return LuaScripts.batch(redis::batch, all);
    }

    private static Request request(Command command, String script, List<?> numKeysKeysAndArgs) {
      Request request = Request.cmd(command).arg(script);
      for (Object arg : numKeysKeysAndArgs) {
        request.arg(String.valueOf(arg));
      }
      return request;
    }

    private static boolean noScript(Throwable e) {
      return e.getMessage() != null && e.getMessage().contains("NOSCRIPT");
    }
  }

  /**
   * One call of a script in a pipelined {@link #batch}: {@code numKeysKeysAndArgs} is what follows the script in EVAL.
   */
  public record Call(Script script, List<?> numKeysKeysAndArgs, Request command) {

    /** A call of {@code script}. */
    public Call(Script script, List<?> numKeysKeysAndArgs) {
      this(script, numKeysKeysAndArgs, null);
    }

    /** A plain command pipelined with the script calls (such as an EXPIRE), sent as it is both times. */
    public static Call command(Request command) {
      return new Call(null, List.of(), command);
    }
  }

  /**
   * Sends calls of any scripts as one pipelined batch through {@code send} (a client's or one connection's
   * {@code batch}, so that calls that must stay in order can share a connection). When Redis does not know a script
   * the batch fails as a whole and is sent again by text, so every call sent this way must be safe to run twice.
   */
  public static Future<List<Response>> batch(Function<List<Request>, Future<List<Response>>> send, List<Call> calls) {
    return send.apply(requests(calls, true))
        .recover(e -> Script.noScript(e) ? send.apply(requests(calls, false)) : Future.failedFuture(e));
  }

  private static List<Request> requests(List<Call> calls, boolean bySha) {
    List<Request> requests = new ArrayList<>(calls.size());
    for (Call call : calls) {
      if (call.command() != null) {
        requests.add(call.command());
        continue;
      }
      requests.add(bySha ? Script.request(Command.EVALSHA, call.script().sha, call.numKeysKeysAndArgs())
          : Script.request(Command.EVAL, call.script().text, call.numKeysKeysAndArgs()));
    }
    return requests;
  }

  /**
   * The script {@code file} kept as a resource in the package of {@code owner} (e.g.
   * {@code load(Timelines.class, "timeline-push.lua")}), so a script sits beside the class that runs it. Fails at once
   * when it is missing.
   */
  public static Script load(Class<?> owner, String file) {
    return new Script(resource(owner.getPackageName().replace('.', '/') + "/" + file));
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
