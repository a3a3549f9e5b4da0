/**
 * A stand-in domain service for tests of how calls reach services ({@code ServiceBindings}, {@code ServiceProxies}):
 * it answers with the name of the instance that served the call, refuses with a coded failure, or never answers.
 */
@ModuleGen(name = "kith-probe", groupPackage = "io.kith.platform.testkit.probe")
package io.kith.platform.testkit.probe;

import io.vertx.codegen.annotations.ModuleGen;
