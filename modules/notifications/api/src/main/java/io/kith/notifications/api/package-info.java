/**
 * The notifications domain as other modules see it: {@link io.kith.notifications.api.NotificationsService} (bound at
 * {@link io.kith.notifications.api.NotificationsService#ADDRESS}) and {@link io.kith.notifications.api.Notifications}
 * (types, fields and the real-time envelope).
 */
@ModuleGen(name = "kith-notifications", groupPackage = "io.kith.notifications")
package io.kith.notifications.api;

import io.vertx.codegen.annotations.ModuleGen;
