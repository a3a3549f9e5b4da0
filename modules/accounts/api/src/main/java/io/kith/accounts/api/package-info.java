/**
 * The accounts domain as other modules see it: {@link io.kith.accounts.api.AccountsService} (bound on the event bus
 * at {@link io.kith.accounts.api.AccountsService#ADDRESS}), its failure codes ({@link io.kith.accounts.api.AccountsErrors})
 * and the events it appends to the event log ({@link io.kith.accounts.api.AccountsEvents}).
 */
@ModuleGen(name = "kith-accounts", groupPackage = "io.kith.accounts")
package io.kith.accounts.api;

import io.vertx.codegen.annotations.ModuleGen;
