package io.kith.feeds.service;

import io.kith.accounts.api.AccountsInternal;
import io.kith.platform.text.ContentFilters;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * A reader's own screen (issue 22): a reader who turned on the account setting {@code hide_filtered} does not see
 * posts or comments whose text any operator content filter of that context matches (the {@code hide} filters, made
 * for it, and text stored before a refuse or hold filter came), on the home, moments and latest timelines and in
 * comment lists; their own stay. The setting is read once per page from accounts (its profile cache); matching runs
 * on this node's compiled filters.
 */
final class ReaderScreen {

  private final AccountsInternal accounts;

  ReaderScreen(AccountsInternal accounts) {
    this.accounts = accounts;
  }

  /** Whether the reader asked to hide filtered content (never for an anonymous reader). */
  Future<Boolean> hides(long viewer) {
    return viewer == 0 ? Future.succeededFuture(false)
        : accounts.readerSettings(viewer).map(s -> s.getBoolean("hide_filtered", false));
  }

  /** The views (in order) whose text no filter of {@code context} matches, and the reader's own. */
  static List<JsonObject> without(long viewer, List<JsonObject> views, String context) {
    return views.stream().filter(v -> v.getJsonObject("author", new JsonObject()).getLong("id", 0L) == viewer
        || !ContentFilters.matchesAny(context, v.getString("text"))).toList();
  }
}
