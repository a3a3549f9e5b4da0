package io.kith.gateway.bridge;

import io.kith.platform.bus.Addresses;
import io.kith.platform.testkit.NodeScript;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Keeps {@code src/main/resources/asyncapi.yaml} valid and complete. The AsyncAPI parser ({@code @asyncapi/parser},
 * installed by {@code npm ci} in {@code src/test/asyncapi}; {@code .ci/run} does it) must report no error; where
 * Node or the parser is missing that test is skipped, unless {@code KITH_REQUIRE_NODE_TESTS=1} (CI) makes it a
 * failure. The push kinds are compared with the code's: every {@code PUSH_*} constant of a domain's api (the kinds
 * the services publish to client addresses) must be a documented message, and every documented kind a real one.
 */
@DisplayName("The AsyncAPI document of the bridges")
class AsyncApiDocumentTest {

  private static final Path DIR = Path.of("src", "test", "asyncapi");
  private static final Path DOCUMENT = Path.of("src", "main", "resources", "asyncapi.yaml");
  /**
   * Kinds published without a {@code PUSH_*} constant in an api artifact: accounts' presence push (its services
   * spell it where they publish it).
   */
  private static final Set<String> KINDS_WITHOUT_CONSTANT = Set.of("presence");

  @Test
  @DisplayName("the AsyncAPI parser reads the document with zero errors")
  void parses() throws Exception {
    NodeScript.requireInstalled(DIR, "@asyncapi");

    String output = NodeScript.run(DIR, Map.of(), 120, "check.js");

    assertTrue(output.contains("\"ok\":true") && output.contains("\"errors\":[]"), output);
  }

  @Test
  @DisplayName("every push kind the services can publish is a documented message, and every documented kind exists")
  void everyPushKindIsDocumented() throws Exception {
    Set<String> published = new TreeSet<>(pushKindConstants());
    // guards against a scan that silently finds nothing (the api jars moved, the convention changed)
    assertTrue(published.containsAll(Set.of("message", "notification", "stroke")), published.toString());
    published.addAll(KINDS_WITHOUT_CONSTANT);
    // the gateway's own push, published by the node itself rather than by a service
    published.add(ClusterResync.PUSH_RESYNC);

    Set<String> documented = documentedKinds();

    Set<String> undocumented = new TreeSet<>(published);
    undocumented.removeAll(documented);
    assertEquals(Set.of(), undocumented, "push kinds missing from asyncapi.yaml");
    Set<String> unknown = new TreeSet<>(documented);
    unknown.removeAll(published);
    assertEquals(Set.of(), unknown, "asyncapi.yaml documents kinds no code publishes");
  }

  @Test
  @DisplayName("the document's channels are the addresses the bridge lets clients register on and send to")
  @SuppressWarnings("unchecked")
  void channelsAreBridgeAddresses() throws Exception {
    Map<String, Object> channels = (Map<String, Object>) document().get("channels");
    Set<String> addresses = new TreeSet<>();
    channels.values().forEach(c -> {
      Object address = ((Map<String, Object>) c).get("address");
      if (address != null) {
        addresses.add(address.toString());
      }
    });
    assertTrue(addresses.contains(Addresses.USER_PREFIX + "{userId}"), addresses.toString());
    assertTrue(addresses.contains(Addresses.BRIDGE_WHOAMI), addresses.toString());
    // every inbound address of conf/kith.yaml's bridge.inbound (anchored expressions) has its channel
    List<String> inbound = inboundPatterns();
    assertTrue(inbound.size() >= 2, inbound.toString());
    for (String pattern : inbound) {
      assertTrue(addresses.stream().anyMatch(a -> a.matches(pattern)),
          "no channel for inbound address " + pattern + " in " + addresses);
    }
    // and every fixed address documented is one the bridge lets clients send to
    for (String address : addresses) {
      if (!address.contains("{")) {
        assertTrue(inbound.stream().anyMatch(address::matches), address + " is not in bridge.inbound " + inbound);
      }
    }
  }

