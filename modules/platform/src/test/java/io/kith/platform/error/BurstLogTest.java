package io.kith.platform.error;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BurstLogTest {

  private static ListAppender<ILoggingEvent> capture(String name) {
    Logger logger = (Logger) LoggerFactory.getLogger(name);
    ListAppender<ILoggingEvent> appender = new ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    return appender;
  }

  @Test
  @DisplayName("a burst of one kind writes one line per period, and the next line counts those left out; other kinds "
      + "have their own lines")
  void oneLinePerKindPerPeriod() {
    String name = "kith.test.burst." + System.nanoTime();
    ListAppender<ILoggingEvent> lines = capture(name);
    // a period no test run outlasts: everything after the first line of a kind is left out
    BurstLog log = new BurstLog(LoggerFactory.getLogger(name), 3_600_000);

    assertTrue(log.warn("redis", "Redis down: {}", "first"));
    for (int i = 0; i < 1000; i++) {
      assertFalse(log.warn("redis", "Redis down: {}", i));
    }
    assertTrue(log.warn("mongo", "MongoDB down"));

    List<String> messages = lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertEquals(List.of("Redis down: first", "MongoDB down"), messages);

    BurstLog every = new BurstLog(LoggerFactory.getLogger(name), 0);
    every.warn("x", "x failed");
    assertEquals("x failed", lines.list.get(lines.list.size() - 1).getFormattedMessage());
  }

  @Test
  @DisplayName("the line after a period says how many of its kind were left out")
  void countsTheLeftOut() {
    String name = "kith.test.burst." + System.nanoTime();
    ListAppender<ILoggingEvent> lines = capture(name);
    java.util.concurrent.atomic.AtomicLong now = new java.util.concurrent.atomic.AtomicLong(1_000);
    BurstLog log = new BurstLog(LoggerFactory.getLogger(name), 10_000, now::get);

    assertTrue(log.warn("k", "failed on {}", "a"));
    for (int i = 0; i < 41; i++) {
      now.addAndGet(100);
      assertFalse(log.warn("k", "failed on {}", "b"));
    }
    now.set(11_000);
    assertTrue(log.warn("k", "failed on {}", "c"));
    now.addAndGet(1);
    assertFalse(log.warn("k", "failed on {}", "d"));

    List<String> messages = lines.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertEquals(List.of("failed on a", "failed on c (41 more like it since the last line)"), messages);
  }
}
