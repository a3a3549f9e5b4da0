package io.kith.app.deploy;

import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import io.kith.app.support.DeployFiles;
import io.kith.platform.config.KithConfig;
import io.kubernetes.client.openapi.JSON;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * deploy/kubernetes, validated offline against the models of the official Kubernetes Java client
 * ({@code io.kubernetes:client-java-api}, generated from the Kubernetes OpenAPI document): a field the schema does
 * not have, a missing required field or a value of the wrong type fails, at any depth. Then what Kith needs of them:
 * probes, the drain within the termination grace, secrets, Hazelcast discovery and the node's configuration.
 */
@DisplayName("deploy/kubernetes manifests")
class KubernetesManifestsTest {

  private static final String DIR = "deploy/kubernetes/";
  /** The kinds this folder uses and their API versions (a kind in another group would validate as this one). */
  private static final Map<String, String> API_VERSIONS = Map.of("Namespace", "v1", "ConfigMap", "v1",
      "Service", "v1", "Deployment", "apps/v1", "PodDisruptionBudget", "policy/v1",
      "NetworkPolicy", "networking.k8s.io/v1");

  private static JsonObject kustomization;
  private static final Map<String, JsonObject> BY_NAME = new HashMap<>();
  private static final List<JsonObject> ALL = new ArrayList<>();
  private static JsonObject deployment;
  private static JsonObject container;
  private static KithConfig defaults;

  @BeforeAll
  static void read() throws IOException {
    kustomization = DeployFiles.yamlOne(DIR + "kustomization.yaml");
    for (Object file : kustomization.getJsonArray("resources")) {
      for (JsonObject doc : DeployFiles.yaml(DIR + file)) {
        ALL.add(doc);
        BY_NAME.put(doc.getString("kind") + "/" + doc.getJsonObject("metadata").getString("name"), doc);
      }
    }
    deployment = BY_NAME.get("Deployment/kith");
    assertNotNull(deployment, BY_NAME.keySet().toString());
    container = podSpec().getJsonArray("containers").getJsonObject(0);
    defaults = KithConfig.load(null, Map.of());
  }

  @Test
  @DisplayName("every manifest is valid by the Kubernetes API schema: no unknown field, no missing required one, "
      + "no wrong type")
  void schemaValid() {
    assertEquals(API_VERSIONS.keySet(), ALL.stream().map(m -> m.getString("kind")).collect(Collectors.toSet()));
    for (JsonObject manifest : ALL) {
      validate(manifest);
    }
  }

  @Test
  @DisplayName("the validator refuses a misspelt field, a missing required field, a wrong type and a wrong API group")
  void validatorRefuses() {
    JsonObject misspelt = deployment.copy();
    JsonObject c = misspelt.getJsonObject("spec").getJsonObject("template").getJsonObject("spec")
        .getJsonArray("containers").getJsonObject(0);
    c.put("readinesProbe", c.remove("readinessProbe"));
    JsonObject unnamed = deployment.copy();
    unnamed.getJsonObject("spec").getJsonObject("template").getJsonObject("spec").getJsonArray("containers")
        .getJsonObject(0).remove("name");
    JsonObject wrongType = deployment.copy();
    wrongType.getJsonObject("spec").put("replicas", "three");
    JsonObject wrongGroup = deployment.copy().put("apiVersion", "v1");
    for (JsonObject bad : List.of(misspelt, unnamed, wrongType, wrongGroup)) {
      assertThrows(AssertionError.class, () -> validate(bad));
    }
  }

