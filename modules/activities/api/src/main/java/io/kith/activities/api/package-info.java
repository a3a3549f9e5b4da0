/**
 * The activities domain as other modules see it: {@link io.kith.activities.api.ActivitiesService} (bound at
 * {@link io.kith.activities.api.ActivitiesService#ADDRESS}), its failure codes
 * ({@link io.kith.activities.api.ActivitiesErrors}), limits and value names ({@link io.kith.activities.api.Activities})
 * and domain events ({@link io.kith.activities.api.ActivitiesEvents}).
 */
@ModuleGen(name = "kith-activities", groupPackage = "io.kith.activities")
package io.kith.activities.api;

import io.vertx.codegen.annotations.ModuleGen;
