package io.kith.accounts.api.events;

import io.kith.accounts.api.AccountsEvents;
import io.kith.platform.events.Event;
import io.vertx.core.json.JsonObject;

/**
 * The export archive a user asked for ({@code POST /api/v1/me/export}) is built and can be downloaded by its owner
 * until {@code expiresAt}. Notifications tells the user ({@code export_ready}).
 *
 * @param userId    the owner of the export
 * @param exportId  the export's id ({@code GET /api/v1/me/exports/{id}/download})
 * @param expiresAt when the archive is deleted (epoch milliseconds)
 */
public record AccountExportReady(long userId, long exportId, long expiresAt) implements Event {

  @Override
  public String eventType() {
    return AccountsEvents.ACCOUNT_EXPORT_READY;
  }

  @Override
  public JsonObject toJson() {
    return new JsonObject().put("user_id", userId).put("export_id", exportId).put("expires_at", expiresAt);
  }

  /** Reads a payload as {@link #toJson} writes it. */
  public static AccountExportReady fromJson(JsonObject json) {
    return new AccountExportReady(json.getLong("user_id", 0L), json.getLong("export_id", 0L),
        json.getLong("expires_at", 0L));
  }
}