  @Test
  @DisplayName("the real-time guide (docs/realtime.md) shows every push kind and every address the document has")
  @SuppressWarnings("unchecked")
  void guideFollowsTheDocument() throws Exception {
    String guide = Files.readString(Path.of("..", "..", "docs", "realtime.md"));
    Set<String> missing = new TreeSet<>();
    for (String kind : documentedKinds()) {
      if (!guide.contains("`" + kind + "`") && !guide.contains("\"kind\":\"" + kind + "\"")) {
        missing.add("kind " + kind);
      }
    }
    for (Object channel : ((Map<String, Object>) document().get("channels")).values()) {
      Object address = ((Map<String, Object>) channel).get("address");
      // the guide writes kith.user.<id> where the document has kith.user.{userId}
      if (address != null && !guide.contains("`" + address.toString().replaceFirst("\\{.*", ""))) {
        missing.add("address " + address);
      }
    }
    assertEquals(Set.of(), missing, "in asyncapi.yaml but not in docs/realtime.md");
  }

  @SuppressWarnings("unchecked")
  private static Set<String> documentedKinds() throws IOException {
    Map<String, Object> messages = (Map<String, Object>) ((Map<String, Object>) document().get("components"))
        .get("messages");
    Set<String> kinds = new TreeSet<>();
    for (Object message : messages.values()) {
      Map<String, Object> payload = (Map<String, Object>) ((Map<String, Object>) message).get("payload");
      Map<String, Object> properties = payload == null ? null : (Map<String, Object>) payload.get("properties");
      Object kind = properties == null ? null : properties.get("kind");
      if (kind instanceof Map && ((Map<String, Object>) kind).containsKey("const")) {
        kinds.add(String.valueOf(((Map<String, Object>) kind).get("const")));
      }
    }
    return kinds;
  }

  private static Map<String, Object> document() throws IOException {
    try (InputStream in = Files.newInputStream(DOCUMENT)) {
      Map<String, Object> doc = new Yaml().load(in);
      assertNotNull(doc);
      return doc;
    }
  }

  @SuppressWarnings("unchecked")
  private static List<String> inboundPatterns() throws IOException {
    Path conf = Path.of("..", "..", "conf", "kith.yaml");
    try (InputStream in = Files.newInputStream(conf)) {
      Map<String, Object> yaml = new Yaml().load(in);
      return (List<String>) ((Map<String, Object>) yaml.get("bridge")).get("inbound");
    }
  }

  /** The values of every {@code public static final String PUSH_*} of the classes in {@code io.kith.*.api}. */
  private static Set<String> pushKindConstants() throws Exception {
    Set<String> kinds = new TreeSet<>();
    for (String name : apiClassNames()) {
      Class<?> type = Class.forName(name, false, AsyncApiDocumentTest.class.getClassLoader());
      for (Field field : type.getDeclaredFields()) {
        int m = field.getModifiers();
        if (field.getName().startsWith("PUSH_") && field.getType() == String.class && Modifier.isStatic(m)
            && Modifier.isFinal(m) && Modifier.isPublic(m)) {
          kinds.add((String) field.get(null));
        }
      }
    }
    return kinds;
  }

  /** Top-level classes of the packages {@code io.kith.<domain>.api} on the test class path (folders or jars). */
  private static List<String> apiClassNames() throws IOException {
    List<String> names = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      Path root = Path.of(entry);
      if (Files.isDirectory(root.resolve("io").resolve("kith"))) {
        try (Stream<Path> files = Files.walk(root.resolve("io").resolve("kith"))) {
          files.map(f -> root.relativize(f).toString().replace(File.separatorChar, '/')).forEach(p -> add(names, p));
        }
      } else if (entry.endsWith(".jar") && Files.isRegularFile(root)) {
        try (JarFile jar = new JarFile(root.toFile())) {
          for (Enumeration<JarEntry> e = jar.entries(); e.hasMoreElements(); ) {
            add(names, e.nextElement().getName());
          }
        }
      }
    }
    return names;
  }

  private static void add(List<String> names, String path) {
    if (path.matches("io/kith/[a-z]+/api/[A-Z][A-Za-z0-9]*\\.class")) {
      names.add(path.substring(0, path.length() - ".class".length()).replace('/', '.'));
    }
  }
}
