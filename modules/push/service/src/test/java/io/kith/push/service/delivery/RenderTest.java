package io.kith.push.service.delivery;

import io.kith.notifications.api.Notifications;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Locale;
import java.util.ResourceBundle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The push texts by locale, on notification views as notifications stores them (the HTTP flows are in the app's
 * {@code PushLocaleHttpTest}; an account without a locale cannot be made through the API, so it is checked here).
 */
@DisplayName("Push texts: Kith's words in the recipient's locale, what people wrote as written")
class RenderTest {

  private static JsonObject like() {
    return new JsonObject().put("id", 7L).put("type", Notifications.LIKE).put("post", 9L)
        .put("actor", new JsonObject().put("username", "bob"));
  }

  @Test
  @DisplayName("an account with no locale, or one Kith has no texts for, reads English")
  void englishByDefault() {
    Locale before = Locale.getDefault();
    // the JVM's own locale must not leak into a push
    Locale.setDefault(Locale.SIMPLIFIED_CHINESE);
    try {
      for (String locale : new String[] {null, "", "fr", "zh-TW", "not a tag"}) {
        assertEquals("bob liked your post", Render.of(like(), 1, true, locale).body(), "locale " + locale);
      }
    } finally {
      Locale.setDefault(before);
    }
  }

  @Test
  @DisplayName("a zh-CN recipient reads Chinese for every built-in type, a message without preview and a nameless actor")
  void chinese() {
    assertEquals("bob 赞了你的动态", Render.of(like(), 1, true, "zh-CN").body());
    JsonObject message = new JsonObject().put("id", 8L).put("type", Notifications.MESSAGE).put("conversation", 3L)
        .put("preview", "hi").putNull("actor");
    PushMessage push = Render.of(message, 2, false, "zh-CN");
    assertEquals("新消息", push.body());
    assertEquals("某人", push.title());
    assertEquals("hi", Render.of(message, 2, true, "zh-CN").body(), "a preview goes as written");
    ResourceBundle english = ResourceBundle.getBundle(Texts.BUNDLE, Locale.ROOT, Texts.class.getClassLoader(),
        ResourceBundle.Control.getNoFallbackControl(ResourceBundle.Control.FORMAT_PROPERTIES));
    for (String key : english.keySet().stream().filter(k -> k.startsWith("type.")).toList()) {
      JsonObject view = new JsonObject().put("id", 1L).put("type", key.substring("type.".length()))
          .put("actor", new JsonObject().put("username", "bob")).put("title", "Owls");
      String zh = Render.of(view, 0, true, "zh-CN").body();
      assertTrue(!zh.equals(Render.of(view, 0, true, "en").body()) && zh.codePoints().anyMatch(c -> c > 0x3000),
          key + " has a Chinese text: " + zh);
    }
  }

  @Test
  @DisplayName("an announcement's title and body go as the operator wrote them; without them Kith's words are "
      + "translated")
  void announcement() {
    JsonObject view = new JsonObject().put("id", 5L).put("type", "promo")
        .put(Notifications.DATA, new JsonObject().put("title", "Summer sale").put("body", "Half price today"));
    PushMessage push = Render.of(view, 1, true, "zh-CN");
    assertEquals("Summer sale", push.title());
    assertEquals("Half price today", push.body());
    JsonObject bare = new JsonObject().put("id", 6L).put("type", "badge")
        .put(Notifications.DATA, new JsonObject().put("badge", "gold"));
    assertEquals("有新动态", Render.of(bare, 1, true, "zh-CN").body());
    assertEquals("Something new", Render.of(bare, 1, true, "en").body());
    assertNull(Render.of(bare, 1, true, "en").title());
    for (String type : List.of(Notifications.EXPORT_READY)) {
      assertEquals("有新动态", Render.of(new JsonObject().put("id", 1L).put("type", type), 0, true, "zh-CN").body());
    }
  }
}
