package io.kith.app.log;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.util.LogbackMDCAdapter;
import ch.qos.logback.core.OutputStreamAppender;
import io.kith.platform.config.ConfigException;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The {@code log.format} setting on a logger context of its own (the test JVM's logging is left alone). */
class LogFormatTest {

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private LoggerContext context;

  @BeforeEach
  void setUp() {
    context = new LoggerContext();
    context.setMDCAdapter(new LogbackMDCAdapter());
    PatternLayoutEncoder text = new PatternLayoutEncoder();
    text.setContext(context);
    text.setPattern("%level %logger - %msg%n");
    text.start();
    OutputStreamAppender<ILoggingEvent> appender = new OutputStreamAppender<>();
    appender.setContext(context);
    appender.setName("OUT");
    appender.setEncoder(text);
    appender.setOutputStream(out);
    appender.start();
    context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(appender);
  }

  private String logged(String message, Object argument) {
    out.reset();
    context.getLogger("io.kith.Example").info(message, argument);
    return out.toString(StandardCharsets.UTF_8).trim();
  }

  @Test
  @DisplayName("json writes one JSON object per line with level, logger and the formatted message; text switches back")
  void jsonAndBack() {
    LogFormat.apply(context, "json");
    String line = logged("GET /api/v1/ping answered {}", 200);
    assertEquals(1, line.lines().count(), line);
    JsonObject event = new JsonObject(line);
    assertEquals("INFO", event.getString("level"));
    assertEquals("io.kith.Example", event.getString("loggerName"));
    assertEquals("GET /api/v1/ping answered 200", event.getString("formattedMessage"));
    assertTrue(event.containsKey("timestamp"), line);

    LogFormat.apply(context, "text");
    assertEquals("INFO io.kith.Example - back to text 1", logged("back to text {}", 1));
  }

  @Test
  @DisplayName("text is the logback.xml format; applying it twice or json twice changes nothing")
  void idempotent() {
    LogFormat.apply(context, "text");
    assertEquals("INFO io.kith.Example - plain 1", logged("plain {}", 1));
    LogFormat.apply(context, "json");
    LogFormat.apply(context, "json");
    assertEquals("x 2", new JsonObject(logged("x {}", 2)).getString("formattedMessage"));
  }

  @Test
  @DisplayName("a format other than text or json is refused with a message naming log.format")
  void unknownFormatRefused() {
    ConfigException e = assertThrows(ConfigException.class, () -> LogFormat.apply(context, "xml"));
    assertTrue(e.getMessage().contains("log.format"), e.getMessage());
  }
}
