/**
 * The feeds domain as other modules see it: {@link io.kith.feeds.api.FeedsService} (bound at
 * {@link io.kith.feeds.api.FeedsService#ADDRESS}), {@link io.kith.feeds.api.FeedsErrors} and
 * {@link io.kith.feeds.api.FeedsEvents}.
 */
@ModuleGen(name = "kith-feeds", groupPackage = "io.kith.feeds")
package io.kith.feeds.api;

import io.vertx.codegen.annotations.ModuleGen;
