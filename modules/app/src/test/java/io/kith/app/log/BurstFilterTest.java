package io.kith.app.log;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The log limit on libraries that log a client's mistake once per frame. */
class BurstFilterTest {

  private static final String SOCKJS = "io.vertx.ext.web.handler.sockjs.impl.EventBusBridgeImpl";

  private final AtomicLong now = new AtomicLong(1_000_000);
  private final ListAppender<ILoggingEvent> lines = new ListAppender<>();
  private LoggerContext context;

  @BeforeEach
  void setUp() {
    context = new LoggerContext();
    BurstFilter filter = new BurstFilter();
    filter.setPrefix("io.vertx.ext.web.handler.sockjs");
    filter.setPeriodMillis(10_000);
    filter.setClock(now::get);
    filter.setContext(context);
    filter.start();
    context.addTurboFilter(filter);
    lines.setContext(context);
    lines.start();
    context.getLogger(Logger.ROOT_LOGGER_NAME).addAppender(lines);
  }

  @Test
  @DisplayName("a thousand frames of an unknown type log one line in a period, and the next period says how many "
      + "were left out")
  void oneLinePerPeriod() {
    Logger sockjs = context.getLogger(SOCKJS);
    for (int i = 0; i < 1000; i++) {
      sockjs.error("Invalid type in incoming message: nonsense" + i);
    }
    assertEquals(1, lines.list.size());
    assertEquals("Invalid type in incoming message: nonsense0", lines.list.get(0).getFormattedMessage());
    now.addAndGet(9_999);
    sockjs.error("still within the period");
    assertEquals(1, lines.list.size());
    now.addAndGet(1);
    sockjs.warn("the next period");
    assertEquals(3, lines.list.size());
    assertEquals("1000 more lines of this logger left out in the last 10 s (at most one per 10 s)",
        lines.list.get(1).getFormattedMessage());
    assertEquals("the next period", lines.list.get(2).getFormattedMessage());
  }

  @Test
  @DisplayName("other loggers and lines below WARN pass untouched")
  void othersPass() {
    Logger kith = context.getLogger("io.kith.gateway.bridge.BridgeGuard");
    Logger sockjs = context.getLogger(SOCKJS);
    for (int i = 0; i < 50; i++) {
      kith.error("kith line " + i);
      sockjs.info("info line " + i);
    }
    assertEquals(100, lines.list.size());
  }
}
