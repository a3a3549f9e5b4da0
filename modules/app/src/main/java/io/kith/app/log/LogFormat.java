package io.kith.app.log;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.Encoder;
import io.kith.platform.config.ConfigException;
import io.kith.platform.config.KithConfig;
import org.slf4j.LoggerFactory;

import java.util.Iterator;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The {@code log.format} setting: {@code text} keeps the encoders of {@code logback.xml} (one readable line per
 * event), {@code json} gives every output appender of the root logger logback's {@link JsonEncoder} (one JSON object
 * per line with the timestamp, level, thread, logger, formatted message, key-value pairs and throwable), for a log
 * collector. Switched when a node starts, before Vert.x logs anything; switching back restores the text encoders.
 */
public final class LogFormat {

  /** Config key of the format. */
  public static final String KEY = "log.format";
  // the text encoder each appender had before it was switched to JSON, to switch it back
  private static final Map<Appender<ILoggingEvent>, Encoder<ILoggingEvent>> TEXT = new WeakHashMap<>();

  private LogFormat() {
  }

  /** Applies {@value #KEY} of {@code config} to the logging of this JVM (when it is logback, as in the jar). */
  public static void apply(KithConfig config) {
    if (LoggerFactory.getILoggerFactory() instanceof LoggerContext) {
      apply((LoggerContext) LoggerFactory.getILoggerFactory(), config.getString(KEY, "text"));
    }
  }

  /** Applies {@code format} ({@code text} or {@code json}) to the root logger's output appenders of {@code context}. */
  public static synchronized void apply(LoggerContext context, String format) {
    if (!format.equals("text") && !format.equals("json")) {
      throw new ConfigException(KEY + " must be text or json, not '" + format + "'");
    }
    Iterator<Appender<ILoggingEvent>> appenders = context.getLogger(Logger.ROOT_LOGGER_NAME).iteratorForAppenders();
    while (appenders.hasNext()) {
      Appender<ILoggingEvent> appender = appenders.next();
      if (!(appender instanceof OutputStreamAppender)) {
        continue;
      }
      OutputStreamAppender<ILoggingEvent> out = (OutputStreamAppender<ILoggingEvent>) appender;
      boolean json = out.getEncoder() instanceof JsonEncoder;
      if (format.equals("json") && !json) {
        TEXT.put(out, out.getEncoder());
        out.setEncoder(jsonEncoder(context));
      } else if (format.equals("text") && json && TEXT.containsKey(out)) {
        out.setEncoder(TEXT.remove(out));
      }
    }
  }

  private static JsonEncoder jsonEncoder(LoggerContext context) {
    JsonEncoder encoder = new JsonEncoder();
    encoder.setContext(context);
    // the message once, with its arguments in place; no context block (name and birth date) on every line
    encoder.setWithFormattedMessage(true);
    encoder.setWithMessage(false);
    encoder.setWithArguments(false);
    encoder.setWithContext(false);
    encoder.setWithSequenceNumber(false);
    encoder.setWithNanoseconds(false);
    encoder.start();
    return encoder;
  }
}
