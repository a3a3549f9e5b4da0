/**
 * The activities domain as other modules see it: its domain events ({@link io.kith.activities.api.ActivitiesEvents}),
 * and the service interface, failure codes and limits.
 */
@ModuleGen(name = "kith-activities", groupPackage = "io.kith.activities")
package io.kith.activities.api;

import io.vertx.codegen.annotations.ModuleGen;
