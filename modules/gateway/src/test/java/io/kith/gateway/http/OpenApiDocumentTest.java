package io.kith.gateway.http;

import io.kith.notifications.api.Notifications;
import io.kith.platform.testkit.Await;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.openapi.impl.Utils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The published OpenAPI document (the file clients generate code from) read as YAML, the way the gateway reads it,
 * and checked for what generators need: typed errors, 64-bit numbers, references that resolve to components, and
 * text that YAML did not cut.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("The OpenAPI document as clients generate code from it")
class OpenApiDocumentTest {

  private static final String PROBLEM = "#/components/schemas/Problem";
  private static final Set<String> METHODS = Set.of("get", "put", "post", "patch", "delete", "head", "options");

  private JsonObject doc;

  @BeforeAll
  void read() throws Exception {
    try (InputStream in = getClass().getClassLoader().getResourceAsStream("openapi.yaml")) {
      doc = Await.result(Utils.yamlStringToJson(new String(in.readAllBytes(), StandardCharsets.UTF_8)));
    }
  }

  /** Calls {@code each} with "METHOD path" and the operation object of every operation. */
  private void operations(BiConsumer<String, JsonObject> each) {
    JsonObject paths = doc.getJsonObject("paths");
    for (String path : paths.fieldNames()) {
      JsonObject item = paths.getJsonObject(path);
      for (String method : item.fieldNames()) {
        if (METHODS.contains(method)) {
          each.accept(method.toUpperCase() + " " + path, item.getJsonObject(method));
        }
      }
    }
  }

  private JsonObject resolve(JsonObject maybeRef) {
    String ref = maybeRef.getString("$ref");
    if (ref == null) {
      return maybeRef;
    }
    JsonObject target = doc;
    for (String part : ref.substring(2).split("/")) {
      target = target.getJsonObject(part.replace("~1", "/").replace("~0", "~"));
    }
    return target;
  }

  @Test
  @DisplayName("every error response of every operation is application/problem+json with the Problem schema")
  void errorsAreProblems() {
    List<String> untyped = new ArrayList<>();
    int[] count = new int[1];
    operations((name, op) -> op.getJsonObject("responses").forEach(e -> {
      if (e.getKey().startsWith("4") || e.getKey().startsWith("5") || e.getKey().equals("default")) {
        count[0]++;
        JsonObject content = resolve((JsonObject) e.getValue()).getJsonObject("content", new JsonObject());
        JsonObject schema = content.getJsonObject("application/problem+json", new JsonObject())
            .getJsonObject("schema", new JsonObject());
        if (content.size() != 1 || !PROBLEM.equals(schema.getString("$ref"))) {
          untyped.add(name + " " + e.getKey());
        }
      }
    }));
    assertTrue(untyped.isEmpty(), untyped.size() + " error responses without the Problem schema: " + untyped);
    assertTrue(count[0] > 300, "the document's error responses were read: " + count[0]);
    JsonObject problem = doc.getJsonObject("components").getJsonObject("schemas").getJsonObject("Problem");
    assertEquals(new JsonArray().add("type").add("title").add("status").add("code"), problem.getJsonArray("required"));
  }

  @Test
  @DisplayName("every JSON body with a request body documents 413 and 415, every operation documents 400 (an "
      + "undeclared query parameter or a bad path parameter)")
  void refusalsDocumented() {
    List<String> missing = new ArrayList<>();
    operations((name, op) -> {
      JsonObject responses = op.getJsonObject("responses");
      if (!responses.containsKey("400")) {
        missing.add(name + " 400");
      }
      JsonObject body = op.getJsonObject("requestBody");
      if (body != null && body.getJsonObject("content").containsKey("application/json")) {
        for (String status : List.of("413", "415")) {
          if (!responses.containsKey(status)) {
            missing.add(name + " " + status);
          }
        }
      }
    });
    assertTrue(missing.isEmpty(), "undocumented refusals: " + missing);
  }

  @Test
  @DisplayName("every integer of a body, a response or a path parameter is int64 (ids reach 2^53 - 1), but a "
      + "problem's HTTP status")
  void integersAreInt64() {
    List<String> narrow = new ArrayList<>();
    walk(doc, "#", (pointer, node) -> {
      Object type = node.getValue("type");
      boolean integer = "integer".equals(type) || (type instanceof JsonArray t && t.contains("integer"));
      if (integer && !"int64".equals(node.getString("format"))
          && !pointer.equals("#/components/schemas/Problem/properties/status")) {
        narrow.add(pointer);
      }
    });
    assertTrue(narrow.isEmpty(), narrow.size() + " integers without format int64: " + narrow);
  }

  /** Visits every object of the document, query parameters and page members included. */
  private static void walk(Object node, String pointer, BiConsumer<String, JsonObject> visit) {
    if (node instanceof JsonObject o) {
      visit.accept(pointer, o);
      for (Map.Entry<String, Object> e : o) {
        walk(e.getValue(), pointer + "/" + e.getKey(), visit);
      }
    } else if (node instanceof JsonArray a) {
      for (int i = 0; i < a.size(); i++) {
        walk(a.getValue(i), pointer + "/" + i, visit);
      }
    }
  }

