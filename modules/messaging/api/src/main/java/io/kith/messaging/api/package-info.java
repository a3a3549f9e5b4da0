/**
 * The messaging domain as other modules see it: {@link io.kith.messaging.api.MessagingService} (bound at
 * {@link io.kith.messaging.api.MessagingService#ADDRESS}), its failure codes ({@link io.kith.messaging.api.MessagingErrors}),
 * domain events ({@link io.kith.messaging.api.MessagingEvents}) and the real-time envelopes and bridge addresses
 * ({@link io.kith.messaging.api.Messaging}); whiteboards: {@link io.kith.messaging.api.WhiteboardService} (bound at
 * {@link io.kith.messaging.api.WhiteboardService#ADDRESS}), {@link io.kith.messaging.api.WhiteboardErrors} and
 * {@link io.kith.messaging.api.Whiteboards}.
 */
@ModuleGen(name = "kith-messaging", groupPackage = "io.kith.messaging")
package io.kith.messaging.api;

import io.vertx.codegen.annotations.ModuleGen;
