package io.kith.app;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The module contract of ARCHITECTURE.md, checked on the product classes: a domain is {@code io.kith.<domain>.api}
 * (what others may see) and {@code io.kith.<domain>.service} (its own business). No module reaches into another
 * domain's service; the gateway sees only api packages and the platform; the platform sees nothing of Kith.
 */
class ArchitectureTest {

  /**
   * The service interfaces whose operations trust their caller (no acting user, or a user the caller names): each
   * domain's {@code <Domain>Internal} and the relations port {@code UserDirectory}, with their generated proxies.
   */
  private static final DescribedPredicate<JavaClass> INTERNAL_OPERATIONS = DescribedPredicate.describe(
      "are internal service interfaces", c -> c.getName().matches(
          "io\\.kith\\.[a-z]+\\.api\\.([A-Za-z]+Internal|UserDirectory)(VertxEBProxy|VertxProxyHandler)?"));

  private static JavaClasses classes;

  @BeforeAll
  static void importClasses() {
    classes = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        // test jars (the platform test kit) are not product code
        .withImportOption(location -> !location.contains("-tests.jar") && !location.contains("/test-classes/"))
        .importPackages("io.kith");
  }

  @Test
  @DisplayName("the product classes of platform, gateway and app are all checked")
  void importsTheModules() {
    assertTrue(classes.containPackage("io.kith.platform"), "platform classes imported");
    assertTrue(classes.containPackage("io.kith.gateway"), "gateway classes imported");
    assertTrue(classes.containPackage("io.kith.app"), "app classes imported");
  }

  @Test
  @DisplayName("the platform depends on no other Kith module")
  void platformIsTheKernel() {
    noClasses().that().resideInAPackage("io.kith.platform..")
        .should().dependOnClassesThat().resideOutsideOfPackages("io.kith.platform..", "java..", "javax..",
            "io.vertx..", "io.netty..", "org.slf4j..", "org.yaml..", "de.bwaldvogel..", "org.h2..", "redis.embedded..",
            "com.fasterxml..", "org.bson..", "com.mongodb..", "io.micrometer..")
        .check(classes);
  }

  @Test
  @DisplayName("no domain service uses another domain's service classes")
  void servicesAreIndependent() {
    slices().matching("io.kith.(*).service..").should().notDependOnEachOther()
        .allowEmptyShould(true)
        .check(classes);
  }

  @Test
  @DisplayName("no two domains depend on each other, directly or around a loop")
  void domainsAreFreeOfCycles() {
    // one slice per top-level package: a domain's api and service together, so a loop through any api is caught
    slices().matching("io.kith.(*)..").should().beFreeOfCycles()
        .check(classes);
  }

  @Test
  @DisplayName("the gateway and api artifacts never use service classes")
  void gatewaySeesOnlyApis() {
    noClasses().that().resideInAnyPackage("io.kith.gateway..", "io.kith.*.api..")
        .should().dependOnClassesThat().resideInAPackage("io.kith.*.service..")
        .allowEmptyShould(true)
        .check(classes);
  }

  @Test
  @DisplayName("the gateway's HTTP routes never see an internal service interface, so no route can call an operation "
      + "that trusts its caller")
  void routesSeeNoInternalOperations() {
    // the rule below checks something: the domains' internal interfaces (notifications' and moderation's among
    // them) and the relations port are imported
    assertEquals(9, classes.stream().filter(c -> c.isInterface() && INTERNAL_OPERATIONS.test(c)).count(),
        "internal service interfaces imported");
    noClasses().that().resideInAPackage("io.kith.gateway.http..")
        .should().dependOnClassesThat(INTERNAL_OPERATIONS)
        .check(classes);
  }

  @Test
  @DisplayName("nothing but the app depends on the app")
  void appIsTheTop() {
    noClasses().that().resideOutsideOfPackage("io.kith.app..")
        .should().dependOnClassesThat().resideInAPackage("io.kith.app..")
        .check(classes);
  }
}
