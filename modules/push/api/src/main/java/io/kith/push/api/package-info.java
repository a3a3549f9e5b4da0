/**
 * What other modules and the gateway may see of the push module: the service interfaces of push targets, webhooks and
 * server-to-server API keys, their addresses and data types. The module's README describes the contract.
 */
@ModuleGen(name = "kith-push", groupPackage = "io.kith.push")
package io.kith.push.api;

import io.vertx.codegen.annotations.ModuleGen;
