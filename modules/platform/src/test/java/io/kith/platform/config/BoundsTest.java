package io.kith.platform.config;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BoundsTest {

  @Test
  @DisplayName("a key missing from a section takes its default from conf/kith.yaml")
  void defaultsFromKithYaml() {
    Bounds empty = Bounds.of("feeds", new JsonObject());
    assertEquals(800, empty.within("timeline-cap", 2, 100_000));
    assertEquals(50.0, Bounds.of("accounts", new JsonObject()).decimal("nearby-max-radius-km"));
    assertFalse(empty.flag("fanout-same-slot"));
  }

  @Test
  @DisplayName("a value in the section wins over the default")
  void sectionWins() {
    Bounds set = Bounds.of("feeds", new JsonObject().put("timeline-cap", 5).put("fanout-same-slot", true));
    assertEquals(5, set.within("timeline-cap", 2, 100_000));
    assertTrue(set.flag("fanout-same-slot"));
  }

  @Test
  @DisplayName("a value out of its bounds is refused with a message naming the key and the bounds")
  void outOfBounds() {
    IllegalArgumentException low = assertThrows(IllegalArgumentException.class,
        () -> Bounds.of("feeds", new JsonObject().put("timeline-cap", 1)).within("timeline-cap", 2, 100_000));
    assertEquals("feeds.timeline-cap must be between 2 and 100000: 1", low.getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> Bounds.of("feeds", new JsonObject().put("timeline-cap", 100_001)).within("timeline-cap", 2, 100_000));
  }

  @Test
  @DisplayName("a key without a default in conf/kith.yaml is a programming error, refused at once")
  void noDefault() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> Bounds.of("feeds", new JsonObject()).integer("no-such-key"));
    assertEquals("feeds.no-such-key has no default in conf/kith.yaml", e.getMessage());
  }

  @Test
  @DisplayName("a nested section is named by its dotted path and takes its defaults from there")
  void nestedSection() {
    Bounds media = Bounds.of("feeds.media", new JsonObject().put("max-unattached", 7));
    assertEquals(10_485_760L, media.longValue("image-max-bytes"));
    assertEquals(7, media.integer("max-unattached"));
  }
}