  @Test
  @DisplayName("no reference points into #/paths and no member is null (a plain YAML description cut at its comma "
      + "leaves the rest as a member without a value)")
  void referencesAndText() {
    List<String> wrong = new ArrayList<>();
    check(doc, "#", wrong);
    assertTrue(wrong.isEmpty(), "wrong: " + wrong);
  }

  private static void check(Object node, String pointer, List<String> wrong) {
    if (node instanceof JsonObject o) {
      for (Map.Entry<String, Object> e : o) {
        String at = pointer + "/" + e.getKey();
        if (e.getValue() == null && !pointer.endsWith("/example") && !e.getKey().equals("example")) {
          wrong.add("null at " + at);
        } else if (e.getKey().equals("$ref") && String.valueOf(e.getValue()).startsWith("#/paths")) {
          wrong.add(at + " -> " + e.getValue());
        }
        check(e.getValue(), at, wrong);
      }
    } else if (node instanceof JsonArray a) {
      for (int i = 0; i < a.size(); i++) {
        check(a.getValue(i), pointer + "/" + i, wrong);
      }
    }
  }

  @Test
  @DisplayName("the notification types the document offers are exactly the service's, and a filter can name them all")
  void notificationTypes() {
    JsonObject components = doc.getJsonObject("components");
    // a plain string (generated clients read app-defined types too) whose description names every built-in type,
    // and whose pattern admits them all
    JsonObject type = components.getJsonObject("schemas").getJsonObject("NotificationType");
    assertEquals("string", type.getString("type"));
    java.util.regex.Pattern pattern = java.util.regex.Pattern.compile(type.getString("pattern"));
    for (String builtIn : Notifications.TYPES) {
      assertTrue(type.getString("description").contains("`" + builtIn + "`"), builtIn + " not described");
      assertTrue(pattern.matcher(builtIn).matches(), builtIn + " refused by the pattern");
    }
    JsonObject types = components.getJsonObject("parameters").getJsonObject("NotificationTypes");
    assertEquals(Notifications.TYPES.size() + Notifications.MAX_CUSTOM_TYPES,
        types.getJsonObject("schema").getInteger("maxItems"));
    List<String> filters = new ArrayList<>();
    operations((name, op) -> {
      if (name.equals("GET /api/v1/notifications")) {
        op.getJsonArray("parameters").forEach(p -> filters.add(((JsonObject) p).getString("name")));
      }
    });
    assertTrue(filters.containsAll(Notifications.FIELDS), "filters " + filters + " lack some of "
        + Notifications.FIELDS);
  }

  @Test
  @DisplayName("PATCH /api/v1/me has a typed body listing exactly the editable profile fields, and the registration "
      + "body states the username and password rules")
  void typedBodies() {
    JsonObject schemas = doc.getJsonObject("components").getJsonObject("schemas");
    JsonObject[] patch = new JsonObject[1];
    JsonObject[] register = new JsonObject[1];
    operations((name, op) -> {
      if (name.equals("PATCH /api/v1/me") || name.equals("POST /api/v1/accounts")) {
        JsonObject schema = resolve(op.getJsonObject("requestBody").getJsonObject("content")
            .getJsonObject("application/json").getJsonObject("schema"));
        (name.startsWith("PATCH") ? patch : register)[0] = schema;
      }
    });
    assertEquals(schemas.getJsonObject("ProfileChanges"), patch[0]);
    assertEquals(Set.of("nickname", "gender", "birthday", "signature", "photo_url", "photo_media", "school", "job",
        "location", "phone", "email", "locale", "interests", "settings"),
        patch[0].getJsonObject("properties").fieldNames());
    JsonObject username = register[0].getJsonObject("properties").getJsonObject("username");
    assertEquals(3, username.getInteger("minLength"));
    assertEquals(30, username.getInteger("maxLength"));
    JsonObject password = register[0].getJsonObject("properties").getJsonObject("password");
    assertEquals(8, password.getInteger("minLength"));
    assertEquals(128, password.getInteger("maxLength"));
  }

  @Test
  @DisplayName("a new username has the registration's rule wherever it is chosen (POST /api/v1/me/username too)")
  void usernameRuleEverywhere() {
    JsonObject[] bodies = new JsonObject[2];
    operations((name, op) -> {
      int at = name.equals("POST /api/v1/accounts") ? 0 : name.equals("POST /api/v1/me/username") ? 1 : -1;
      if (at >= 0) {
        bodies[at] = resolve(op.getJsonObject("requestBody").getJsonObject("content")
            .getJsonObject("application/json").getJsonObject("schema"));
      }
    });
    JsonObject registered = bodies[0].getJsonObject("properties").getJsonObject("username");
    JsonObject changed = bodies[1].getJsonObject("properties").getJsonObject("username");
    for (String rule : List.of("minLength", "maxLength", "pattern")) {
      assertEquals(registered.getValue(rule), changed.getValue(rule), rule);
    }
  }

