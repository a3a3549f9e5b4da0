/**
 * What other modules and the gateway may see of moderation: the service interface, its address, the roles, report
 * targets, categories and states, and the events moderation appends. The module's README describes the contract.
 */
@ModuleGen(name = "kith-moderation", groupPackage = "io.kith.moderation")
package io.kith.moderation.api;

import io.vertx.codegen.annotations.ModuleGen;
