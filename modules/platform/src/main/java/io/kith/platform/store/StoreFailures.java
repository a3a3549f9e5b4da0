package io.kith.platform.store;

import com.mongodb.MongoConnectionPoolClearedException;
import com.mongodb.MongoExecutionTimeoutException;
import com.mongodb.MongoNodeIsRecoveringException;
import com.mongodb.MongoNotPrimaryException;
import com.mongodb.MongoSocketException;
import com.mongodb.MongoTimeoutException;
import io.kith.platform.error.BurstLog;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.circuitbreaker.OpenCircuitException;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.http.ConnectionPoolTooBusyException;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.impl.types.ErrorType;
import io.vertx.serviceproxy.ServiceException;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * Recognises failures that mean "busy, unreachable or too slow" rather than "wrong": a store whose pool is full, that
 * timed out, refused or dropped the connection, a circuit that is open, a service that answered in no time or runs on
 * no node. They all become one coded failure, {@link KithErrors#UNAVAILABLE} (503 with {@code retry_after}), so a
 * client is told to come back instead of being shown a bug, and the failure crosses the event bus intact (a plain
 * exception would reach the gateway as an uncoded 500).
 */
public final class StoreFailures {

  /** Seconds a client is asked to wait before retrying an unavailable dependency. */
  public static final int RETRY_AFTER_SECONDS = 2;

  // Redis error codes that say the server cannot serve now (not that the command was wrong); CONNECTION_CLOSED is
  // the client's own, for commands in flight on a connection that closed (a Redis restart)
  private static final String[] REDIS_NOT_NOW = {"LOADING", "BUSY", "MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN",
      "CONNECTION_CLOSED"};

  private static final String BATCH_FAILURE = "ERR [";
  // a qualified class name then ":" or the end: what Throwable.toString starts with (no Redis reply code has a dot)
  private static final Pattern JAVA_EXCEPTION = Pattern.compile("[a-z][\\w$]*(\\.[\\w$]+)+(:|$)");

  private StoreFailures() {
  }

  /** The coded failure for an unavailable {@code what} ("Redis", "MongoDB"), with {@code retry_after}. */
  public static ServiceException unavailable(String what) {
    return Failures.withExtra(KithErrors.UNAVAILABLE, what + " is unavailable; retry later",
        new JsonObject().put("retry_after", RETRY_AFTER_SECONDS));
  }

  private static final BurstLog OUTAGES = new BurstLog(LoggerFactory.getLogger(StoreFailures.class), 10_000);

  /**
   * The coded failure for an outage of store {@code what}, after logging its cause (at most one line per store every
   * 10 s): the coded failure a client sees says nothing about the cause, the log must.
   */
  public static ServiceException outage(String what, Throwable cause) {
    OUTAGES.warn(what, "{} is unavailable: {}: {}", what, cause.getClass().getSimpleName(), cause.getMessage());
    return unavailable(what);
  }

  /** Whether {@code failure} (or a cause of it) means a dependency is busy, unreachable or too slow. */
  public static boolean isUnavailable(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (Failures.is(t, KithErrors.UNAVAILABLE)) {
        return true;
      }
      if (t instanceof ReplyException) {
        ReplyFailure type = ((ReplyException) t).failureType();
        if (type == ReplyFailure.TIMEOUT || type == ReplyFailure.NO_HANDLERS) {
          return true;
        }
      }
      if (t instanceof ConnectionPoolTooBusyException || t instanceof OpenCircuitException
          || t instanceof io.vertx.circuitbreaker.TimeoutException || t instanceof TimeoutException
          || t instanceof IOException) {
        return true;
      }
      if (t instanceof MongoTimeoutException || t instanceof MongoSocketException
          || t instanceof MongoExecutionTimeoutException || t instanceof MongoConnectionPoolClearedException
          || t instanceof MongoNodeIsRecoveringException || t instanceof MongoNotPrimaryException) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether a failure of the Redis client means Redis is not serving. Redis answers a wrong command with an error
   * reply ({@code WRONGTYPE}, {@code NOSCRIPT}, ...), which callers handle; every other failure of the client (pool
   * full, connection closed or refused, timed out, circuit open) is about reaching Redis, whatever its message.
   */
  public static boolean isRedisOutage(Throwable failure) {
    if (failure instanceof ErrorType) {
      String message = String.valueOf(failure.getMessage());
      if (message.startsWith(BATCH_FAILURE)) {
        return message.lines().anyMatch(StoreFailures::batchLineIsOutage);
      }
      return isNotNow(message);
    }
    return !(failure instanceof ServiceException) || isUnavailable(failure);
  }

  // A failed batch (pipeline) is one error reply of the client's making, a line "ERR [<index>] <failure>" per failed
  // command: <failure> is Redis's own error reply less its "ERR ", or, when Redis was not reached, the toString of
  // the client's exception ("java.net.SocketException: Connection reset", a Redis restart). That text is all the
  // client keeps of the cause, so it is read here: an exception's class name is an outage, a reply code as above.
  private static boolean batchLineIsOutage(String line) {
    int end = line.indexOf("] ");
    String failure = end < 0 ? "" : line.substring(end + 2);
    return isNotNow(failure) || JAVA_EXCEPTION.matcher(failure).lookingAt();
  }

  /**
   * The code of a Redis error reply ({@code NOGROUP}, {@code BUSYGROUP}, {@code WRONGTYPE}...), the reply's first
   * word, compared whole (BUSY is not BUSYGROUP); null for a failure that is not an error reply.
   */
  public static String redisErrorCode(Throwable failure) {
    return failure instanceof ErrorType ? firstWord(String.valueOf(failure.getMessage())) : null;
  }

  private static String firstWord(String reply) {
    int space = reply.indexOf(' ');
    return space < 0 ? reply : reply.substring(0, space);
  }

  // the error code is the reply's first word (BUSY is not BUSYGROUP)
  private static boolean isNotNow(String reply) {
    String code = firstWord(reply);
    for (String kind : REDIS_NOT_NOW) {
      if (kind.equals(code)) {
        return true;
      }
    }
    return false;
  }
}
