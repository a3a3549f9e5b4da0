package io.kith.app.support;

import io.kith.platform.config.KithConfig;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.Assumptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The deployment files of the repository (Dockerfile, deploy/compose.yaml, deploy/kubernetes) as the tests that check
 * them read them: YAML documents as JSON trees, and a node environment checked as Kith would load it.
 */
public final class DeployFiles {

  private DeployFiles() {
  }

  /** The repository root (tests run in modules/app). */
  public static Path root() {
    return Path.of("..", "..").toAbsolutePath().normalize();
  }

  /** A file of the repository as text. */
  public static String read(String relative) throws IOException {
    return Files.readString(root().resolve(relative), StandardCharsets.UTF_8);
  }

  /** Every YAML document of a file, as JSON trees (merge keys and anchors resolved). */
  public static List<JsonObject> yaml(String relative) throws IOException {
    Yaml yaml = new Yaml(new SafeConstructor(new LoaderOptions()));
    List<JsonObject> out = new ArrayList<>();
    for (Object doc : yaml.loadAll(read(relative))) {
      if (doc != null) {
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) doc;
        out.add(new JsonObject(map).copy());
      }
    }
    return out;
  }

  /** The only YAML document of a file. */
  public static JsonObject yamlOne(String relative) throws IOException {
    List<JsonObject> docs = yaml(relative);
    assertTrue(docs.size() == 1, relative + " should hold one document, not " + docs.size());
    return docs.get(0);
  }

  /**
   * Loads a node's environment as Kith does at start, and fails unless every {@code KITH_} variable names a key of
   * conf/kith.yaml with a value of its type.
   */
  public static KithConfig assertValidEnvironment(String where, Map<String, String> env) {
    KithConfig config;
    try {
      config = KithConfig.load(null, env);
    } catch (RuntimeException e) {
      return fail(where + ": Kith would refuse this environment: " + e.getMessage());
    }
    Set<String> unknown = new TreeSet<>(config.unknownEnvironment());
    assertTrue(unknown.isEmpty(), where + ": variables that match no configuration key: " + unknown);
    return config;
  }

  /**
   * Skips the calling test when {@code tool} is not on the PATH, unless {@code KITH_REQUIRE_DEPLOY_TOOLS=1} (CI, which
   * installs them) makes that a failure.
   */
  public static void requireTool(String tool) {
    boolean found = false;
    for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
      found |= !dir.isEmpty() && Files.isExecutable(Path.of(dir, tool));
    }
    if (!found && "1".equals(System.getenv("KITH_REQUIRE_DEPLOY_TOOLS"))) {
      fail(tool + " is not on the PATH and KITH_REQUIRE_DEPLOY_TOOLS=1");
    }
    Assumptions.assumeTrue(found, tool + " is needed (apt-get install " + tool + ")");
  }
}
