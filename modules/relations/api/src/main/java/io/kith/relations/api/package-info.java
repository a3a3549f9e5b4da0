/**
 * The relations domain as other modules see it: {@link io.kith.relations.api.RelationsService} (bound at
 * {@link io.kith.relations.api.RelationsService#ADDRESS}), {@link io.kith.relations.api.RelationsErrors} and
 * {@link io.kith.relations.api.RelationsEvents}.
 */
@ModuleGen(name = "kith-relations", groupPackage = "io.kith.relations")
package io.kith.relations.api;

import io.vertx.codegen.annotations.ModuleGen;
