package io.kith.push.api;

import java.util.List;

/** Scopes and the form of server-to-server API keys. */
public final class ApiKeys {

  /** Create notifications of app-defined types for listed users ({@code POST /api/v1/server/notifications}). */
  public static final String NOTIFICATIONS_WRITE = "notifications:write";
  /** Send an announcement to everyone ({@code all: true} on the same route). */
  public static final String ANNOUNCEMENTS_WRITE = "announcements:write";
  /** Read public data of users ({@code GET /api/v1/server/users/{id}}). */
  public static final String USERS_READ = "users:read";
  /** Administer webhooks ({@code /api/v1/admin/webhooks...}) as an admin user may. */
  public static final String WEBHOOKS_ADMIN = "webhooks:admin";
  /** Every scope, in a stable order. */
  public static final List<String> SCOPES = List.of(NOTIFICATIONS_WRITE, ANNOUNCEMENTS_WRITE, USERS_READ,
      WEBHOOKS_ADMIN);
  /** How every key begins (the rest is 32 random bytes, base64url). */
  public static final String PREFIX = "kith_sk_";

  private ApiKeys() {
  }
}
