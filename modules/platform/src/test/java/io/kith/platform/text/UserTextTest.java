package io.kith.platform.text;

import io.kith.platform.error.Failures;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@DisplayName("User text: control characters and unpaired surrogates refused")
class UserTextTest {

  @Test
  @DisplayName("ordinary text, accents, CJK, emoji (surrogate pairs) and null pass unchanged")
  void ordinaryTextPasses() {
    for (String text : List.of("", "hello", "Zoë & Łukasz", "你好，世界", "🎉 party 👩‍👩‍👧", "a\u00A0b")) {
      assertEquals(text, UserText.line("name", text));
      assertEquals(text, UserText.lines("text", text));
    }
    assertNull(UserText.line("name", null));
  }

  @Test
  @DisplayName("line breaks and tabs pass in a multi-line text and are refused in a one-line text")
  void lineBreaks() {
    assertEquals("one\ntwo\r\n\tthree", UserText.lines("text", "one\ntwo\r\n\tthree"));
    for (String text : List.of("one\ntwo", "a\tb", "a\rb")) {
      refused(() -> UserText.line("name", text), "name", "control characters");
    }
  }

  @Test
  @DisplayName("NUL, other C0 and C1 controls and DEL are refused as validation_failed naming the field")
  void controlsRefused() {
    for (String text : List.of("a\u0000b", "\u0000", "bell\u0007", "esc\u001B[2J", "del\u007F", "c1\u0085", "\u009B")) {
      refused(() -> UserText.lines("text", text), "text", "control characters");
      refused(() -> UserText.line("name", text), "name", "control characters");
    }
  }

  @Test
  @DisplayName("an unpaired high or low surrogate, anywhere in the text, is refused as not valid Unicode")
  void loneSurrogatesRefused() {
    for (String text : List.of("\uD800", "a\uD800", "\uD800b", "\uDC00", "x\uDFFFy", "\uDC00\uD800", "🎉\uD83D")) {
      refused(() -> UserText.lines("text", text), "text", "unpaired surrogate");
      refused(() -> UserText.line("title", text), "title", "unpaired surrogate");
    }
  }

  private static void refused(org.junit.jupiter.api.function.Executable call, String field, String reason) {
    ServiceException e = assertThrows(ServiceException.class, call);
    assertEquals(400, e.failureCode());
    assertEquals("validation_failed", Failures.codeOf(e));
    assertEquals(field, e.getDebugInfo().getString(Failures.FIELD));
    assertTrue(e.getMessage().startsWith(field + " ") && e.getMessage().contains(reason), e.getMessage());
  }
}