  /** Lists answered whole: each states its bound in its summary, but the operators' own configuration. */
  private static final Set<String> WHOLE_CONFIGURATION = Set.of("listWebhooks", "listApiKeys");
  private static final Set<String> NOT_PAGING = Set.of("offset", "page", "max_id", "next", "next_max_id",
      "next_offset", "before", "after", "latitude", "longitude");

  @Test
  @DisplayName("every list pages the same way: limit and cursor in, next_cursor (NextCursor) out; history and strokes "
      + "walk by seq; a list answered whole says its bound; no other paging name is left")
  void everyListPagesTheSameWay() {
    List<String> wrong = new ArrayList<>();
    int[] paged = {0};
    operations((name, op) -> {
      Set<String> query = new java.util.HashSet<>();
      op.getJsonArray("parameters", new JsonArray()).forEach(p -> {
        JsonObject param = resolve((JsonObject) p);
        if ("query".equals(param.getString("in"))) {
          query.add(param.getString("name"));
        }
      });
      query.stream().filter(NOT_PAGING::contains).forEach(q -> wrong.add(name + " takes " + q));
      JsonObject page = listPage(op);
      if (!name.startsWith("GET ") || page == null) {
        return;
      }
      JsonObject members = page.getJsonObject("properties");
      members.fieldNames().stream().filter(NOT_PAGING::contains).forEach(m -> wrong.add(name + " answers " + m));
      if (query.contains("after_seq")) {
        if (!members.containsKey("last_seq") || query.contains("cursor")) {
          wrong.add(name + " walks by seq without last_seq, or with a cursor too");
        }
      } else if (query.contains("limit") || query.contains("cursor") || members.containsKey("next_cursor")) {
        paged[0]++;
        if (!query.containsAll(Set.of("limit", "cursor")) || !new JsonObject().put("$ref", "#/components/schemas/"
            + "NextCursor").equals(members.getJsonObject("next_cursor"))) {
          wrong.add(name + " pages by " + query + " answering " + members.fieldNames());
        }
      } else if (!WHOLE_CONFIGURATION.contains(op.getString("operationId"))
          && !op.getString("summary", "").matches("(?s).*\\b(at most|up to) .*")) {
        wrong.add(name + " is answered whole without stating its bound in its summary");
      }
    });
    assertTrue(wrong.isEmpty(), "lists that page otherwise: " + wrong);
    assertTrue(paged[0] > 30, "paged lists found: " + paged[0]);
  }

  /** The 200 JSON body of {@code op} with its allOf parts merged when it has an items array, else null. */
  private JsonObject listPage(JsonObject op) {
    JsonObject ok = op.getJsonObject("responses").getJsonObject("200");
    JsonObject body = ok == null ? null : resolve(ok).getJsonObject("content", new JsonObject())
        .getJsonObject("application/json");
    if (body == null) {
      return null;
    }
    JsonObject properties = new JsonObject();
    JsonObject schema = resolve(body.getJsonObject("schema"));
    List<JsonObject> parts = new ArrayList<>(List.of(schema));
    schema.getJsonArray("allOf", new JsonArray()).forEach(part -> parts.add(resolve((JsonObject) part)));
    parts.forEach(part -> properties.mergeIn(part.getJsonObject("properties", new JsonObject())));
    return properties.containsKey("items") ? new JsonObject().put("properties", properties) : null;
  }

  @Test
  @DisplayName("no request body pairs null with a format (the request validator checks int64 on null too, refusing "
      + "what the schema allows): a nullable formatted value there is oneOf the value or null")
  void nullableRequestIntegers() {
    List<String> wrong = new ArrayList<>();
    operations((name, op) -> {
      if (op.containsKey("requestBody")) {
        nullableFormats(op.getJsonObject("requestBody"), name, new java.util.HashSet<>(), wrong);
      }
    });
    assertTrue(wrong.isEmpty(), "nullable formatted values in request bodies: " + wrong);
  }

  private void nullableFormats(Object node, String at, Set<String> seen, List<String> wrong) {
    if (node instanceof JsonObject o) {
      String ref = o.getString("$ref");
      if (ref != null) {
        if (seen.add(ref)) {
          nullableFormats(resolve(o), ref, seen, wrong);
        }
        return;
      }
      if (o.getValue("type") instanceof JsonArray t && t.contains("null") && o.containsKey("format")) {
        wrong.add(at);
      }
      o.forEach(e -> nullableFormats(e.getValue(), at + "/" + e.getKey(), seen, wrong));
    } else if (node instanceof JsonArray a) {
      a.forEach(v -> nullableFormats(v, at, seen, wrong));
    }
  }
}
