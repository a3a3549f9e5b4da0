package io.kith.feeds.service;

import io.kith.accounts.api.AccountsInternal;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Who a post reaches on the public surfaces (the latest timeline, and the douyin feed built on it): a limited author's
 * posts (issue 22; moderation limits through accounts) reach only the author and their followers. Accounts holds the
 * limit, so feeds keeps no copy to sync or rebuild: a page asks {@link AccountsInternal#limitedAmong} once for its
 * authors (accounts answers from its profile cache), and relations' hot flags only when a limited author is on it.
 */
final class Reach {

  private final AccountsInternal accounts;
  private final Ties ties;

  Reach(AccountsInternal accounts, Ties ties) {
    this.accounts = accounts;
    this.ties = ties;
  }

  /** The views (in order) whose authors are not limited, or are the viewer or someone the viewer follows. */
  Future<List<JsonObject>> onPublicSurface(long viewer, List<JsonObject> views) {
    Set<Long> authors = new LinkedHashSet<>();
    views.forEach(v -> authors.add(authorOf(v)));
    authors.remove(viewer);
    if (authors.isEmpty()) {
      return Future.succeededFuture(views);
    }
    return accounts.limitedAmong(List.copyOf(authors)).compose(limited -> {
      if (limited.isEmpty()) {
        return Future.succeededFuture(views);
      }
      List<Long> narrowed = limited.fieldNames().stream().map(Long::parseLong).toList();
      Future<Map<Long, JsonObject>> flags = viewer == 0 ? Future.succeededFuture(Map.of())
          : ties.flags(viewer, narrowed);
      return flags.map(f -> views.stream().filter(v -> {
        long author = authorOf(v);
        return author == viewer || !limited.containsKey(Long.toString(author))
            || f.getOrDefault(author, new JsonObject()).getBoolean("following", false);
      }).toList());
    });
  }

  private static long authorOf(JsonObject view) {
    return view.getJsonObject("author", new JsonObject()).getLong("id", 0L);
  }
}
