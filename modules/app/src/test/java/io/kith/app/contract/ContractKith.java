package io.kith.app.contract;

import io.kith.app.support.TestKith;

/** One Kith node running every domain and the gateway, for checking the contract across them. */
final class ContractKith extends TestKith {

  private ContractKith() {
    super(config("accounts", "relations", "feeds", "notifications", "messaging", "activities", "gateway"), "k");
  }

  static ContractKith start() {
    return new ContractKith();
  }
}
