package io.kith.platform.config;

import io.vertx.core.json.JsonArray;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KithConfigTest {

  @TempDir
  Path dir;

  private Path yaml(String text) throws IOException {
    Path file = dir.resolve("kith-" + System.nanoTime() + ".yaml");
    Files.writeString(file, text);
    return file;
  }

  private static void assertOneLine(String message) {
    assertFalse(message == null || message.isBlank(), "message is empty");
    assertFalse(message.contains("\n") || message.contains("\r"), "message spans several lines: " + message);
  }

  @Test
  @DisplayName("with no file and no environment the defaults come from kith.yaml on the classpath")
  void defaultsFromClasspath() {
    KithConfig config = KithConfig.load(null, Map.of());

    assertEquals(8080, config.get("http.port"));
    assertEquals("kith", config.getString("tokens.issuer", null));
    assertEquals(30, config.section("ids").getInteger("lease-seconds"));
    assertEquals(new JsonArray().add("127.0.0.1"), config.get("cluster.members"));
    assertEquals(Boolean.FALSE, config.get("cluster.enabled"));
    assertTrue(config.unknownEnvironment().isEmpty());
  }

  @Test
  @DisplayName("a file that puts a plain value where a section belongs is refused with a line naming the key")
  void scalarInPlaceOfSection() throws IOException {
    Path file = yaml("http: 5\n");
    ConfigException e = assertThrows(ConfigException.class, () -> KithConfig.load(file, Map.of()));
    assertOneLine(e.getMessage());
    assertTrue(e.getMessage().contains("'http'") && e.getMessage().contains("a section"), e.getMessage());
  }

  @Test
  @DisplayName("an unknown key in a file is refused with one line naming the key and the file")
  void unknownKeyInFile() throws IOException {
    Path file = yaml("redis:\n  ulr: redis://prod:6379\n");

    ConfigException e = assertThrows(ConfigException.class, () -> KithConfig.load(file, Map.of()));

    assertOneLine(e.getMessage());
    assertTrue(e.getMessage().contains("unknown configuration key 'redis.ulr'"), e.getMessage());
    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
  }

  @Test
  @DisplayName("an unknown key deep in a section and an unknown section are refused alike")
  void unknownNestedKeyAndSection() throws IOException {
    Path nested = yaml("feeds:\n  media:\n    image-max-byte: 5\n");
    ConfigException deep = assertThrows(ConfigException.class, () -> KithConfig.load(nested, Map.of()));
    assertTrue(deep.getMessage().contains("'feeds.media.image-max-byte'"), deep.getMessage());

    Path section = yaml("htpp:\n  port: 9000\n");
    ConfigException top = assertThrows(ConfigException.class, () -> KithConfig.load(section, Map.of()));
    assertTrue(top.getMessage().contains("unknown configuration key 'htpp'"), top.getMessage());
  }

  @Test
  @DisplayName("a value of the wrong type in a file is refused with one line naming the key, the file and the type")
  void wrongTypeInFile() throws IOException {
    Path file = yaml("http:\n  port: \"abc\"\n");

    ConfigException e = assertThrows(ConfigException.class, () -> KithConfig.load(file, Map.of()));

    assertOneLine(e.getMessage());
    assertTrue(e.getMessage().contains("'http.port'") && e.getMessage().contains(file.toString())
        && e.getMessage().contains("must be an integer, not a string"), e.getMessage());
  }

  @Test
  @DisplayName("an integer key refuses a decimal, a decimal key takes an integer, a list refuses items of another type")
  void numberAndListTypes() throws IOException {
    ConfigException decimal = assertThrows(ConfigException.class,
        () -> KithConfig.load(yaml("feeds:\n  timeline-cap: 1.5\n"), Map.of()));
    assertTrue(decimal.getMessage().contains("'feeds.timeline-cap'")
        && decimal.getMessage().contains("must be an integer"), decimal.getMessage());

    KithConfig whole = KithConfig.load(yaml("accounts:\n  nearby-max-radius-km: 20\n"), Map.of());
    assertEquals(20, whole.get("accounts.nearby-max-radius-km"));

    ConfigException list = assertThrows(ConfigException.class,
        () -> KithConfig.load(yaml("cluster:\n  members: [[a]]\n"), Map.of()));
    assertTrue(list.getMessage().contains("'cluster.members[0]'"), list.getMessage());
    ConfigException notList = assertThrows(ConfigException.class,
        () -> KithConfig.load(yaml("kith:\n  modules: 7\n"), Map.of()));
    assertTrue(notList.getMessage().contains("'kith.modules'") && notList.getMessage().contains("a list"),
        notList.getMessage());
  }

  @Test
  @DisplayName("a KITH_ variable that names no key still only warns, and a variable's bad value names the variable")
  void environmentTyposStayWarnings() {
    KithConfig config = KithConfig.load(null, Map.of("KITH_REDIS_ULR", "redis://x", "KITH_HTTP_PORT", "9090"));
    assertEquals(List.of("KITH_REDIS_ULR"), config.unknownEnvironment());
    assertEquals(9090, config.get("http.port"));

    ConfigException e = assertThrows(ConfigException.class,
        () -> KithConfig.load(null, Map.of("KITH_HTTP_TRUSTED_PROXIES", "a", "KITH_HTTP_IDLE_SECONDS", "soon")));
    assertTrue(e.getMessage().contains("KITH_HTTP_IDLE_SECONDS"), e.getMessage());
  }

  @Test
  @DisplayName("the production example and the defaults themselves validate")
  void productionExampleValidates() {
    Path example = Path.of("..", "..", "conf", "kith.production.example.yaml");
    assertTrue(Files.isRegularFile(example), example.toAbsolutePath().toString());

    KithConfig config = KithConfig.load(example, Map.of());

    assertEquals(Boolean.TRUE, config.get("cluster.enabled"));
    KithConfig.load(Path.of("..", "..", "conf", "kith.yaml"), Map.of());
  }

  @Test
  @DisplayName("a YAML file overrides the keys it names and keeps every other default of the same section")
  void fileOverrides() throws IOException {
    Path file = yaml("http:\n  port: 9000\ntokens:\n  issuer: example\n");

    KithConfig config = KithConfig.load(file, Map.of());

    assertEquals(9000, config.get("http.port"));
    assertEquals("0.0.0.0", config.get("http.host"), "a sibling key of an overridden one keeps its default");
    assertEquals("example", config.getString("tokens.issuer", null));
    assertEquals("kith-api", config.getString("tokens.audience", null));
  }

  @Test
  @DisplayName("an environment variable overrides the default and the file, converted to the default's type")
  void environmentOverridesWithType() throws IOException {
    Path file = yaml("http:\n  port: 9000\n");

    KithConfig config = KithConfig.load(file, Map.of("KITH_HTTP_PORT", "9090"));

    Object port = config.get("http.port");
    assertInstanceOf(Integer.class, port);
    assertEquals(9090, port);
    assertEquals(9090, config.section("http").getInteger("port"));
  }

  @Test
  @DisplayName("a key with dashes is reached by underscores and booleans accept any case")
  void dashesAndBooleans() {
    KithConfig config = KithConfig.load(null, Map.of(
        "KITH_HTTP_BODY_LIMIT", "2048",
        "KITH_CLUSTER_ENABLED", "TRUE",
        "KITH_TOKENS_SECRET", "a secret with spaces, commas and 9090"));

    assertEquals(2048, config.get("http.body-limit"));
    assertEquals(Boolean.TRUE, config.get("cluster.enabled"));
    assertEquals("a secret with spaces, commas and 9090", config.get("tokens.secret"));
  }

  @Test
  @DisplayName("a comma-separated environment value becomes a list")
  void environmentList() {
    KithConfig config = KithConfig.load(null, Map.of("KITH_CLUSTER_MEMBERS", "a, b"));

    assertEquals(new JsonArray().add("a").add("b"), config.get("cluster.members"));
  }

  @Test
  @DisplayName("a boolean variable set to 'yes' is refused with a one-line message naming the variable")
  void invalidBooleanRefused() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> KithConfig.load(null, Map.of("KITH_CLUSTER_ENABLED", "yes")));

    assertTrue(e.getMessage().contains("KITH_CLUSTER_ENABLED"), e.getMessage());
    assertOneLine(e.getMessage());
  }

  @Test
  @DisplayName("a number variable that is not a number is refused with a message naming the variable")
  void invalidNumberRefused() {
    ConfigException e = assertThrows(ConfigException.class,
        () -> KithConfig.load(null, Map.of("KITH_HTTP_PORT", "eighty")));

    assertTrue(e.getMessage().contains("KITH_HTTP_PORT"), e.getMessage());
    assertOneLine(e.getMessage());
  }

  @Test
  @DisplayName("a KITH_ variable that matches no key is reported, and other variables are ignored")
  void unknownVariablesReported() {
    KithConfig config = KithConfig.load(null, Map.of(
        "KITH_FOO", "1",
        "KITH_HTTP_PROT", "1",
        "PATH", "/usr/bin",
        "HTTP_PORT", "1"));

    assertEquals(List.of("KITH_FOO", "KITH_HTTP_PROT"), config.unknownEnvironment());
    assertEquals(8080, config.get("http.port"), "a misspelt variable changes nothing");
  }

  @Test
  @DisplayName("a configuration file that does not exist is refused with a one-line message naming it")
  void missingFileRefused() {
    Path missing = dir.resolve("nope.yaml");

    ConfigException e = assertThrows(ConfigException.class, () -> KithConfig.load(missing, Map.of()));

    assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
    assertOneLine(e.getMessage());
  }

  @Test
  @DisplayName("a file that is not valid YAML is refused with a one-line message naming it")
  void invalidYamlRefused() throws IOException {
    Path file = yaml("http:\n  port: [8080\n  host: : :\n");

    ConfigException e = assertThrows(ConfigException.class, () -> KithConfig.load(file, Map.of()));

    assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
    assertTrue(e.getMessage().contains("not valid YAML"), e.getMessage());
    assertOneLine(e.getMessage());
  }

  @Test
  @DisplayName("a file whose top level is not a mapping is refused")
  void nonMappingRefused() throws IOException {
    Path file = yaml("- http\n- redis\n");

    ConfigException e = assertThrows(ConfigException.class, () -> KithConfig.load(file, Map.of()));

    assertTrue(e.getMessage().contains("mapping"), e.getMessage());
    assertOneLine(e.getMessage());
  }

  @Test
  @DisplayName("an empty file leaves the defaults in place")
  void emptyFileKeepsDefaults() throws IOException {
    KithConfig config = KithConfig.load(yaml(""), Map.of());

    assertEquals(8080, config.get("http.port"));
  }

  @Test
  @DisplayName("sections are copies: changing one does not change the configuration")
  void sectionsAreCopies() {
    KithConfig config = KithConfig.load(null, Map.of());

    config.section("http").put("port", 1);
    config.json().getJsonObject("http").put("port", 1);

    assertEquals(8080, config.get("http.port"));
  }
}
