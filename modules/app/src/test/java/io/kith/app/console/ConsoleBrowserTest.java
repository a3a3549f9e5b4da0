package io.kith.app.console;

import io.kith.app.support.TestKith;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.NodeScript;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The Kith Console in a real browser: every {@code *.spec.js} of {@code src/test/console} (one scenario per file,
 * helpers in {@code harness.js}) drives Debian's Chromium with {@code playwright-core} against one live Kith running
 * every module. A spec's first line {@code // @DisplayName: ...} names its test. Screenshots land in
 * {@code target/console-screenshots}; {@code -Dkith.console.spec=social} runs the specs whose file name contains
 * {@code social}. Where Node, {@code npm ci} there or Chromium ({@code KITH_CHROMIUM}, else
 * {@code /usr/bin/chromium}) is missing the test is skipped, unless {@code KITH_REQUIRE_NODE_TESTS=1} (CI) makes that
 * a failure.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("The Kith Console in Chromium (Playwright)")
class ConsoleBrowserTest {

  private static final Path DIR = Path.of("src", "test", "console");
  private static final Path SHOTS = Path.of("target", "console-screenshots");
  private static final String NAME = "// @DisplayName:";


  private TestKith kith;
  private String chromium;
  private final String admin = TestKith.unique("cbadmin");
  private final String adminPassword = "Sunny-" + TestKith.unique("p") + "!";

  @BeforeAll
  void start() {
    NodeScript.requireInstalled(DIR, "playwright-core");
    chromium = System.getenv().getOrDefault("KITH_CHROMIUM", "/usr/bin/chromium");
    if (!Files.isExecutable(Path.of(chromium))) {
      if ("1".equals(System.getenv("KITH_REQUIRE_NODE_TESTS"))) {
        fail("Chromium is missing at " + chromium + " (apt-get install chromium, or set KITH_CHROMIUM)");
      }
      Assumptions.abort("Chromium is needed at " + chromium);
    }
    // the screenshots of this run only (a failed spec's are named failed-<spec>-<page>)
    try (Stream<Path> old = Files.exists(SHOTS) ? Files.list(SHOTS) : Stream.empty()) {
      old.forEach(f -> f.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    // the operator specs log in as the first admin (moderation.admins), registered on a first node over the same
    // stores
    TestKith first = TestKith.node("cb", "accounts", "gateway");
    long adminId;
    try {
      adminId = first.post("/accounts", null, new JsonObject().put("username", admin).put("password", adminPassword))
          .expect(201).getJsonObject("user").getLong("id");
    } finally {
      first.close();
    }
    kith = new TestKith(TestKith.config("all")
        .put("moderation", new JsonObject().put("admins", new JsonArray().add(adminId))), "cb") {
    };
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @TestFactory
  @DisplayName("each console spec passes in the browser")
  Stream<DynamicTest> specs() throws IOException {
    List<Path> specs;
    try (Stream<Path> files = Files.list(DIR)) {
      // -Dkith.console.spec=<part of a file name> runs the matching specs only (while writing one)
      String only = System.getProperty("kith.console.spec", "");
      specs = files.filter(f -> f.getFileName().toString().endsWith(".spec.js"))
          .filter(f -> f.getFileName().toString().contains(only)).sorted().toList();
    }
    if (specs.isEmpty()) {
      fail("no *.spec.js in " + DIR);
    }
    return specs.stream().map(spec -> DynamicTest.dynamicTest(name(spec), () -> run(spec)));
  }

  private static String name(Path spec) {
    String first;
    try {
      first = Files.readAllLines(spec).get(0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (!first.startsWith(NAME)) {
      throw new IllegalStateException(spec + " must start with " + NAME + " <a sentence>");
    }
    return first.substring(NAME.length()).trim();
  }

  private void run(Path spec) throws Exception {
    String output = NodeScript.run(DIR, Map.of("KITH_URL", "http://127.0.0.1:" + kith.port(),
        "KITH_CHROMIUM", chromium, "KITH_SCREENSHOTS", SHOTS.toAbsolutePath().toString(),
        "KITH_ADMIN", admin, "KITH_ADMIN_PASSWORD", adminPassword), 300,
        spec.getFileName().toString());
    JsonObject result = NodeScript.result(output);
    assertEquals(Boolean.TRUE, result.getBoolean("ok"), output);
  }
}