  @Test
  @DisplayName("the kustomization lists every manifest of the folder")
  void kustomizationComplete() throws IOException {
    Set<String> files;
    try (Stream<java.nio.file.Path> list = Files.list(DeployFiles.root().resolve(DIR))) {
      files = list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".yaml"))
          .filter(n -> !n.equals("kustomization.yaml")).collect(Collectors.toCollection(TreeSet::new));
    }
    assertEquals(files, new TreeSet<>(kustomization.getJsonArray("resources").getList()));
    assertEquals("kith", kustomization.getString("namespace"));
  }

  @Test
  @DisplayName("startup and liveness probes ask /health, readiness /ready, on the container port of conf/kith.yaml's "
      + "http.port; resources are requested and memory is limited")
  void probes() {
    assertEquals(defaults.get("http.port"), port("http"));
    assertEquals(defaults.get("cluster.port"), port("hazelcast"));
    assertEquals(Integer.valueOf(env().get("KITH_CLUSTER_BUS_PORT")), port("bus"));
    for (String probe : List.of("startupProbe", "livenessProbe", "readinessProbe")) {
      JsonObject get = container.getJsonObject(probe).getJsonObject("httpGet");
      assertEquals(probe.equals("readinessProbe") ? "/ready" : "/health", get.getString("path"), probe);
      assertEquals("http", get.getValue("port"), probe);
    }
    JsonObject resources = container.getJsonObject("resources");
    assertNotNull(resources.getJsonObject("requests").getValue("cpu"));
    assertNotNull(resources.getJsonObject("requests").getValue("memory"));
    assertNotNull(resources.getJsonObject("limits").getValue("memory"));
  }

  @Test
  @DisplayName("a rolling update adds a pod before it stops one, and a stopping pod's preStop wait and drain end "
      + "within its termination grace")
  void rollingAndDrain() {
    JsonObject rolling = deployment.getJsonObject("spec").getJsonObject("strategy").getJsonObject("rollingUpdate");
    assertEquals(0, rolling.getInteger("maxUnavailable"));
    assertTrue(rolling.getInteger("maxSurge") >= 1);
    JsonArray preStop = container.getJsonObject("lifecycle").getJsonObject("preStop").getJsonObject("exec")
        .getJsonArray("command");
    assertEquals("sleep", preStop.getString(0));
    int wait = Integer.parseInt(preStop.getString(1));
    int drain = Integer.parseInt(env().get("KITH_SHUTDOWN_GRACE_SECONDS"));
    int grace = podSpec().getInteger("terminationGracePeriodSeconds");
    // after the drain the node undeploys its modules and leaves the cluster: ten seconds for that
    assertTrue(wait + drain + 10 <= grace, "preStop " + wait + " s + drain " + drain + " s vs grace " + grace + " s");
    JsonObject pdb = BY_NAME.get("PodDisruptionBudget/kith").getJsonObject("spec");
    assertEquals(podLabels(), pdb.getJsonObject("selector").getJsonObject("matchLabels"));
    assertTrue(pdb.getInteger("maxUnavailable") < deployment.getJsonObject("spec").getInteger("replicas") / 2 + 1);
  }

  @Test
  @DisplayName("the pods run as the image's numeric non-root user, with a read-only root file system")
  void nonRoot() throws IOException {
    Matcher user = Pattern.compile("(?m)^USER (\\d+):(\\d+)$").matcher(DeployFiles.read("Dockerfile"));
    assertTrue(user.find());
    JsonObject pod = podSpec().getJsonObject("securityContext");
    assertEquals(Boolean.TRUE, pod.getBoolean("runAsNonRoot"));
    assertEquals(Integer.parseInt(user.group(1)), pod.getInteger("runAsUser"));
    assertEquals(Integer.parseInt(user.group(2)), pod.getInteger("runAsGroup"));
    assertEquals(Boolean.TRUE, container.getJsonObject("securityContext").getBoolean("readOnlyRootFilesystem"));
  }

  @Test
  @DisplayName("the token secret, the metrics token, the store URLs and the cluster TLS files come from Secrets")
  void secrets() {
    Map<String, JsonObject> byName = new HashMap<>();
    container.getJsonArray("env").forEach(e -> byName.put(((JsonObject) e).getString("name"), (JsonObject) e));
    for (String name : List.of("KITH_TOKENS_SECRET", "KITH_HTTP_METRICS_TOKEN", "KITH_REDIS_URL", "KITH_MONGO_URL")) {
      assertNotNull(byName.get(name).getJsonObject("valueFrom").getJsonObject("secretKeyRef"), name);
    }
    String tlsDir = mountPath("cluster-tls");
    for (String file : List.of("KITH_CLUSTER_TLS_KEY", "KITH_CLUSTER_TLS_CERT", "KITH_CLUSTER_TLS_CA")) {
      assertTrue(env().get(file).startsWith(tlsDir + "/"), file);
    }
    assertEquals("true", env().get("KITH_CLUSTER_TLS_ENABLED"));
    assertEquals("kith-cluster-tls", volume("cluster-tls").getJsonObject("secret").getString("secretName"));
  }

  @Test
  @DisplayName("the container's environment is a valid Kith configuration that clusters on the pod's IP, with "
      + "Hazelcast found through the headless service named in the ConfigMap, ready only with a majority of the pods")
  void clusterDiscovery() {
    KithConfig config = DeployFiles.assertValidEnvironment(DIR + "deployment.yaml", env());
    assertTrue(config.section("cluster").getBoolean("enabled"));
    int replicas = deployment.getJsonObject("spec").getInteger("replicas");
    assertTrue(config.section("cluster").getInteger("min-members") > replicas / 2,
        "a pod is ready only with a majority of the replicas, so one cut off alone leaves the Service");
    JsonObject host = container.getJsonArray("env").stream().map(JsonObject.class::cast)
        .filter(e -> e.getString("name").equals("KITH_CLUSTER_HOST")).findFirst().orElseThrow();
    assertEquals("status.podIP", host.getJsonObject("valueFrom").getJsonObject("fieldRef").getString("fieldPath"));
    String file = env().get("KITH_CLUSTER_CONFIG_FILE");
    String dir = mountPath("hazelcast");
    assertTrue(file.startsWith(dir + "/"), file);
    JsonObject configMap = BY_NAME.get("ConfigMap/" + volume("hazelcast").getJsonObject("configMap")
        .getString("name"));
    String xml = configMap.getJsonObject("data").getString(file.substring(dir.length() + 1));
    JsonObject headless = BY_NAME.get("Service/kith-hazelcast").getJsonObject("spec");
    assertEquals("None", headless.getString("clusterIP"));
    assertEquals(Boolean.TRUE, headless.getBoolean("publishNotReadyAddresses"), "pods join before they are ready");
    assertEquals(podLabels(), headless.getJsonObject("selector"));
    assertTrue(xml.contains("<service-dns>kith-hazelcast." + kustomization.getString("namespace")
        + ".svc.cluster.local</service-dns>"), xml);
  }

  /** Fails (AssertionError) unless the official client's model of the manifest's kind accepts it. */
  private static void validate(JsonObject manifest) {
    String kind = manifest.getString("kind");
    String apiVersion = manifest.getString("apiVersion");
    assertEquals(API_VERSIONS.get(kind), apiVersion, kind + " " + apiVersion);
    String version = apiVersion.substring(apiVersion.lastIndexOf('/') + 1);
    String model = "io.kubernetes.client.openapi.models." + version.toUpperCase(java.util.Locale.ROOT) + kind;
    String text = manifest.encode();
    try {
      Class<?> type = Class.forName(model);
      JsonElement json = JsonParser.parseString(text);
      type.getMethod("validateJsonElement", JsonElement.class).invoke(null, json);
      new JSON().deserialize(text, type);
    } catch (InvocationTargetException e) {
      throw new AssertionError(kind + " " + name(manifest) + ": " + e.getCause().getMessage(), e.getCause());
    } catch (ReflectiveOperationException | RuntimeException e) {
      throw new AssertionError(kind + " " + name(manifest) + ": " + e, e);
    }
  }

  private static String name(JsonObject manifest) {
    return manifest.getJsonObject("metadata").getString("name");
  }

  private static JsonObject podSpec() {
    return deployment.getJsonObject("spec").getJsonObject("template").getJsonObject("spec");
  }

  private static JsonObject podLabels() {
    return deployment.getJsonObject("spec").getJsonObject("template").getJsonObject("metadata")
        .getJsonObject("labels");
  }

  private static Object port(String name) {
    return container.getJsonArray("ports").stream().map(JsonObject.class::cast)
        .filter(p -> p.getString("name").equals(name)).findFirst().orElseThrow().getValue("containerPort");
  }

  private static String mountPath(String volume) {
    return container.getJsonArray("volumeMounts").stream().map(JsonObject.class::cast)
        .filter(m -> m.getString("name").equals(volume)).findFirst().orElseThrow().getString("mountPath");
  }

  private static JsonObject volume(String name) {
    return podSpec().getJsonArray("volumes").stream().map(JsonObject.class::cast)
        .filter(v -> v.getString("name").equals(name)).findFirst().orElseThrow();
  }

  /** The container's environment, values taken from Secrets and the downward API given stand-ins of their kind. */
  private static Map<String, String> env() {
    Map<String, String> out = new HashMap<>();
    for (Object o : container.getJsonArray("env")) {
      JsonObject e = (JsonObject) o;
      String value = e.getString("value");
      if (value == null) {
        JsonObject from = e.getJsonObject("valueFrom");
        value = from.containsKey("fieldRef") ? "192.0.2.10"
            : e.getString("name").endsWith("_URL") ? "redis://stand-in:6379/0"
            : "0123456789abcdef0123456789abcdef0123456789abcdef";
      }
      out.put(e.getString("name"), value);
    }
    return out;
  }
}
