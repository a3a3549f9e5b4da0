package io.kith.platform.text;

import io.kith.platform.error.Failures;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

@DisplayName("Content filters: the normal form text is matched in, and what an operator may set")
class ContentFiltersTest {

  @Test
  @DisplayName("full-width letters, mixed case and zero-width characters all normalise to the same word")
  void normalForm() {
    for (String variant : List.of("ＳＰＡＭ", "SpAm", "spam", "s\u200bp\u200da\u2060m", "ｓｐａｍ")) {
      assertEquals("spam", ContentFilters.normalize(variant), variant);
    }
  }

  @Test
  @DisplayName("a filter is validated into its stored form; a bad kind, value, action, context or regex is "
      + "validation_failed naming the field")
  void validation() {
    JsonObject stored = ContentFilters.validate(new JsonObject().put("kind", "word").put("value", "spam"));
    assertEquals("refuse", stored.getString("action"));
    assertEquals(new JsonArray(ContentFilters.CONTEXTS), stored.getJsonArray("contexts"));
    assertEquals("kind", refusedField(new JsonObject().put("kind", "regexp").put("value", "x")));
    assertEquals("value", refusedField(new JsonObject().put("kind", "pattern").put("value", "(unclosed")));
    assertEquals("value", refusedField(new JsonObject().put("kind", "word").put("value", "x".repeat(201))));
    assertEquals("value", refusedField(new JsonObject().put("kind", "word").put("value", " ")));
    assertEquals("action", refusedField(new JsonObject().put("kind", "word").put("value", "x").put("action", "ban")));
    assertEquals("contexts", refusedField(new JsonObject().put("kind", "word").put("value", "x")
        .put("contexts", new JsonArray().add("planet"))));
  }

  private static String refusedField(JsonObject filter) {
    ServiceException e = assertThrows(ServiceException.class, () -> ContentFilters.validate(filter));
    assertEquals("validation_failed", Failures.codeOf(e));
    return e.getDebugInfo().getString(Failures.FIELD);
  }
}
